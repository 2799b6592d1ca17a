"""Final scoring (§6): the five parts, the 10 scoring cards (§7), winner and tie-breakers, achievements (§8)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby

from domain.borealis.board import CAMPS, LOCATIONS
from domain.borealis.catalogue import Catalogue


@dataclass(frozen=True)
class Tableau:
    """What scoring reads of one player's board at game end."""

    species: dict[str, list[str]]  # per location, bottom (first played) to top
    vehicles: list[str]
    extra_stars: int
    flags: dict[str, int]  # space index per track
    flag_stars: dict[str, int]  # star value of that space
    scientists: dict[str, int]  # per space (locations and camps), all colours together
    farewell: str


def farewell_default(scientists: dict[str, int]) -> str:
    """BOR-END-3 (ASSUMED): with no choice, the location with most scientists, the leftmost on a tie."""
    return max(LOCATIONS, key=lambda location: (scientists[location], -LOCATIONS.index(location)))


def tableau(board: dict, catalogue: Catalogue, farewell: str | None = None) -> Tableau:
    cards = catalogue.cards
    in_play = [cards[card_id] for location in LOCATIONS for card_id in board["stacks"][location]]
    tracks = catalogue.boards[board["board"]]
    scientists = {space: sum(counts.values()) for space, counts in board["scientists"].items()}
    return Tableau(
        species={location: [cards[c].species for c in board["stacks"][location]] for location in LOCATIONS},
        vehicles=[card.vehicle for card in in_play],
        extra_stars=sum(card.extra_stars for card in in_play),
        flags=dict(board["flags"]),
        flag_stars={location: tracks[location][index].stars for location, index in board["flags"].items()},
        scientists=scientists,
        farewell=farewell or farewell_default(scientists),
    )


def common_destination(t: Tableau) -> int:
    """BOR-SC-COMMON: 12 if all three flags share a line, else 5 if two do; the start space counts (§11 A12)."""
    distinct = len(set(t.flags.values()))
    return 12 if distinct == 1 else 5 if distinct == 2 else 0


def expansive_species(t: Tableau) -> int:
    """BOR-SC-EXPANSIVE: 5 per row p (counted from the bottom, §11 A15) where all three locations show one species."""
    rows = zip(*(t.species[location] for location in LOCATIONS), strict=False)
    return 5 * sum(1 for row in rows if len(set(row)) == 1)


def farewell_party(t: Tableau) -> int:
    """BOR-SC-FAREWELL: 2 per scientist in the one chosen location; camps never count."""
    return 2 * t.scientists[t.farewell]


def interspecies(t: Tableau) -> int:
    """BOR-SC-INTERSPECIES: 3 per location holding exactly 2 species."""
    return 3 * sum(1 for location in LOCATIONS if len(set(t.species[location])) == 2)


def mating_season(t: Tableau) -> int:
    """BOR-SC-MATING: 2 per maximal run of exactly two same-species cards; runs of 3 or more score nothing."""
    return 2 * sum(
        1 for location in LOCATIONS for _, run in groupby(t.species[location]) if sum(1 for _ in run) == 2
    )


def outer_lands(t: Tableau) -> int:
    """BOR-SC-OUTER: 7 per outer location with strictly more cards than the middle one."""
    middle = len(t.species["MIDDLE"])
    return 7 * sum(1 for location in ("LEFT", "RIGHT") if len(t.species[location]) > middle)


def popular_vehicle(t: Tableau) -> int:
    """BOR-SC-POPULAR: 2 per card of the most common vehicle; a tie scores one of them only."""
    return 2 * max(Counter(t.vehicles).values(), default=0)


def safe_return(t: Tableau) -> int:
    """BOR-SC-SAFE: 3 per scientist in the two camps together."""
    return 3 * sum(t.scientists[camp] for camp in CAMPS)


def untrodden_path(t: Tableau) -> int:
    """BOR-SC-UNTRODDEN: twice the star value (not the index) of the lowest-valued flag."""
    return 2 * min(t.flag_stars.values())


def territorial_animals(t: Tableau) -> int:
    """BOR-SC-TERRITORIAL: 6 per location where no two vertically adjacent cards share a species (0-1 cards qualify)."""
    return 6 * sum(
        1 for location in LOCATIONS
        if all(below != above for below, above in zip(t.species[location], t.species[location][1:], strict=False))
    )


SCORING_CARDS: dict[str, Callable[[Tableau], int]] = {
    "common_destination": common_destination,
    "expansive_species": expansive_species,
    "farewell_party": farewell_party,
    "interspecies": interspecies,
    "mating_season": mating_season,
    "outer_lands": outer_lands,
    "popular_vehicle": popular_vehicle,
    "safe_return": safe_return,
    "untrodden_path": untrodden_path,
    "territorial_animals": territorial_animals,
}


def species_sets(t: Tableau, catalogue: Catalogue) -> int:
    """BOR-SCORE-1: each species in each location scored on its own with the set table (§6.2)."""
    return sum(
        catalogue.species_set_points(count)
        for location in LOCATIONS
        for count in Counter(t.species[location]).values()
    )


@dataclass(frozen=True)
class PlayerScore:
    seat: str
    parts: list[dict]  # one line per part (and per scoring card in part 4)
    total: int
    best_flag: int
    token_stars: int
    card_points: dict[str, int]


