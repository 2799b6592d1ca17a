"""The base-box modules: Survival (TIS-SURV), Shelter Building (TIS-SHEL) and Dual Animal Species (TIS-DUAL)."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, SERVER, TABLE, IllegalMove
from domain.core.match import create, legal_moves, redact, view
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.shelter import majority_lines
from tests.conformance.harness import play_random_game
from tests.through_ice_and_snow.helpers import NAMES, act, do, pass_all, play_sensibly, player, sail, table_game, turn

P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]


def action_phase(players: int, options: dict, anchor: str = "E1", **sail_options):
    match = table_game(players, P1_LEADS[:players], options=options)
    sail(match, anchor, **sail_options)
    return match


def refused(match, space, lead=None, crew=None, **extra) -> IllegalMove:
    with pytest.raises(IllegalMove) as error:
        act(match, space, lead, crew, **extra)
    return error.value


def deposits(match, space: str) -> set:
    return {move.get("survival_deposit", "-") for move in legal_moves(match, turn(match)) if move.get("space") == space}


# ---------------------------------------------------------------- Survival

SURVIVAL = {"survival": True}


def test_survival_example():
    """TV-9 / TIS-SURV-2 / TIS-SURV-3 / TIS-SURV-4: Fernando (leader), Linus, Laia."""
    match = action_phase(3, SURVIVAL)
    fernando, linus, laia = (player(match, seat) for seat in ("p1", "p2", "p3"))
    assert deposits(match, "hire-inuk-1") == {"-"}  # below the captain warehouse
    act(match, "hire-inuk-1", "captain", {"sailor": 1})
    assert deposits(match, "improve-sled") == {"dynamite", "wood", "rifle", "dog"}
    before = (linus["dynamite"], linus["wood"])
    act(match, "improve-sled", "carpenter", {"sailor": 1}, survival_deposit="dynamite")
    assert (linus["dynamite"], linus["sled"], linus["wood"]) == (before[0] - 1, 2, before[1] - 1)
    assert match.state["warehouses"]["carpenter"] == {"dynamite": 1}
    assert match.state["survival_paid"] == ["carpenter"]
    assert deposits(match, "build-cabin") == {"-"}  # the carpenter column is paid this round
    act(match, "build-cabin", "carpenter", {"sailor": 1})
    do(match, "p3", {"type": "lower_food_for_cabin", "amount": 0})
    assert laia["cabins"] == 1
    dynamite = fernando["dynamite"]
    act(match, "collect-carpenter", "carpenter", {})
    do(match, "p1", {"type": "collect_resource", "resource": "dynamite"})
    assert fernando["dynamite"] == dynamite + 1 and match.state["warehouses"]["carpenter"] == {}
    assert deposits(match, "explore-1") == {"dynamite", "wood", "rifle", "dog"}
    act(match, "explore-1", "captain", {"sailor": 1}, survival_deposit="wood")
    assert match.state["warehouses"]["captain"] == {"wood": 1}
    assert match.state["survival_paid"] == ["carpenter", "captain"]


def test_the_paid_flag_is_not_read_from_the_box_and_ends_with_the_round():
    """TIS-SURV-3: the column stays paid after the deposit is collected; the next Action phase starts unpaid."""
    match = action_phase(2, SURVIVAL)
    act(match, "improve-sled", "carpenter", {"sailor": 1}, survival_deposit="rifle")
    act(match, "collect-carpenter", "carpenter", {})
    do(match, "p2", {"type": "collect_resource", "resource": "rifle"})
    assert match.state["warehouses"]["carpenter"] == {}
    player(match, "p1")["free"]["carpenter"] = 1
    assert deposits(match, "build-cabin") == {"-"}
    pass_all(match)
    sail(match)
    assert match.state["survival_paid"] == []
    hero = player(match, turn(match))
    hero.update(wood=3, dynamite=1, rifle=1, dogs=3)
    hero["free"]["carpenter"] = 1  # back from the sick bay, whatever the attrition did
    assert deposits(match, "build-cabin") == {"dynamite", "wood", "rifle", "dog"}


def test_the_deposit_must_leave_the_action_affordable():
    """TIS-SURV-2: the deposit comes in addition to the action's own requirements (Build Cabin's wood)."""
    match = action_phase(2, SURVIVAL)
    hero = player(match, "p1")
    hero.update(wood=1, dynamite=0, rifle=0, dogs=0)
    assert deposits(match, "build-cabin") == set()
    error = refused(match, "build-cabin", "carpenter", {"sailor": 1}, survival_deposit="wood")
    assert (error.code, error.rule_id) == ("no_choice", "TIS-SURV-3")
    hero["rifle"] = 1
    assert deposits(match, "build-cabin") == {"rifle"}
    error = refused(match, "build-cabin", "carpenter", {"sailor": 1}, survival_deposit="wood")
    assert (error.rule_id, error.field) == ("TIS-SURV-2", "survival_deposit")
    assert refused(match, "build-cabin", "carpenter", {"sailor": 1}).rule_id == "TIS-CMD-13"


def test_hunting_counts_the_rifles_left_after_the_deposit():
    """TIS-SURV-2 with TIS-AMB-25: a rifle deposited is no longer owned for the prey number."""
    match = action_phase(2, SURVIVAL, draws={"hunting_setup": ["H18", "H01"]})
    player(match, "p1").update(rifle=2, dynamite=0, wood=0, dogs=0)
    moves = [move for move in legal_moves(match, "p1") if move.get("space") == "hunt-1"]
    assert {(move["card"], move["survival_deposit"]) for move in moves} == {("H01", "rifle")}


def test_no_surcharge_below_in_warehouses_on_the_ice_or_in_the_final_round():
    """TIS-SURV-4: Hire Inuk, Recycle, Experiment, warehouses, Ice Fishing, event cards, final-round actions."""
    match = action_phase(2, SURVIVAL, voyage="open_sea", draws={"event": ["ev13"]})
    for space in ("hire-inuk-1", "recycle-wood-1", "experiment", "exchange-captain", "ice-fishing", "event"):
        assert deposits(match, space) <= {"-"}, space
    match.state["anchor"] = "B1"
    assert deposits(match, "trace-map") == {"-"}


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [2, 4])
def test_survival_conforms(players, mode):
    assert play_random_game(RULES, players, mode, 11, options=SURVIVAL).match.ended


def test_survival_games_reach_the_end():
    match = table_game(3, options=SURVIVAL)
    play_sensibly(match, 3)
    assert match.ended


# ---------------------------------------------------------------- Shelter Building

SHELTER = {"shelter_building": True}


def with_inuk(match, seat: str, count: int = 1) -> dict:
    hero = player(match, seat)
    hero["crew"]["inuk"] = hero["free"]["inuk"] = count
    return hero


def test_build_shelter_and_fish_twice():
    """TIS-SHEL-2 / TIS-SHEL-3 / TIS-SHEL-5: Inuk + 1 crew, on the Ice Fishing space; food +2; Ice Fishing twice."""
    match = action_phase(2, SHELTER)
    hero = with_inuk(match, "p1")
    hero["food"] = 20
    assert refused(match, "build-shelter", "captain", {"sailor": 1}).rule_id == "TIS-ACT-3"
    act(match, "build-shelter", "inuk", {"sailor": 1})
    assert (hero["food"], hero["shelters"], match.state["shelters_on"]) == (22, 1, [["E1", "p1"]])
    assert view(match, None)["state"]["shelters_on"] == [["E1", "p1"]]
    do(match, "p2", {"type": "pass"})
    act(match, "ice-fishing", None, {"sailor": 2})
    assert hero["food"] == 22 + 2 * 2


def test_one_active_shelter_at_a_time():
    """TIS-SHEL-2: not while a shelter of yours is active; another player may build beside it."""
    match = action_phase(2, SHELTER)
    with_inuk(match, "p1", 2)
    with_inuk(match, "p2")
    act(match, "build-shelter", "inuk", {"sailor": 1})
    act(match, "build-shelter", "inuk", {"sailor": 1})
    assert "build-shelter" not in {move.get("space") for move in legal_moves(match, "p1")}
    assert refused(match, "build-shelter", "inuk", {"sailor": 1}).rule_id == "TIS-SHEL-2"


def test_a_shelter_is_active_in_its_map_sections():
    """TIS-SHEL-4: active while the fleet is in the shelter's section; a boundary anchor is in both."""
    match = action_phase(2, SHELTER)
    hero = with_inuk(match, "p1", 2)
    state = match.state
    state["shelters_on"] = [["X1", "p1"]]
    hero["shelters"] = 1
    for anchor, active in (("E2", True), ("C1", True), ("Y1", True), ("D1", False)):
        state["anchor"] = anchor
        assert ("build-shelter" not in {move.get("space") for move in legal_moves(match, "p1")}) == active, anchor
    hero["food"] = 10
    act(match, "ice-fishing", None, {"sailor": 1})
    assert hero["food"] == 11  # the fleet is at D1: the shelter at X1 is inactive


