"""Tracks and what they trigger: towing, fuel bands, scurvy, mutiny, death, food shortage (spec section 6)."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves
from domain.through_ice_and_snow.tracks import demand_food, lose_fuel, lower_track, raise_food, raise_track
from tests.through_ice_and_snow.helpers import bare_state, do, draw, player, sail, table_game, turn

LEADS_P1 = ["parliament", "admiralty", "lady-franklin", "oxford-university"]


def towing_table():
    """TV-1's table: Laia (p1, leader), Fernando, Rosa, Linus, at the voyage-type decision."""
    match = table_game(4, LEADS_P1)
    sail(match, "E1", decision="voyage_type")
    for seat, fuel, towing in (("p1", 4, 0), ("p2", 4, 2), ("p3", 1, 0), ("p4", 0, 0)):
        player(match, seat).update(fuel=fuel, towing=towing, vp=10, dynamite=2, wood=2, rifle=2)
    return match


def test_towing_worked_example_with_four_players():
    """TV-1: TIS-TRK-FUEL-3, TIS-TRK-FUEL-1, TIS-TRK-FUEL-2, TIS-TRK-FUEL-4, TIS-AMB-12 with the exact numbers."""
    match = towing_table()
    assert turn(match) == "p1"
    assert {move["voyage"] for move in legal_moves(match, "p1")} == {"coastal", "open_sea"}  # 9 >= 4 x 2
    do(match, "p1", {"type": "choose_voyage_type", "voyage": "coastal"})
    fuels = [player(match, seat)["fuel"] for seat in match.seats]
    assert fuels == [0, 1, 0, 0]
    assert [player(match, seat)["towing"] for seat in match.seats] == [1, 2, -1, -1]
    assert [player(match, seat)["vp"] for seat in match.seats] == [20, 15, 5, 5]
    # TIS-TRK-FUEL-1: each is in the 0-3 band and owes a discard: decisions asked clockwise from the leader.
    assert [entry["seat"] for entry in match.state["pending"]] == [0, 1, 2, 3]
    assert all(entry["kind"] == "discard" for entry in match.state["pending"])
    for seat in match.seats:
        do(match, seat, {"type": "choose_discard", "resource": "wood"})
    # then Laia maps Baffin: +1 VP, so Laia +11 in all, Fernando +5, Rosa -5, Linus -5
    assert [player(match, seat)["vp"] for seat in match.seats] == [21, 15, 5, 5]
    assert [player(match, seat)["wood"] for seat in match.seats] == [1, 1, 1, 1]


def test_towing_shortfall_beyond_the_towing_players_fuel_loses_the_game():
    """TIS-TRK-FUEL-6 / TIS-LOSE-3."""
    match = towing_table()
    for seat, fuel in (("p1", 2), ("p2", 0), ("p3", 0), ("p4", 0)):
        player(match, seat)["fuel"] = fuel
    do(match, "p1", {"type": "choose_voyage_type", "voyage": "open_sea"})
    assert match.ended
    assert match.rules.final_score(match.state)["outcome"] == "all_lost"
    assert match.state["over"]["rule"] == "TIS-LOSE-3"


def test_event_fuel_loss_tows_without_band_effects():
    """TIS-TRK-FUEL-5 / TIS-AMB-20: Harsh winter (6) lowers fuel by 2 and tows, with no discard or morale band."""
    match = towing_table()
    for seat, fuel in (("p1", 9), ("p2", 9), ("p3", 9), ("p4", 2)):
        player(match, seat)["fuel"] = fuel
    morale = [player(match, seat)["morale"] for seat in match.seats]
    do(match, "p1", {"type": "choose_voyage_type", "voyage": "coastal"})
    # fuel step: 7, 7, 7, 0 -> no band for 4-7; Linus in 0-3 owes a discard
    assert match.state["pending"] == [{"seat": 3, "kind": "discard", "reason": "fuel_band"}]
    do(match, "p4", {"type": "choose_discard", "resource": "wood"})
    draw(match, "ev06")
    assert [player(match, seat)["fuel"] for seat in match.seats] == [3, 5, 5, 0]  # Laia tows Linus's 2
    assert player(match, "p4")["towing"] == -1
    assert [player(match, seat)["morale"] for seat in match.seats] == morale
    assert player(match, "p1")["towing"] == 1