def score_player(seat: str, board: dict, scoring_cards: list[str], catalogue: Catalogue,
                 farewell: str | None) -> PlayerScore:
    """§6.1: the sum of the five parts."""
    t = tableau(board, catalogue, farewell)
    card_points = {card_id: SCORING_CARDS[card_id](t) for card_id in scoring_cards}  # BOR-SCORE-4
    lines = [
        {"part": 1, "rule": "BOR-SCORE-1", "label": "Species sets", "points": species_sets(t, catalogue)},
        {"part": 2, "rule": "BOR-SCORE-2", "label": "Flags", "points": sum(t.flag_stars.values())},
        {"part": 3, "rule": "BOR-SCORE-3", "label": "Card stars", "points": t.extra_stars},
    ]
    for card_id, points in card_points.items():
        card = catalogue.scoring_cards[card_id]
        line = {"part": 4, "rule": "BOR-SCORE-4", "card_rule": card.rule_id, "scoring_card": card_id,
                "label": f"Scoring card: {card.name}", "points": points}
        if card_id == "farewell_party":
            line["location"] = t.farewell  # BOR-END-3
        lines.append(line)
    # BOR-SCORE-5; a claimed goal counts only through its token, an unclaimed one scores nothing (BOR-GOAL-7).
    lines.append({"part": 5, "rule": "BOR-SCORE-5", "label": "Star tokens", "points": board["token_stars"]})
    for line in lines:
        line["seat"] = seat
    return PlayerScore(
        seat=seat,
        parts=lines,
        total=sum(line["points"] for line in lines),
        best_flag=max(board["flags"].values()),
        token_stars=board["token_stars"],
        card_points=card_points,
    )


def ranking(scores: list[PlayerScore]) -> tuple[list[dict], list[dict]]:
    """BOR-WIN-1..4: highest total; then the single most advanced flag (§11 A7); then tokens; else a shared place."""
    def key(score: PlayerScore) -> tuple[int, int, int]:
        return (score.total, score.best_flag, score.token_stars)

    ordered = sorted(scores, key=key, reverse=True)
    places: list[dict] = []
    tie_breaks: list[dict] = []
    rank = 1
    for _, group in groupby(ordered, key=key):
        seats = [score.seat for score in group]
        places.append({"rank": rank, "seats": seats})  # BOR-WIN-4: equal on all three keys share the place
        rank += len(seats)
    for total, group in groupby(ordered, key=lambda score: score.total):
        tied = list(group)
        if len(tied) < 2:
            continue
        seats = [score.seat for score in tied]
        if len({score.best_flag for score in tied}) > 1:
            tie_breaks.append({"rule": "BOR-WIN-2", "seats": seats,
                               "detail": {score.seat: score.best_flag for score in tied}})
        if any(sum(1 for other in tied if other.best_flag == score.best_flag) > 1 for score in tied):
            tie_breaks.append({"rule": "BOR-WIN-3", "seats": seats,
                               "detail": {score.seat: score.token_stars for score in tied}})
        if len({key(score) for score in tied}) < len(tied):
            tie_breaks.append({"rule": "BOR-WIN-4", "seats": seats, "detail": {"total": total}})
    return places, tie_breaks


SCORING_CARD_ACHIEVEMENTS = {
    "common_destination": ("ACH_SC_COMMON_12", lambda points: points == 12),
    "expansive_species": ("ACH_SC_EXPANSIVE_15", lambda points: points >= 15),
    "farewell_party": ("ACH_SC_FAREWELL_12", lambda points: points >= 12),  # §11 A11
    "interspecies": ("ACH_SC_INTERSPECIES_9", lambda points: points == 9),
    "mating_season": ("ACH_SC_MATING_14", lambda points: points >= 14),
    "outer_lands": ("ACH_SC_OUTER_14", lambda points: points == 14),
    "popular_vehicle": ("ACH_SC_POPULAR_12", lambda points: points >= 12),
    "safe_return": ("ACH_SC_SAFE_15", lambda points: points >= 15),
    "territorial_animals": ("ACH_SC_TERRITORIAL_18", lambda points: points == 18),
    "untrodden_path": ("ACH_SC_UNTRODDEN_10", lambda points: points >= 10),
}


def achievements(score: PlayerScore, board: dict, catalogue: Catalogue, won: bool, goals_claimed: int) -> list[str]:
    """§8: the achievements this player earned in this game; a shared first place counts as a win (§11 A8)."""
    earned = []
    if won:
        earned.append("ACH_WIN")
    earned += [f"ACH_{floor}" for floor in (50, 60, 70, 80) if score.total >= floor]
    if max(board["flags"].values()) == 7:
        earned.append("ACH_FLAG_END")
    species = [[catalogue.cards[c].species for c in board["stacks"][location]] for location in LOCATIONS]
    if any(count >= 7 for stack in species for count in Counter(stack).values()):
        earned.append("ACH_SEVEN_SAME")
    if goals_claimed == 3:
        earned.append("ACH_ALL_GOALS")
    if won and goals_claimed == 0:
        earned.append("ACH_WIN_NO_GOALS")
    for card_id, points in score.card_points.items():
        name, test = SCORING_CARD_ACHIEVEMENTS[card_id]
        if test(points):
            earned.append(name)
    return earned


def score_sheet(state: dict, catalogue: Catalogue) -> dict:
    """The score sheet of an ended game: every player's parts, the ranking with its tie-breaks, achievements."""
    scores = [
        score_player(seat, state["players"][seat], state["scoring_cards"], catalogue,
                     state["players"][seat]["farewell"])
        for seat in state["seats"]
    ]
    places, tie_breaks = ranking(scores)
    winners = set(places[0]["seats"])
    return {
        "outcome": "ranked",
        "lines": [line for score in scores for line in score.parts],
        "totals": {score.seat: score.total for score in scores},
        "ranking": places,
        "tie_breaks": tie_breaks,
        "achievements": {
            score.seat: achievements(score, state["players"][score.seat], catalogue,
                                     score.seat in winners, len(state["players"][score.seat]["goals_claimed"]))
            for score in scores
        },
    }
