"""Walking on Ice (TIS-WALK): the module's sections and routes, abandoning ship, maintenance, cargo, food cans,
the Traverse phase, the walking event cards, the action tiles and guilt."""
from __future__ import annotations

import pytest

from domain.core import SERVER, TABLE, IllegalMove
from domain.core.match import create, legal_moves
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.scoring import score_sheet
from domain.through_ice_and_snow.tracks import fuel_band, lower_track
from domain.through_ice_and_snow.voyage import affected
from domain.through_ice_and_snow.walking import abandon, cargo_check, guilt_lines, limits, lower_maintenance
from tests.conformance.harness import play_random_game
from tests.through_ice_and_snow.helpers import NAMES, act, do, draw, pass_all, player, sail, table_game, turn

WALK = {"walking_on_ice": True}
P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]


def walking_game(players: int = 2, anchor: str = "Y1"):
    """In the Action phase with Central-East and Central-West placed (side A) and the fleet moved to ``anchor``."""
    match = table_game(players, P1_LEADS[:players], options=WALK)
    sail(match, "E1")
    state = match.state
    state["sections"].update(CE="A", CW="A")
    state["anchor"] = anchor
    for seat in match.seats:
        player(match, seat).update(dynamite=6, food=40, health=6, morale=6, fuel=10)
    return match


def to_abandon(match):
    """Pass to the next Leadership step, where the leader is asked whether to abandon ship."""
    pass_all(match)
    assert match.state["pending"][0]["kind"] == "abandon"


def abandoned(players: int = 2, anchor: str = "Y1"):
    match = walking_game(players, anchor)
    to_abandon(match)
    do(match, turn(match), {"type": "abandon_ship", "abandon": True})
    while match.state["pending"] and match.state["pending"][0]["kind"] in ("cargo", "return_tile"):
        seat = turn(match)
        moves = legal_moves(match, seat)
        do(match, seat, max(moves, key=lambda move: move.get("keep", {}).get("dynamite", 0)))
    return match


def test_setup_and_refusal_with_a_scenario():
    """TIS-WALK-1: the module's own Central-West and West, tiles 12 and 13; not with a single-player scenario."""
    state = table_game(2, options=WALK).state
    assert state["map_variant"] == "walking" and state["tiles"]["12"] == 2 and state["tiles"]["13"] == 2
    with pytest.raises(IllegalMove) as refused:
        create(RULES, {**WALK, "scenario": "lost_expedition"}, NAMES[:1], TABLE, None)
    assert refused.value.rule_id == "TIS-WALK-1"


def test_the_modules_routes_before_abandonment():
    """TIS-WALK-2 / TIS-WALK-3: only the module's routes of Central-West; walking routes closed on the ship."""
    match = walking_game(2, "D2")
    pass_all(match)
    do(match, turn(match), {"type": "abandon_ship", "abandon": False})
    assert [move["anchor"] for move in legal_moves(match, turn(match))] == ["Z2"]  # D2->D1 is a walking route


def test_broken_ice_and_ice_routes():
    """TIS-WALK-3: broken ice: fuel -1 more for everyone; ice: one more dynamite too."""
    match = walking_game(2, "Y2")
    pass_all(match)
    do(match, turn(match), {"type": "abandon_ship", "abandon": False})
    fuels = [player(match, seat)["fuel"] for seat in match.seats]
    leader = player(match, turn(match))
    dynamite = leader["dynamite"]
    sail(match, "D3", voyage="open_sea", chance="event")
    assert match.state["dynamite_on"]["D3"] == 2 and leader["dynamite"] == dynamite - 2
    assert [player(match, seat)["fuel"] for seat in match.seats] == [fuel - 2 for fuel in fuels]


def test_abandonment_is_offered_then_forced():
    """TIS-WALK-4 / TIS-WALK-5 / TIS-AMB-11 / TIS-CMD-5: from Central-West, the leader may abandon at the end of the
    Leadership step; when every player's fuel is below 4 it happens."""
    match = walking_game()
    to_abandon(match)
    assert legal_moves(match, turn(match)) == [{"type": "abandon_ship", "abandon": True},
                                              {"type": "abandon_ship", "abandon": False}]
    match = walking_game()
    for seat in match.seats:
        player(match, seat)["fuel"] = 3
    pass_all(match)
    assert match.state["walking"]["abandoned"] and not any(
        entry["kind"] == "abandon" for entry in match.state["pending"])


