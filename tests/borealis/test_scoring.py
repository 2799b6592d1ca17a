"""Final scoring (§6, §7, §8): Britta's 56, the scoring-card vectors, tie-breakers and achievements."""
from __future__ import annotations

import pytest

from domain.borealis import RULES
from domain.borealis.board import new_board
from domain.borealis.scoring import (
    SCORING_CARDS,
    PlayerScore,
    Tableau,
    achievements,
    farewell_default,
    ranking,
    score_player,
    tableau,
)

CATALOGUE = RULES.catalogue
BEAR, FOX, OWL, SEAL, PUFFIN = "polar_bear", "arctic_fox", "snowy_owl", "harp_seal", "puffin"


def cards_of(species: str, count: int, stars: int = 0, skip: int = 0) -> list[str]:
    """``count`` distinct card ids of one species, all with or all without the extra star."""
    found = [card.card_id for card in CATALOGUE.cards.values() if card.species == species and card.extra_stars == stars]
    return found[skip:skip + count]


def britta() -> dict:
    """§9.2, constructed: the stacks, flags and tokens of Britta's board."""
    seals, owls, puffins, bears = cards_of(SEAL, 3), cards_of(OWL, 5), cards_of(PUFFIN, 3), cards_of(BEAR, 2)
    starred_bear, starred_owl = cards_of(BEAR, 1, stars=1), cards_of(OWL, 1, stars=1)
    board = new_board("I")
    board["stacks"] = {
        "LEFT": [seals[0], seals[1], starred_bear[0], seals[2]],
        "MIDDLE": [owls[0], owls[1], bears[0], owls[2], owls[3], starred_owl[0], puffins[0]],
        "RIGHT": [puffins[1], puffins[2], bears[1]],
    }
    board["flags"] = {"LEFT": 3, "MIDDLE": 5, "RIGHT": 3}
    board["token_stars"] = 16
    return board


def test_brittas_final_score_is_56():
    """§9.2: BOR-SCORE-1 14, BOR-SCORE-2 12, BOR-SCORE-3 2, BOR-SCORE-4 6 + 6, BOR-SCORE-5 16."""
    score = score_player("p1", britta(), ["interspecies", "mating_season"], CATALOGUE, None)
    by_label = {line["label"]: line["points"] for line in score.parts}
    assert by_label == {
        "Species sets": 14,
        "Flags": 12,
        "Card stars": 2,
        "Scoring card: Interspecies Relationships": 6,
        "Scoring card: Mating Season": 6,
        "Star tokens": 16,
    }
    assert [line["rule"] for line in score.parts] == ["BOR-SCORE-1", "BOR-SCORE-2", "BOR-SCORE-3", "BOR-SCORE-4",
                                                      "BOR-SCORE-4", "BOR-SCORE-5"]
    assert score.total == 56


def test_five_of_a_kind_is_worth_10_not_14():
    """§6.2, §11 A0: the species-set table, and past 7 cards k(k-1)/2 (BOR-END-2: any stack size is scored)."""
    assert [CATALOGUE.species_set_points(k) for k in range(8)] == [0, 0, 1, 3, 6, 10, 15, 21]
    assert CATALOGUE.species_set_points(5) != 14
    assert CATALOGUE.species_set_points(8) == 28


def t(species=None, flags=(0, 0, 0), scientists=None, vehicles=(), farewell="LEFT", board_id="I") -> Tableau:
    """A tableau built straight from the spec's vector inputs."""
    species = species or {}
    tracks = CATALOGUE.boards[board_id]
    flag_map = dict(zip(("LEFT", "MIDDLE", "RIGHT"), flags, strict=True))
    counts = {"CAMP_L": 0, "LEFT": 0, "MIDDLE": 0, "RIGHT": 0, "CAMP_R": 0, **(scientists or {})}
    return Tableau(
        species={location: list(species.get(location, [])) for location in ("LEFT", "MIDDLE", "RIGHT")},
        vehicles=list(vehicles),
        extra_stars=0,
        flags=flag_map,
        flag_stars={location: tracks[location][index].stars for location, index in flag_map.items()},
        scientists=counts,
        farewell=farewell,
    )


