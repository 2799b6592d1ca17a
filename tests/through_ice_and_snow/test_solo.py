"""The single-player scenarios: what they share (solo.py) and the Lost Expedition (TIS-SOLO-LOST)."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, SERVER, TABLE, IllegalMove
from domain.core.match import create, legal_moves, view
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.tracks import death, demand_food, finish_food_shortage
from domain.through_ice_and_snow.voyage import voyage_choices
from tests.conformance.harness import play_random_game
from tests.through_ice_and_snow.play import NAMES, act, do, draw, pass_all, play_sensibly, player, sail, table_game

LOST = {"scenario": "lost_expedition"}


def lost_game(priority: str = "K1"):
    """A Lost Expedition after setup; K1's priority regions are Baffin, Somerset and Victoria (GAP-11)."""
    match, _ = create(RULES, LOST, NAMES[:1], TABLE, None)
    draw(match, priority)
    return match


def at_action(match, anchor: str | None = None):
    sail(match, "E1")
    if anchor:
        match.state["anchor"] = anchor
    return player(match, "p1")


def test_lost_expedition_setup():
    """TIS-SOLO-LOST-1: no investor or cartography cards, 7 dynamite / 6 wood / 2 rifles, the rest as normal,
    2 hunting cards; TIS-SOLO-LOST-2: the scenario's own event decks; TIS-SOLO-LOST-3: progress 0;
    TIS-SOLO-LOST-4: 5 search cards; TIS-SOLO-LOST-5: a public priority card drawn from the cartography deck."""
    match, _ = create(RULES, {}, NAMES[:1], TABLE, None)
    node = RULES.chance_node(match.state)
    assert (node.key, node.count, node.visible_to, len(node.candidates)) == ("priority_regions", 1, None, 10)
    draw(match, "K1")
    state = match.state
    hero = player(match, "p1")
    assert (hero["dynamite"], hero["wood"], hero["rifle"]) == (7, 6, 2)
    assert (hero["food"], hero["health"], hero["morale"], hero["fuel"], hero["sled"], hero["dogs"], hero["vp"]) == (
        25, 4, 5, 10, 1, 3, 10)
    assert hero["investor_dealt"] == [] and hero["carto_dealt"] == []
    assert state["supply"]["dynamite"] == 25 - 7 and state["supply"]["wood"] == 40 - 6
    assert sorted(state["decks"]["coastal"]) == [f"ev{n:02d}" for n in (14, 15, 16, 17, 18, 19, 20, 21, 23, 24)]
    assert sorted(state["decks"]["open_sea"]) == [f"ev{n:02d}" for n in (1, 2, 3, 4, 5, 6, 7, 9, 11, 12)]
    assert state["lost"] == {"progress": 0, "priority": "K1", "searched": [], "found": False, "cabin": False}
    assert len(state["decks"]["search"]) == 5
    assert view(match, None)["state"]["lost"]["priority"] == "K1"
    assert state["helm"] == 0 and legal_moves(match, "p1")[0]["type"] == "choose_destination"
    sail(match, "E1", draws={"hunting_setup": ["H01", "H02"]})
    assert len(state["revealed"]["hunting"]) == 2


def test_survival_applies_in_every_scenario():
    """TIS-SURV-1: the first action above a warehouse needs a deposit, without the option."""
    match = lost_game()
    at_action(match)
    moves = [move for move in legal_moves(match, "p1") if move.get("space") == "build-cabin"]
    assert moves and all("survival_deposit" in move for move in moves)


def test_prestige_is_never_gained_only_lost():
    """TIS-SOLO-LOST-6: Explore scores nothing (morale still rises); 0 prestige or below loses at once."""
    match = lost_game()
    hero = at_action(match)
    hero["morale"] = 5
    act(match, "explore-1", "captain", {"sailor": 1}, survival_deposit="wood")
    assert (hero["vp"], hero["morale"]) == (10, 7)
    hero["vp"] = 5
    death(match.state, 0, "health")
    do(match, "p1", {"type": "pass"})
    assert match.ended and match.state["over"] == {"outcome": "lost", "rule": "TIS-SOLO-LOST-6",
                                   "detail": "prestige fell to 0 or below"}
    sheet = RULES.final_score(match.state)
    assert (sheet["outcome"], sheet["totals"]) == ("lost", {"p1": 0})


def test_searching_a_priority_region():
    """TV-14 / TIS-SOLO-LOST-7: at Somerset (priority), sled 3 with 4 dogs: available sled level 2, progress +2,
    morale +2."""
    match = lost_game()
    hero = at_action(match, "X2")
    hero.update(sled=3, dogs=4, morale=3)
    act(match, "explore-1", "captain", {"sailor": 1}, survival_deposit="wood")
    assert (match.state["lost"]["progress"], hero["morale"]) == (2, 5)


