"""Legendary Expeditions, the explorers A-J (spec 2.6, TIS-LEG-2, TIS-LEG-6) and their commands (TIS-CMD-8,
TIS-CMD-20, TIS-CMD-21)."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, SERVER, TABLE, IllegalMove
from domain.core.match import legal_moves, redact, view
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.tracks import fuel_band
from tests.conformance.harness import play_random_game
from tests.through_ice_and_snow.helpers import act, do, draw, pass_all, player, sail, table_game, turn

EXPLORERS = {"legendary_expeditions": ["explorers"]}
P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]


def explorer_game(players: int = 2, kept: list[str] | None = None):
    """Explorers dealt in deck order (p1 A+B, p2 C+D, p3 E+F, p4 G+H), ``kept`` chosen (default the first)."""
    match = table_game(players, P1_LEADS[:players], options=EXPLORERS)
    for index, seat in enumerate(match.seats):
        card = kept[index] if kept else player(match, seat)["explorer_dealt"][0]
        do(match, seat, {"type": "choose_legendary_card", "kind": "explorer", "card": card})
    while RULES.chance_node(match.state) is not None:
        node = RULES.chance_node(match.state)
        draw(match, *node.candidates[: node.count])
    return match


def test_explorers_are_dealt_and_kept():
    """TIS-LEG-1 (the card types chosen as options) / TIS-LEG-2 / TIS-CMD-4: 2 each, one kept face up once all
    have chosen, the other back to the box."""
    match = explorer_game(2, ["explorer-B", "explorer-C"])
    assert [seat["explorer"] for seat in view(match, None)["state"]["players"]] == ["explorer-B", "explorer-C"]
    assert "explorer-A" not in str(view(match, "p2")) and "explorer-A" in RULES.secrets(match.state)["p1"]


def test_franklin_has_his_own_fuel_bands():
    """A Franklin: 7-10 morale +1, 3-6 nothing, 0-2 discard."""
    match = explorer_game()
    hero = player(match, "p1")
    hero.update(explorer="explorer-A", fuel=7, morale=4)
    fuel_band(match.state, 0)
    assert hero["morale"] == 5
    hero["fuel"] = 3
    fuel_band(match.state, 0)
    assert "discard" not in {entry["kind"] for entry in match.state["pending"]}
    hero["fuel"] = 2
    fuel_band(match.state, 0)
    assert "discard" in {entry["kind"] for entry in match.state["pending"]}


def test_parry_cabin():
    """B Parry / TV-2: lowering 10 food gives 5 + 8 + 1 = 14 VP."""
    match = explorer_game(2, ["explorer-B", "explorer-C"])
    sail(match, "E1")
    hero = player(match, "p1")
    hero.update(vp=10, food=30)
    act(match, "build-cabin", "carpenter", {"sailor": 1})
    do(match, "p1", {"type": "lower_food_for_cabin", "amount": 10})
    assert hero["vp"] == 24


def test_ross_acts_as_an_inuk_once_per_round():
    """C Ross: any crew member in an Inuk's slot, once per round."""
    match = explorer_game(2, ["explorer-A", "explorer-C"])
    sail(match, "E1")
    do(match, "p1", {"type": "pass"})
    ross = player(match, "p2")
    assert ross["crew"]["inuk"] == 0
    act(match, "improve-sled", "sailor", {"sailor": 1})
    assert ross["subst_used"] == ["ross"] and ross["sled"] == 2
    with pytest.raises(IllegalMove):
        act(match, "visit-inuit", "sailor", {"carpenter": 1, "scientist": 1})


def test_mcclintock_counts_one_more_dog():
    """E McClintock / TV-3: 4 dogs count as 5 (value 9); sled 3 (value 11) -> 9 VP."""
    match = explorer_game()
    sail(match, "E1")
    hero = player(match, "p1")
    hero.update(explorer="explorer-E", sled=3, dogs=4, vp=10)
    act(match, "explore-1", "captain", {"sailor": 1})
    assert hero["vp"] == 19


def test_mcclure_trades_food_for_morale_at_boarding():
    """F McClure / TIS-CMD-20: before the Meal, food -3 for morale +1, any number of times."""
    match = explorer_game()
    sail(match, "E1")
    hero = player(match, "p2")
    hero.update(explorer="explorer-F", food=20, morale=3)
    pass_all(match)
    assert legal_moves(match, "p2") == [{"type": "mcclure_trade", "times": times} for times in range(7)]
    do(match, "p2", {"type": "mcclure_trade", "times": 2})
    assert hero["morale"] == 5 and hero["food"] == 20 - 6 - 6  # then the Meal: 6 crew


def test_collinson_charts_for_3_and_charts_ahead_for_1():
    """G Collinson / TIS-CMD-21: mapping gives 3 VP; at any of his decisions, fuel -1 charts a region a route
    leads to, for 1 VP."""
    match = explorer_game()
    hero = player(match, "p1")
    hero.update(explorer="explorer-G", vp=10)
    assert {"type": "collinson_chart", "region": "Baffin"} in legal_moves(match, "p1")
    sail(match, "E1", voyage="coastal")
    assert hero["vp"] == 13 and match.state["mapped"]["Baffin"] == "p1"
    fuel = hero["fuel"]
    moves = [move for move in legal_moves(match, "p1") if move["type"] == "collinson_chart"]
    assert moves == [{"type": "collinson_chart", "region": "Devon"}, {"type": "collinson_chart", "region": "Somerset"}]
    do(match, "p1", {"type": "collinson_chart", "region": "Devon"})
    assert (hero["fuel"], hero["vp"], match.state["mapped"]["Devon"]) == (fuel - 1, 14, "p1")
    assert turn(match) == "p1"  # still his turn
    with pytest.raises(IllegalMove) as refused:
        do(match, "p2", {"type": "collinson_chart", "region": "Bylot"})
    assert refused.value.code