@pytest.mark.parametrize(("card", "tableau_", "expected"), [
    # BOR-SC-COMMON, including the start space counting as a line (§11 A12)
    ("common_destination", t(flags=(3, 4, 3)), 5),
    ("common_destination", t(flags=(4, 4, 4)), 12),
    ("common_destination", t(flags=(1, 2, 3)), 0),
    ("common_destination", t(flags=(0, 0, 0)), 12),
    # BOR-SC-EXPANSIVE, rows from the bottom card
    ("expansive_species", t({"LEFT": [BEAR, FOX, PUFFIN], "MIDDLE": [BEAR, SEAL, PUFFIN, OWL],
                             "RIGHT": [BEAR, OWL, PUFFIN]}), 10),
    # BOR-SC-INTERSPECIES
    ("interspecies", t({"LEFT": [BEAR, BEAR, BEAR], "MIDDLE": [FOX, SEAL, FOX], "RIGHT": [OWL, PUFFIN, SEAL]}), 3),
    # BOR-SC-OUTER: strictly more than the middle
    ("outer_lands", t({"LEFT": [OWL] * 5, "MIDDLE": [OWL] * 5, "RIGHT": [OWL] * 6}), 7),
    # BOR-SC-FAREWELL: the chosen location, camps never count
    ("farewell_party", t(scientists={"LEFT": 4, "MIDDLE": 1, "RIGHT": 2, "CAMP_L": 2}, farewell="LEFT"), 8),
    # BOR-SC-MATING: runs of exactly two
    ("mating_season", t({"MIDDLE": [BEAR, BEAR, PUFFIN, PUFFIN, PUFFIN, BEAR, BEAR]}), 4),
    # BOR-SC-SAFE
    ("safe_return", t(scientists={"CAMP_L": 2, "CAMP_R": 3, "LEFT": 4}), 15),
    # BOR-SC-POPULAR: a tie scores one vehicle
    ("popular_vehicle", t(vehicles=["zeppelin"] + ["submarine"] * 3 + ["skis"] * 3 + ["kayak"] * 4 + ["sleigh"] * 4),
     8),
    # BOR-SC-UNTRODDEN: star values 3, 4, 5 on side I
    ("untrodden_path", t(flags=(3, 4, 4)), 6),
    ("untrodden_path", t(flags=(0, 6, 7)), 0),
    # BOR-SC-TERRITORIAL, a 0- or 1-card location qualifies (§11 A10)
    ("territorial_animals", t({"LEFT": [BEAR, FOX, BEAR], "MIDDLE": [OWL, BEAR, BEAR, SEAL], "RIGHT": [PUFFIN, SEAL]}),
     12),
    ("territorial_animals", t({"LEFT": [BEAR], "MIDDLE": [OWL, OWL]}), 12),
])
def test_scoring_card_vectors(card, tableau_, expected):
    """§9.3: every scoring card with the spec's example (and a few edges)."""
    assert SCORING_CARDS[card](tableau_) == expected


def test_untrodden_path_uses_the_star_values_of_the_board():
    """BOR-SC-UNTRODDEN, BOR-SCORE-2: values from the board data (side I: LEFT 3 -> 3, MIDDLE 4 -> 4, RIGHT 4 -> 5)."""
    board = new_board("I")
    board["flags"] = {"LEFT": 3, "MIDDLE": 4, "RIGHT": 4}
    assert tableau(board, CATALOGUE).flag_stars == {"LEFT": 3, "MIDDLE": 4, "RIGHT": 5}
    assert SCORING_CARDS["untrodden_path"](tableau(board, CATALOGUE)) == 6


def test_farewell_party_defaults_to_the_fullest_location_leftmost_on_a_tie():
    """BOR-END-3 (ASSUMED default)."""
    assert farewell_default({"CAMP_L": 5, "LEFT": 1, "MIDDLE": 3, "RIGHT": 3, "CAMP_R": 0}) == "MIDDLE"
    assert farewell_default({"CAMP_L": 0, "LEFT": 2, "MIDDLE": 1, "RIGHT": 2, "CAMP_R": 0}) == "LEFT"