def test_the_transfer_example():
    """TV-5 / TIS-WALK-6 / TIS-WALK-14 / TIS-CMD-18: sled 3, food 35, fuel 3, 10 resources: maintenance 3 (food
    28, cargo 10), +3 wood, fuel to guilt 0, +5 food cans, 18 resources of which she keeps 10."""
    match = walking_game()
    laia = player(match, "p1")
    laia.update(sled=3, food=35, fuel=3, dynamite=2, rifle=2, wood=6, upgrades=[1, 2])
    state = match.state
    state["leader"] = 0
    abandon(state, voluntary=False)
    assert (laia["maintenance"], laia["food"], laia["wood"], laia["fuel"], laia["guilt"], laia["food_can"]) == (
        3, 28, 9, 0, 0, 5)
    assert limits(laia) == {"food": 28, "cargo": 10} and laia["upgrades"] == [1, 2]
    state["pending"] = []
    cargo_check(state)
    assert state["pending"][0] == {"seat": 0, "kind": "cargo"}
    keep = {"dynamite": 2, "wood": 3, "rifle": 2, "food_can": 3}
    do(match, "p1", {"type": "choose_cargo", "keep": keep})
    assert {kind: laia[kind] for kind in keep} == keep


def test_a_fourth_tile_goes_back_to_the_box():
    """TIS-WALK-6 (4): the sled board holds 3 tiles; later Ship Upgrades cannot add a fourth."""
    match = walking_game()
    player(match, "p1")["upgrades"] = [1, 2, 3, 4]
    player(match, "p2")["upgrades"] = []
    to_abandon(match)
    do(match, turn(match), {"type": "abandon_ship", "abandon": True})
    entry = next(entry for entry in match.state["pending"] if entry["kind"] == "return_tile")
    assert entry["seat"] == 0
    while match.state["pending"][0]["kind"] != "return_tile":
        do(match, turn(match), legal_moves(match, turn(match))[0])
    do(match, "p1", {"type": "return_upgrade", "upgrade": 3})
    assert player(match, "p1")["upgrades"] == [1, 2, 4]


def test_a_voluntary_abandonment_costs_the_leader_guilt():
    """TIS-WALK-16 / TIS-WALK-17: +3 per player with fuel 8+, +1 per player with fuel 4-7, the leader included."""
    match = walking_game(3)
    for seat, fuel in zip(match.seats, (9, 5, 2), strict=True):
        player(match, seat)["fuel"] = fuel
    to_abandon(match)
    leader = turn(match)
    do(match, leader, {"type": "abandon_ship", "abandon": True})
    assert player(match, leader)["guilt"] == 4
    assert all(player(match, seat)["guilt"] == 0 for seat in match.seats if seat != leader)


def test_maintenance_drop_example():
    """TV-8 / TIS-WALK-7 / TIS-WALK-8: maintenance 2 -> 1: food to 20, cargo 8 -> 6 (2 chosen resources out)."""
    match = abandoned()
    hero = player(match, "p1")
    hero.update(maintenance=2, food=24, dynamite=2, wood=2, rifle=2, food_can=2, sled=2)
    player(match, "p2").update(maintenance=3, sled=3)
    lower_maintenance(match.state, 1)
    assert hero["maintenance"] == 1
    cargo_check(match.state)
    assert hero["food"] == 20 and {"seat": 0, "kind": "cargo"} in match.state["pending"]


def test_sled_towing():
    """TIS-WALK-12: maintenance 1 is fuel 0: what would go below is towed by those above 1."""
    match = abandoned()
    towed, tower = player(match, "p1"), player(match, "p2")
    towed.update(maintenance=1, vp=20)
    tower.update(maintenance=3, sled=3, vp=20)
    match.state["leader"] = 0
    lower_maintenance(match.state, 1)
    assert (towed["maintenance"], tower["maintenance"]) == (1, 1)
    assert towed["vp"] < 20 < tower["vp"] and towed["fuel"] == tower["fuel"] == 0