def test_fuel_bands_after_a_voyage_fuel_loss():
    """TIS-TRK-FUEL-1: 8-10 morale +1, 4-7 nothing, 0-3 discard one resource of the player's choice (TIS-CMD-15)."""
    match = towing_table()
    for seat, fuel in (("p1", 10), ("p2", 6), ("p3", 3), ("p4", 3)):
        player(match, seat)["fuel"] = fuel
    player(match, "p4").update(dynamite=0, wood=0, rifle=0, dogs=1)
    morale = [player(match, seat)["morale"] for seat in match.seats]
    do(match, "p1", {"type": "choose_voyage_type", "voyage": "open_sea"})
    assert player(match, "p1")["morale"] == morale[0] + 1
    assert player(match, "p2")["morale"] == morale[1]
    assert player(match, "p4")["dogs"] == 0  # a single choice is made for the player
    assert match.state["pending"] == [{"seat": 2, "kind": "discard", "reason": "fuel_band"}]
    assert {move["resource"] for move in legal_moves(match, "p3")} == {"dynamite", "wood", "rifle", "dog"}
    with pytest.raises(IllegalMove) as refused:
        do(match, "p3", {"type": "choose_discard", "resource": "food"})
    assert refused.value.rule_id == "TIS-CMD-15"
    supply = match.state["supply"]["rifle"]
    do(match, "p3", {"type": "choose_discard", "resource": "rifle"})
    assert player(match, "p3")["rifle"] == 1
    assert match.state["supply"]["rifle"] == supply + 1  # TIS-TRK-5: back to the shared supply


def test_tracks_never_leave_their_range():
    """TIS-TRK-1: fuel stops at 0 (the rest is a shortfall, TIS-TRK-FUEL-2)."""
    match = towing_table()
    state = match.state
    state["players"][0]["fuel"] = 1
    state["players"][1]["fuel"] = 10
    lose_fuel(state, {0: 3}, bands=False)
    assert state["players"][0]["fuel"] == 0
    assert state["players"][1]["fuel"] == 8  # supplied the shortfall of 2


def test_raising_a_maxed_track():
    """TIS-TRK-2: health/morale excess steps are VP; fuel excess steps raise morale."""
    match = bare_state(2)
    state = match.state
    hero = state["players"][0]
    hero.update(health=7, morale=8, fuel=9, vp=10)
    raise_track(hero, "health", 3)
    assert (hero["health"], hero["vp"]) == (8, 12)
    raise_track(hero, "fuel", 3)
    assert (hero["fuel"], hero["morale"], hero["vp"]) == (10, 8, 14)


def test_space_effects_only_where_the_rules_apply_them():
    """TIS-TRK-3: lowering without applying the space effect does not trigger Scurvy."""
    match = bare_state(2)
    state = match.state
    state["players"][0]["health"] = 3
    lower_track(state, 0, "health", 1, effects=False)
    assert state["players"][0]["health"] == 2
    assert state["pending"][-1:] != [{"seat": 0, "kind": "sick", "count": 2}]
    lower_track(state, 0, "health", 1, effects=True)
    assert state["pending"][-1] == {"seat": 0, "kind": "sick", "count": 2}


def test_death_at_attrition():
    """TV-13, TIS-TRK-4, TIS-TRK-HEALTH-2, TIS-AMB-5: 0 -> -5 VP, back to 1 without Scurvy, one sailor to the box."""
    match = table_game(2)
    player(match, "p1").update(health=1, vp=10)
    player(match, "p2").update(health=6)
    sail(match, "E1", decision="voyage_type")
    hero = player(match, "p1")
    assert (hero["health"], hero["vp"], hero["crew"]["sailor"]) == (1, 5, 2)
    assert not [entry for entry in match.state["pending"] if entry["kind"] == "sick"]