def test_shoal_of_fish_with_a_shelter_fishes_three_times():
    """Event 26 with TIS-SHEL-5: three times instead of twice."""
    match = action_phase(2, {**SHELTER, "extra_events": [26]}, voyage="coastal", draws={"event": ["ev26"]})
    hero = player(match, "p1")
    match.state["shelters_on"] = [["E1", "p1"]]
    hero["food"] = 10
    act(match, "ice-fishing", None, {"sailor": 2})
    assert hero["food"] == 10 + 3 * 2


def test_four_shelters_per_player():
    """TIS-SHEL-1: each colour has 4 shelters."""
    match = action_phase(2, SHELTER)
    hero = with_inuk(match, "p1")
    hero["shelters"] = 4
    match.state["shelters_on"] = [["E4", "p1"]] * 4
    match.state["anchor"] = "D1"
    assert refused(match, "build-shelter", "inuk", {"sailor": 1}).rule_id == "TIS-SHEL-1"


def test_build_shelter_needs_the_module():
    """TIS-CMD-1: the space exists only with the option."""
    match = action_phase(2, {})
    with_inuk(match, "p1")
    assert refused(match, "build-shelter", "inuk", {"sailor": 1}).code == "no_such_space"


@pytest.mark.parametrize(("counts", "shares"), [((2, 2, 1), (2, 2, 0)), ((1, 1, 1), (1, 1, 1)), ((3, 1, 0), (4, 0, 0))])
def test_shelter_majority(counts, shares):
    """TV-11 / TIS-SHEL-6: 4 VP to the most shelters; ties split 4 VP, rounded down."""
    match = table_game(3, options=SHELTER)
    for seat, count in zip(match.seats, counts, strict=True):
        player(match, seat)["shelters"] = count
    assert [points for _, rule, _, points in majority_lines(match.state)] == list(shares)
    assert {rule for _, rule, _, _ in majority_lines(match.state)} == {"TIS-SHEL-6"}