def score(seat, total, best_flag, tokens):
    return PlayerScore(seat, [], total, best_flag, tokens, {})


def test_the_highest_total_wins():
    """BOR-WIN-1."""
    places, tie_breaks = ranking([score("p1", 40, 7, 20), score("p2", 41, 0, 0)])
    assert places == [{"rank": 1, "seats": ["p2"]}, {"rank": 2, "seats": ["p1"]}]
    assert tie_breaks == []


def test_a_tie_goes_to_the_flag_furthest_down_a_track():
    """BOR-WIN-2 (§11 A7): the single most advanced flag index, not its star value."""
    places, tie_breaks = ranking([score("p1", 50, 4, 30), score("p2", 50, 5, 1), score("p3", 30, 7, 0)])
    assert places[0] == {"rank": 1, "seats": ["p2"]}
    assert tie_breaks == [{"rule": "BOR-WIN-2", "seats": ["p2", "p1"], "detail": {"p2": 5, "p1": 4}}]


def test_then_the_star_tokens():
    """BOR-WIN-3."""
    places, tie_breaks = ranking([score("p1", 50, 5, 9), score("p2", 50, 5, 12)])
    assert places == [{"rank": 1, "seats": ["p2"]}, {"rank": 2, "seats": ["p1"]}]
    assert [tb["rule"] for tb in tie_breaks] == ["BOR-WIN-3"]


def test_a_full_tie_shares_the_place_and_both_win():
    """BOR-WIN-4 (§11 A8): shared rank 1, both earn ACH_WIN."""
    places, tie_breaks = ranking([score("p1", 50, 5, 9), score("p2", 50, 5, 9), score("p3", 10, 0, 0)])
    assert places == [{"rank": 1, "seats": ["p1", "p2"]}, {"rank": 3, "seats": ["p3"]}]
    assert [tb["rule"] for tb in tie_breaks] == ["BOR-WIN-3", "BOR-WIN-4"]


def test_achievements_of_brittas_game():
    """§8: ACH_WIN, ACH_50, ACH_WIN_NO_GOALS, and none for a scoring card not in the game."""
    board = britta()
    result = score_player("p1", board, ["interspecies", "mating_season"], CATALOGUE, None)
    assert achievements(result, board, CATALOGUE, won=True, goals_claimed=0) == ["ACH_WIN", "ACH_50",
                                                                                 "ACH_WIN_NO_GOALS"]
    assert achievements(result, board, CATALOGUE, won=False, goals_claimed=3) == ["ACH_50", "ACH_ALL_GOALS"]


def test_achievements_for_flags_seven_of_a_kind_and_scoring_cards():
    """§8: ACH_FLAG_END, ACH_SEVEN_SAME, ACH_60..80 and the scoring-card thresholds (§11 A11 for Farewell)."""
    board = new_board("I")
    board["stacks"]["LEFT"] = cards_of(OWL, 7)
    board["flags"] = {"LEFT": 7, "MIDDLE": 7, "RIGHT": 7}
    board["scientists"]["LEFT"] = {"yellow": 2, "pink": 2, "blue": 2}
    result = score_player("p1", board, ["common_destination", "farewell_party"], CATALOGUE, "LEFT")
    assert result.card_points == {"common_destination": 12, "farewell_party": 12}
    earned = achievements(result, board, CATALOGUE, won=False, goals_claimed=1)
    assert result.total == 21 + 41 + 0 + 12 + 12 + 2
    assert earned == ["ACH_50", "ACH_60", "ACH_70", "ACH_80", "ACH_FLAG_END", "ACH_SEVEN_SAME", "ACH_SC_COMMON_12",
                      "ACH_SC_FAREWELL_12"]
    board["scientists"]["LEFT"] = {"yellow": 2, "pink": 2, "blue": 1}
    lower = score_player("p1", board, ["farewell_party"], CATALOGUE, "LEFT")
    assert "ACH_SC_FAREWELL_12" not in achievements(lower, board, CATALOGUE, won=False, goals_claimed=1)