def test_belcher_overrides_the_route_and_chooses_the_voyage():
    """H Belcher / TIS-CMD-8: twice per game, after the leader's destination; the leader chooses another route
    and Belcher the voyage type."""
    match = explorer_game()
    player(match, "p2")["explorer"] = "explorer-H"
    do(match, "p1", {"type": "choose_destination", "anchor": "E1"})
    assert legal_moves(match, "p2") == [{"type": "belcher_override", "use": True},
                                        {"type": "belcher_override", "use": False}]
    do(match, "p2", {"type": "belcher_override", "use": True})
    assert legal_moves(match, "p1") == [{"type": "choose_destination", "anchor": "E2"}]
    do(match, "p1", {"type": "choose_destination", "anchor": "E2"})
    assert turn(match) == "p2" and legal_moves(match, "p2")[0]["type"] == "choose_voyage_type"
    do(match, "p2", {"type": "choose_voyage_type", "voyage": "coastal"})
    assert match.state["anchor"] == "E2" and match.state["explorers"]["belcher_uses"] == {"1": 1}


def test_back_chooses_the_slot():
    """I Back: any empty slot, with that slot's bonus (slot 3: 1 wood)."""
    match = explorer_game()
    sail(match, "E1")
    hero = player(match, "p1")
    hero.update(explorer="explorer-I", wood=3)
    slots = {move["slot"] for move in legal_moves(match, "p1") if move.get("space") == "ship-upgrade-1"}
    assert slots == {1, 2, 3, 4}
    act(match, "ship-upgrade-1", "carpenter", {"sailor": 1}, upgrade=6, slot=3)
    assert hero["wood"] == 3 - 2 + 1 and hero["filled_slots"] == [3]
    with pytest.raises(IllegalMove) as refused:
        act(match, "ship-upgrade-2", "carpenter", {"sailor": 1}, upgrade=2, slot=3)
    assert refused.value.code


def test_amundsen():
    """J Amundsen: the dog track counts as full, no dog pawns, Improve Sled without wood."""
    match = table_game(4, P1_LEADS, options=EXPLORERS)
    kept = ["explorer-A", "explorer-C", "explorer-E", "explorer-G"]
    match.state["players"][3]["explorer_dealt"] = ["explorer-G", "explorer-J"]
    for seat, card in zip(match.seats, [*kept[:3], "explorer-J"], strict=True):
        do(match, seat, {"type": "choose_legendary_card", "kind": "explorer", "card": card})
    hero = player(match, "p4")
    assert (hero["dogs"], hero["fixed_dogs"]) == (0, 7)


def test_kellett_looks_at_the_top_card():
    """D Kellett (spec 12.2): the top card is his secret; the turn is then that action, with that card or another;
    a card not taken stays on top and comes first at the next draw."""
    match = explorer_game(2, ["explorer-A", "explorer-D"])
    sail(match, "E1", draws={"hunting_setup": ["H01", "H02"]})
    do(match, "p1", {"type": "pass"})
    kellett = player(match, "p2")
    kellett["rifle"] = 3
    assert {"type": "kellett_peek", "deck": "hunting"} in legal_moves(match, "p2")
    do(match, "p2", {"type": "kellett_peek", "deck": "hunting"})
    node = RULES.chance_node(match.state)
    assert (node.key, node.visible_to) == ("kellett_peek", ("p2",))
    events = do(match, ORGANISER, {"type": "resolve_chance", "outcome": ["H30"]})
    assert "H30" not in str(redact(match, events[0], "p1")) and "H30" not in str(view(match, "p1"))
    assert view(match, "p2")["state"]["seen_on_top"] == ["H30"]
    moves = legal_moves(match, "p2")
    assert {move["space"] for move in moves} <= {"hunt-1", "hunt-2"} and "H30" in {move["card"] for move in moves}
    with pytest.raises(IllegalMove) as refused:
        do(match, "p2", {"type": "pass"})
    assert refused.value.rule_id == "TIS-LEG-6"
    act(match, "hunt-1", "scientist", {}, card="H01")
    assert match.state["known_top"] == {"hunting": "H30"}
    pass_all(match)
    sail(match, "E3", chance="hunting_setup")
    node = RULES.chance_node(match.state)
    assert node.count == 1 and "H30" not in node.candidates
    draw(match, "H05")
    assert match.state["revealed"]["hunting"] == ["H30", "H05"] and match.state["known_top"] == {}


def test_kellett_takes_the_card_he_saw():
    match = explorer_game(2, ["explorer-A", "explorer-D"])
    sail(match, "E1", draws={"species_setup": ["S01"]})
    do(match, "p1", {"type": "pass"})
    do(match, "p2", {"type": "kellett_peek", "deck": "species"})
    draw(match, "S21")
    act(match, "discover-species", "scientist", {"sailor": 1}, card="S21")
    assert player(match, "p2")["species"] == ["S21"] and "S21" not in match.state["decks"]["species"]
    assert match.state["known_top"] == {}


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [1, 4])
def test_explorers_conform(players, mode):
    options = {"legendary_expeditions": ["explorers", "ships", "explorer_events"], "survival": True,
               "all_upgrades": True}
    assert play_random_game(RULES, players, mode, 43, options=options).match.ended