def test_the_score_sheet_has_a_shelter_line():
    match = table_game(2, options=SHELTER)
    play_sensibly(match, 1)
    sheet = RULES.final_score(match.state)
    if sheet["outcome"] == "ranked":
        assert sum(line["rule"] == "TIS-SHEL-6" for line in sheet["lines"]) == 2


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [2, 4])
def test_shelter_building_conforms(players, mode):
    assert play_random_game(RULES, players, mode, 12, options=SHELTER).match.ended


# ---------------------------------------------------------------- Dual Animal Species

DUAL = {"dual_species": True}


def test_dual_setup_removes_three_unseen_hunting_cards():
    """TIS-DUAL-1: 3 random hunting cards to the box face down, the 3 dual cards in; Fishing boat in the supply."""
    match, _ = create(RULES, DUAL, NAMES[:2], TABLE, None)
    node = RULES.chance_node(match.state)
    assert (node.key, node.count, node.visible_to, len(node.candidates)) == ("dual_removal", 3, (), 38)
    events = do(match, ORGANISER, {"type": "resolve_chance", "outcome": ["H01", "H20", "H30"]})
    assert "H20" not in str(redact(match, events[0], "p1")) and "H20" not in str(view(match, None))
    deck = match.state["decks"]["hunting"]
    assert len(deck) == 38 and {"DU1", "DU2", "DU3"} <= set(deck) and "H20" not in deck
    assert match.state["tiles"]["7"] == 2


def test_discovering_a_dual_card_scores_8_and_returns_it_to_the_box():
    """TIS-DUAL-2 / TIS-DUAL-4: with the Fishing boat; no species card held, no discovery bonus."""
    match = action_phase(2, DUAL, draws={"hunting_setup": ["DU2", "H05"], "species_setup": ["S01"]})
    hero = player(match, "p1")
    assert "DU2" not in {move.get("card") for move in legal_moves(match, "p1")}
    assert refused(match, "discover-species", "scientist", {"sailor": 1}, card="DU2").rule_id == "TIS-ACT-30"
    hero["upgrades"] = [7]
    act(match, "discover-species", "scientist", {"sailor": 1}, card="DU2")
    assert (hero["vp"], hero["species"], match.state["discovered"]) == (18, [], [])
    assert match.state["revealed"]["hunting"] == ["H05"] and "DU2" not in match.state["discards"]["hunting"]


def test_discover_is_open_with_only_a_dual_card_revealed():
    """TIS-DUAL-2: the dual card is a target of Discover even when no species card is revealed."""
    match = action_phase(2, DUAL, draws={"hunting_setup": ["DU1", "H05"]})
    match.state["revealed"]["species"] = []
    player(match, "p1")["upgrades"] = [7]
    assert {move["card"] for move in legal_moves(match, "p1") if move.get("space") == "discover-species"} == {"DU1"}


def test_hunting_a_dual_card():
    """TIS-DUAL-2 / TIS-DUAL-3: a normal Hunt with the Fishing boat, every hunting benefit shown."""
    match = action_phase(2, DUAL, draws={"hunting_setup": ["DU1", "H05"]})
    hero = player(match, "p1")
    hero.update(rifle=3, food=10, health=3)
    assert refused(match, "hunt-1", "scientist", {"sailor": 2}, card="DU1").rule_id == "TIS-ACT-31"
    hero["upgrades"] = [7]
    act(match, "hunt-1", "scientist", {"sailor": 2}, card="DU1")
    assert (hero["food"], hero["health"]) == (25, 6)
    assert match.state["discards"]["hunting"] == ["DU1"]


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [2, 4])
def test_dual_species_conforms(players, mode):
    assert play_random_game(RULES, players, mode, 13, options=DUAL).match.ended


def test_every_base_box_module_together_conforms():
    options = {**SURVIVAL, **SHELTER, **DUAL, "extra_events": [25, 26, 27, 28], "all_upgrades": True,
               "whale_hunting": True}
    assert play_random_game(RULES, 3, SERVER, 14, options=options).match.ended