def test_death_on_the_morale_track():
    """TIS-TRK-MORALE-2: morale 0 is Death too."""
    match = bare_state(2)
    state = match.state
    state["players"][0].update(morale=1, vp=10)
    lower_track(state, 0, "morale", 1, effects=True)
    assert (state["players"][0]["morale"], state["players"][0]["vp"], state["players"][0]["crew"]["sailor"]) == (
        1, 5, 2)


def test_scurvy_sends_two_chosen_crew_to_the_sick_bay():
    """TIS-TRK-HEALTH-1 / TIS-CMD-16: a decision of the affected player; sick crew cannot act (TIS-ACT-6)."""
    match = table_game(2)
    player(match, "p2").update(health=3)
    sail(match, "E1", decision="sick")
    assert match.state["pending"][0] == {"seat": 1, "kind": "sick", "count": 2}
    assert turn(match) == "p2"
    do(match, "p2", {"type": "choose_sick_crew", "crew": {"captain": 1, "sailor": 1}})
    assert player(match, "p2")["free"] == {"captain": 0, "carpenter": 1, "scientist": 1, "sailor": 2, "inuk": 0}
    sail(match, "E1")
    while turn(match) != "p2":
        do(match, turn(match), {"type": "pass"})
    assert not [move for move in legal_moves(match, "p2") if move.get("lead") == "captain"]


def test_treatment_room_and_saloon_suppress_scurvy_and_mutiny():
    """Upgrades 3 and 6 (spec 2.5) under TIS-TRK-HEALTH-1 and TIS-TRK-MORALE-1."""
    match = bare_state(2)
    state = match.state
    state["players"][0].update(health=3, morale=3, food=20, upgrades=[3, 6])
    lower_track(state, 0, "health", 1, effects=True)
    lower_track(state, 0, "morale", 1, effects=True)
    assert state["pending"] == []
    assert state["players"][0]["food"] == 20


@pytest.mark.parametrize(("sailors", "inuit", "loss"), [(3, 1, 4), (3, 0, 3)])
def test_mutiny_costs_half_the_crew_rounded_up(sailors, inuit, loss):
    """TV-4 / TIS-TRK-MORALE-1: 7 crew -> food -4; 6 crew -> food -3."""
    match = bare_state(2)
    state = match.state
    hero = state["players"][0]
    hero["crew"].update(sailor=sailors, inuk=inuit)
    hero.update(morale=3, food=20)
    lower_track(state, 0, "morale", 1, effects=True)
    assert hero["food"] == 20 - loss


def test_mutiny_without_enough_food_is_a_food_shortage():
    """TV-4: food 2 with crew 7 -> food shortage for a need of 4 (TIS-TRK-FOOD-3)."""
    match = bare_state(2)
    state = match.state
    hero = state["players"][0]
    hero["crew"]["inuk"] = 1
    hero.update(morale=3, food=2, species=["S21"])
    lower_track(state, 0, "morale", 1, effects=True)
    assert state["pending"] == [{"seat": 0, "kind": "food_shortage", "need": 4}]


def test_food_shortage_discards_a_species_card_first():
    """TV-7 (a), TIS-TRK-FOOD-3 step 1, TIS-CMD-17: a species card (food 6, health 1) covers a need of 7."""
    match = bare_state(2)
    state = match.state
    hero = state["players"][0]
    hero.update(food=3, health=4, dogs=2, vp=10, species=["S27"])  # Arctic wolf: food 6 in the data
    hero["crew"]["inuk"] = 1
    demand_food(state, 0, 7)
    assert state["pending"] == [{"seat": 0, "kind": "food_shortage", "need": 7}]
    assert legal_moves(match, "p1") == [{"type": "resolve_food_shortage", "card": "S27"}]
    do(match, "p1", {"type": "resolve_food_shortage", "card": "S27"})
    assert (hero["food"], hero["vp"], hero["dogs"], hero["species"]) == (2, 10, 2, [])
    assert state["discards"]["food_shortage"] == ["S27"]