def test_progress_beyond_5_reveals_search_cards():
    """TV-14 / TIS-SOLO-LOST-7 / TIS-SOLO-LOST-8: progress 4 + available level 3 -> 5 and 2 search cards; the
    survivors card finds the expedition and its 4 sailors join the sick bay, to be fed."""
    match = lost_game()
    hero = at_action(match, "X2")
    hero.update(sled=3, dogs=5)
    match.state["lost"]["progress"] = 4
    act(match, "explore-1", "captain", {"sailor": 1}, survival_deposit="wood")
    node = RULES.chance_node(match.state)
    assert (node.key, node.count, node.visible_to) == ("search", 2, None)
    assert match.state["lost"]["progress"] == 5
    draw(match, "search-empty-1", "search-survivors")
    assert match.state["lost"]["found"] and hero["rescued"] == 4
    assert match.state["lost"]["searched"] == ["search-empty-1", "search-survivors"]
    food = hero["food"] = 30
    demand_food(match.state, 0, 6 + 4)
    assert hero["food"] == food - 10


def test_no_search_outside_the_priority_regions():
    match = lost_game()
    hero = at_action(match, "E2")  # Bylot is not on K1
    hero.update(sled=3, dogs=5)
    act(match, "explore-1", "captain", {"sailor": 1}, survival_deposit="wood")
    assert match.state["lost"]["progress"] == 0


def test_rescued_sailors_die_last_and_are_never_discarded():
    """TIS-SOLO-LOST-8 / TIS-AMB-17: own sailors die first; rescued sailors are not food-shortage fodder."""
    match = lost_game()
    hero = at_action(match)
    hero["rescued"] = 4
    death(match.state, 0, "health")
    assert (hero["crew"]["sailor"], hero["rescued"]) == (2, 4)
    hero["crew"]["sailor"] = hero["free"]["sailor"] = 0
    death(match.state, 0, "health")
    assert hero["rescued"] == 3
    hero.update(food=0, dogs=0, vp=50)
    finish_food_shortage(match.state, 0, 3)
    assert (hero["rescued"], hero["vp"]) == (3, 50 - 15)


@pytest.mark.parametrize(("anchor", "amount", "met"), [("X2", 4, True), ("X2", 3, False), ("E1", 6, False)])
def test_the_cabin_objective(anchor, amount, met):
    """TIS-SOLO-LOST-6 (1): Build Cabin lowering food by 4 or more, not in Baffin, before finding."""
    match = lost_game()
    hero = at_action(match, anchor)
    hero["food"] = 20
    act(match, "build-cabin", "carpenter", {"sailor": 1}, survival_deposit="dynamite")
    do(match, "p1", {"type": "lower_food_for_cabin", "amount": amount})
    assert match.state["lost"]["cabin"] is met
    assert hero["vp"] == 10


def test_winning_needs_every_objective():
    """TIS-SOLO-LOST-6: at the end of the Passage, won with all four objectives, lost otherwise; no scoring."""
    match = lost_game()
    hero = at_action(match)
    state = match.state
    state["lost"].update(found=True, cabin=True)
    hero["species"] = ["S22"]  # a Polar bear (GAP-16)
    state["anchor"] = "B1"
    state["sections"].update({"CE": "A", "CW": "A", "W": "A"})
    state["final_voyage"] = True
    pass_all(match)
    sail(match, "FIN", until="finished")
    assert state["over"]["outcome"] == "won"
    sheet = RULES.final_score(state)
    assert sheet["outcome"] == "won" and all(entry["met"] for entry in sheet["objectives"])
    assert sheet["lines"] == []


def test_losing_without_the_species():
    match = lost_game()
    at_action(match)
    state = match.state
    state["lost"].update(found=True, cabin=True)
    state["anchor"] = "B1"
    state["sections"].update({"CE": "A", "CW": "A", "W": "A"})
    state["final_voyage"] = True
    pass_all(match)
    sail(match, "FIN", until="finished")
    sheet = RULES.final_score(state)
    assert sheet["outcome"] == "lost"
    assert [entry["met"] for entry in sheet["objectives"]] == [True, False, True, True]


def test_one_voyage_deck_left():
    """TIS-SOLO-LOST-9: when one voyage deck runs out, the other type is the only choice."""
    match = lost_game()
    at_action(match)
    match.state["decks"]["coastal"] = []
    assert voyage_choices(match.state) == ["open_sea"]


def test_scenarios_not_implemented_are_refused():
    for name, rule in (("magnetic_north_pole", "TIS-SOLO-MAG-1"), ("mysterious_epidemic", "TIS-SOLO-EPI-1"),
                       ("amundsens_voyage", "TIS-SOLO-AMU-1")):
        with pytest.raises(IllegalMove) as refused:
            create(RULES, {"scenario": name}, NAMES[:1], TABLE, None)
        assert (refused.value.code, refused.value.rule_id) == ("not_implemented", rule)


@pytest.mark.parametrize("mode", [SERVER, TABLE])
def test_lost_expedition_conforms_with_every_module(mode):
    options = {**LOST, "shelter_building": True, "dual_species": True}
    assert play_random_game(RULES, 1, mode, 21, options=options).match.ended


def test_lost_expedition_games_reach_the_end():
    outcomes = set()
    for seed in range(4):
        match = table_game(1)
        play_sensibly(match, seed)
        assert match.ended
        outcomes.add(RULES.final_score(match.state)["outcome"])
    assert outcomes <= {"won", "lost"}
    assert ORGANISER not in outcomes