def test_food_cans():
    """TIS-WALK-9 / TIS-CMD-19: at any decision, a food can: food +5, health -1."""
    match = abandoned()
    seat = turn(match)
    hero = player(match, seat)
    hero.update(food=10, health=5, food_can=2)
    cans = hero["food_can"]
    assert {"type": "discard_food_can", "count": 1} in legal_moves(match, seat)
    do(match, seat, {"type": "discard_food_can", "count": 1})
    assert (hero["food"], hero["health"], hero["food_can"]) == (15, 4, cans - 1)


def test_cans_in_a_cabin():
    """TV-2 / TIS-WALK-9: 2 food cans and 3 food lowered count as 13: 5 + 6 = 11 VP."""
    match = abandoned()
    sail(match, "D2", voyage="walking")
    seat = turn(match)
    hero = player(match, seat)
    hero.update(vp=10, food=10, food_can=2, wood=2)
    hero["free"].update(carpenter=1, sailor=1)
    act(match, "build-cabin", "carpenter", {"sailor": 1})
    do(match, seat, {"type": "lower_food_for_cabin", "amount": 3, "cans": 2})
    assert (hero["vp"], hero["food"], hero["food_can"]) == (21, 7, 0)


def test_traverse_types():
    """TIS-WALK-10 / TIS-WALK-11: walking feeds every crew; a forced march also maps and lowers maintenance; it
    needs a total maintenance of 2 per player."""
    match = abandoned()
    state = match.state
    food = [player(match, seat)["food"] for seat in match.seats]
    sail(match, "D2", voyage="walking", chance="event")
    assert [player(match, seat)["food"] for seat in match.seats] == [f - 6 for f in food]
    assert "Queen Maud" not in state["mapped"]
    match = abandoned()
    for seat in match.seats:
        player(match, seat).update(maintenance=2, sled=2)
    sail(match, "D2", voyage="forced_march", chance="event")
    assert "Queen Maud" in match.state["mapped"]
    assert [player(match, seat)["maintenance"] for seat in match.seats] == [1, 1]
    match = abandoned()
    for seat in match.seats:
        player(match, seat)["maintenance"] = 1
    sail(match, "D2", decision="traverse")
    assert [move["voyage"] for move in legal_moves(match, turn(match))] == ["walking"]


def test_walking_cards():
    """TIS-WALK-20: 29 blizzard (food -2, a discard), 35 frozen weapons (a rifle)."""
    match = abandoned()
    hero = player(match, "p1")
    hero.update(food=1, rifle=2)
    sail(match, "D2", voyage="walking", chance="event")
    assert RULES.chance_node(match.state).details == {"deck": "walking"}
    draw(match, "ev35")
    assert hero["rifle"] == 1


def test_severe_illness_and_letting_the_sailor_die():
    """TIS-WALK-20 card 32 / TIS-CMD-22: a sailor carried for good (a cargo space, never acts); let die: -5 VP."""
    match = abandoned()
    sail(match, "D2", voyage="walking", draws={"event": ["ev32"]})
    hero = player(match, turn(match))
    assert hero["carried"] == 1 and hero["free"]["sailor"] <= hero["crew"]["sailor"] - 1
    vp, sailors = hero["vp"], hero["crew"]["sailor"]
    do(match, turn(match), {"type": "let_sailor_die"})
    assert (hero["carried"], hero["vp"], hero["crew"]["sailor"]) == (0, vp - 5, sailors - 1)


def test_improved_equipment_and_customs():
    """TIS-WALK-20: 31 (1 wood: maintenance, health, morale +1); 36 kept: scientist actions raise morale."""
    match = abandoned()
    sail(match, "D2", voyage="walking", draws={"event": ["ev31"]})
    seat = turn(match)
    hero = player(match, seat)
    hero.update(wood=1, maintenance=1, sled=3, health=4, morale=4)
    act(match, "event", None, {"sailor": 1})
    assert (hero["wood"], hero["maintenance"], hero["health"], hero["morale"]) == (0, 2, 5, 5)
    hero.update(kept_events=["ev36"], food_can=1, morale=4)
    hero["free"].update(scientist=1, sailor=2)
    match.state["turn"] = match.seats.index(seat)
    act(match, "tin-refining", "scientist", {"sailor": 2})
    assert hero["morale"] == 5