def test_food_shortage_ladder_of_dogs_sailors_and_prestige():
    """TV-7 (b), TIS-TRK-FOOD-3 steps 2-4, TIS-AMB-16: need 7, food 0, 2 dogs, 1 sailor -> -14 VP, food 0."""
    match = bare_state(2)
    state = match.state
    hero = state["players"][0]
    hero.update(food=0, dogs=2, vp=20, species=[])
    hero["crew"]["sailor"] = 1
    demand_food(state, 0, 7)
    assert (hero["food"], hero["dogs"], hero["crew"]["sailor"], hero["vp"]) == (0, 0, 0, 6)


def test_food_above_fifty_is_kept():
    """TIS-TRK-FOOD-1 and TIS-TRK-FOOD-2: food may exceed 50; the Meal lowers it."""
    match = bare_state(2)
    hero = match.state["players"][0]
    hero["food"] = 48
    raise_food(hero, 10)
    assert hero["food"] == 58
    demand_food(match.state, 0, 6)
    assert hero["food"] == 52


def test_food_shortage_goes_on_down_the_ladder_when_the_species_run_out():
    """TIS-TRK-FOOD-3 / TIS-AMB-16: a species card that does not cover the need, then dogs, sailors and VP."""
    match = bare_state(2)
    state = match.state
    hero = state["players"][0]
    hero.update(food=0, dogs=1, vp=20, species=["S09"])  # Lemming: food 1
    demand_food(state, 0, 6)
    do(match, "p1", {"type": "resolve_food_shortage", "card": "S09"})
    # 1 from the lemming, 2 from the dog (-2 VP), then sailors (-5 VP each) until 6 is reached: 1 + 2 + 2 + 2 = 7
    assert (hero["food"], hero["dogs"], hero["crew"]["sailor"], hero["vp"]) == (1, 0, 1, 8)
    assert state["pending"] == []


def test_felix_booth_objective_fails_on_entering_the_mutiny_area():
    """Spec 2.4 (Felix Booth) with the GAP-2 areas: morale 2 is in the Mutiny area."""
    match = bare_state(2)
    state = match.state
    hero = state["players"][0]
    hero.update(morale=4, health=4, food=20)
    lower_track(state, 0, "morale", 1, effects=True)
    assert hero["booth_ok"] is True
    lower_track(state, 0, "morale", 1, effects=True)
    assert hero["booth_ok"] is False


def test_death_outside_attrition():
    """TIS-AMB-5: Endless dusk (event 5) taking morale to 0 applies Death."""
    match = table_game(2)
    for hero in match.state["players"]:
        hero.update(morale=2, vp=10, fuel=5)
    sail(match, "E1", voyage="coastal", draws={"event": ["ev05"]})
    hero = player(match, "p1")  # not the leader, so no mapping VP
    assert (hero["morale"], hero["vp"], hero["crew"]["sailor"]) == (1, 5, 2)


def test_a_sick_bay_choice_shrinks_with_crew_lost_meanwhile():
    """TIS-TRK-HEALTH-1: a Scurvy choice queued before a Death in the same Attrition names fewer crew, down to none."""
    from domain.through_ice_and_snow.decisions import moves
    match = table_game(2)
    hero = match.state["players"][0]
    hero["free"] = {"captain": 0, "carpenter": 0, "scientist": 1, "sailor": 0, "inuk": 0}
    entry = {"seat": 0, "kind": "sick", "count": 2}
    assert moves(match.state, entry) == [{"type": "choose_sick_crew", "crew": {"scientist": 1}}]
    hero["free"]["scientist"] = 0
    assert moves(match.state, entry) == [{"type": "choose_sick_crew", "crew": {}}]