def test_action_tiles():
    """TIS-WALK-15: Revisit Inuit, Tin Refining, Sled Maintenance cover their spaces once the ship is abandoned."""
    match = walking_game()
    with pytest.raises(IllegalMove) as refused:
        act(match, "tin-refining", "scientist", {"sailor": 2})
    assert refused.value.rule_id == "TIS-WALK-15"
    match = abandoned()
    sail(match, "D2", voyage="walking")
    seat = turn(match)
    hero = player(match, seat)
    hero["wood"] = 2
    with pytest.raises(IllegalMove) as refused:
        act(match, "experiment", "scientist", {"sailor": 2})
    assert refused.value.rule_id == "TIS-WALK-15"
    hero.update(food_can=1, food=10, dynamite=1, maintenance=1, sled=3, wood=0, dogs=3)
    act(match, "tin-refining", "scientist", {"sailor": 2})
    assert (hero["food_can"], hero["dynamite"], hero["food"]) == (0, 2, 18)
    match.state["turn"] = match.seats.index(seat)
    act(match, "sled-maintenance-1", "carpenter", {"sailor": 1})
    assert hero["maintenance"] == 3
    match.state["turn"] = match.seats.index(seat)
    hero["free"].update(captain=1, sailor=2)
    act(match, "revisit-inuit", "captain", {"sailor": 2})
    assert (hero["wood"], hero["dogs"]) == (2, 4)


def test_storehouse_and_deck_upgrade():
    """TIS-WALK-13: upgrade 12 spares the fuel-band discard; 13 spares events 2, 6, 7, 14, 15."""
    match = walking_game()
    hero = player(match, "p1")
    hero.update(upgrades=[12], fuel=2)
    match.state["pending"] = []
    fuel_band(match.state, 0)
    assert not match.state["pending"]
    hero["upgrades"] = [13]
    assert affected(match.state, {"number": 2}) == [1] and set(affected(match.state, {"number": 3})) == {0, 1}


def test_guilt_rises_with_scurvy_and_mutiny_and_scores():
    """TIS-WALK-18 / TIS-WALK-19 / TV-6: +1 guilt per Scurvy or Mutiny effect; at the end guilt x the final
    anchor's modifier (54 VP, modifier 3, guilt 5: 39)."""
    match = abandoned()
    hero = player(match, "p1")
    hero.update(health=3, guilt=0)
    lower_track(match.state, 0, "health", 1, effects=True)
    assert hero["guilt"] == 1
    hero["guilt"] = 5
    match.state["anchor"] = "WFIN"
    lines = guilt_lines(match.state)
    assert ("p1", "TIS-WALK-19", "guilt", -15) in lines


def test_final_round_tiles():
    """TIS-WALK-19: Document Sled Condition (3 VP per maintenance level) and the Vow of Silence for dogs replace
    the carpenter's final-round actions on the ice."""
    match = abandoned()
    sail(match, "D2", voyage="walking")
    match.state["anchor"] = "WB1"
    seat = turn(match)
    hero = player(match, seat)
    hero.update(maintenance=2, vp=10, dogs=4)
    act(match, "document-sled", "carpenter", {"sailor": 1})
    assert hero["vp"] == 16
    with pytest.raises(IllegalMove):
        act(match, "document-construction", "carpenter", {"sailor": 1})


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [2, 4])
def test_walking_on_ice_conforms(players, mode):
    options = {**WALK, "survival": True, "shelter_building": True}
    assert play_random_game(RULES, players, mode, 51, options=options).match.ended


def test_a_sheet_after_the_ice():
    match = abandoned()
    state = match.state
    state["over"] = {"outcome": "ranked"}
    state["anchor"] = "FIN"
    assert any(line["rule"] == "TIS-WALK-19" for line in score_sheet(state)["lines"])


def test_the_carried_sailor_goes_with_the_last_sailor():
    """TIS-WALK-20 card 32: once no sailor is left, nothing is carried and no sailor can be let die."""
    match = abandoned()
    hero = player(match, "p1")
    hero["carried"] = 1
    hero["crew"]["sailor"] = hero["free"]["sailor"] = 0
    cargo_check(match.state)
    assert hero["carried"] == 0
    assert {"type": "let_sailor_die"} not in legal_moves(match, turn(match))
