"""The Action phase and every action space (TIS-ACT-*)."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves, view
from domain.through_ice_and_snow.tracks import demand_food
from tests.through_ice_and_snow.helpers import act, do, pass_all, player, sail, table_game, turn

P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]


def action_phase(players: int = 4, anchor: str = "E1", **sail_options):
    match = table_game(players, P1_LEADS[:players])
    sail(match, anchor, **sail_options)
    return match


def spaces(match, seat=None):
    return {move.get("space") for move in legal_moves(match, seat or turn(match))}


def refused(match, space, lead=None, crew=None, **extra) -> IllegalMove:
    with pytest.raises(IllegalMove) as error:
        act(match, space, lead, crew, **extra)
    return error.value


def test_turns_go_clockwise_from_the_leader_until_everyone_passes():
    """TIS-ACT-1, TIS-ACT-4, TIS-AMB-4, TIS-CMD-14: one action per turn; passing is final for the round."""
    match = action_phase(3)
    assert turn(match) == "p1"
    act(match, "ice-fishing", crew={"sailor": 1})
    assert turn(match) == "p2"
    do(match, "p2", {"type": "pass"})
    act(match, "ice-fishing", crew={"sailor": 1})
    assert turn(match) == "p1"
    do(match, "p1", {"type": "pass"})
    assert turn(match) == "p3"
    with pytest.raises(IllegalMove) as error:
        do(match, "p3", {"type": "pass", "now": True})
    assert (error.value.code, error.value.rule_id, error.value.field) == ("unknown_field", "TIS-CMD-14", "now")
    do(match, "p3", {"type": "pass"})
    assert match.state["step"] != "action"


def test_a_player_who_cannot_act_can_only_pass():
    """TIS-ACT-4."""
    match = action_phase(2)
    player(match, "p1")["free"] = dict.fromkeys(player(match, "p1")["free"], 0)
    assert legal_moves(match, "p1") == [{"type": "pass"}]


def test_each_space_once_per_round_but_ice_fishing_without_limit():
    """TIS-ACT-2 and TIS-ACT-43: food + crew placed, as often as wanted."""
    match = action_phase(2)
    act(match, "explore-1", "captain", {"sailor": 1})
    assert refused(match, "explore-1", "captain", {"sailor": 1}).rule_id == "TIS-ACT-2"
    food = player(match, "p2")["food"]
    act(match, "ice-fishing", crew={"sailor": 2, "scientist": 1})
    act(match, "ice-fishing", crew={"sailor": 1})
    act(match, "ice-fishing", crew={"sailor": 1})
    assert player(match, "p2")["food"] == food + 3 + 1


def test_the_requirement_must_be_met_with_free_crew():
    """TIS-ACT-3, TIS-ACT-6, TIS-CMD-13: placed or sick crew cannot act again this round."""
    match = action_phase(2)
    assert refused(match, "explore-1", "captain", {}).rule_id == "TIS-ACT-3"
    assert refused(match, "explore-1", "captain", {"sailor": 9}).rule_id == "TIS-ACT-3"
    assert refused(match, "explore-1", "captain", {"pirate": 1}).rule_id == "TIS-CMD-13"
    error = refused(match, "explore-1", "captain", {"sailor": 1}, card="S01")
    assert (error.code, error.field) == ("unknown_field", "card")
    act(match, "explore-1", "captain", {"sailor": 1})
    do(match, "p2", {"type": "pass"})
    assert refused(match, "hire-inuk-1", "captain", {"sailor": 1}).rule_id == "TIS-ACT-3"


def test_final_round_actions_only_on_a_blue_anchor():
    """TIS-ACT-5, TIS-ACT-50, TIS-ACT-51, TIS-ACT-52, TIS-ACT-53 (vow resources ASSUMED, GAP-12)."""
    match = action_phase(2)
    assert refused(match, "trace-map", "captain", {"sailor": 1}).rule_id == "TIS-ACT-5"
    match.state["anchor"] = "B1"
    match.state["mapped"] = {"Baffin": "p1", "Devon": "p2", "Banks": "p1"}
    hero = player(match, "p1")
    hero.update(vp=10, upgrades=[2, 6], dynamite=4)
    act(match, "trace-map", "captain", {"sailor": 1})
    assert hero["vp"] == 13
    do(match, "p2", {"type": "pass"})
    act(match, "document-construction", "carpenter", {"sailor": 1})
    assert hero["vp"] == 19
    act(match, "laboratory-research", "scientist", {"sailor": 1})
    assert hero["vp"] == 26


def test_vow_of_silence_with_two_crew_or_the_named_officer():
    """TIS-ACT-53: +1 VP per owned resource of the space's type, nothing paid."""
    match = action_phase(2)
    match.state["anchor"] = "B2"
    hero = player(match, "p1")
    hero.update(vp=10, wood=6)
    options = [move for move in legal_moves(match, "p1") if move.get("space") == "vow-carpenter"]
    assert {"type": "take_action", "space": "vow-carpenter", "lead": "carpenter", "crew": {}} in options
    assert {"type": "take_action", "space": "vow-carpenter", "lead": None, "crew": {"sailor": 2}} in options
    act(match, "vow-carpenter", None, {"sailor": 2})
    assert (hero["vp"], hero["wood"]) == (16, 6)


def test_lead_and_the_leaders_first_turn():
    """TIS-ACT-10 and TIS-BRD-2: not on the leader's first turn; the taker leads next round if they own dynamite."""
    match = action_phase(2)
    assert refused(match, "lead", "captain").rule_id == "TIS-ACT-10"
    act(match, "ice-fishing", crew={"sailor": 1})
    act(match, "lead", "captain")
    pass_all(match)
    sail(match, decision="destination")
    assert match.state["leader"] == 1


@pytest.mark.parametrize(("sled", "dogs", "vp"), [(1, 4, 5), (3, 5, 9)])
def test_explore(sled, dogs, vp):
    """TV-3 / TIS-ACT-11 / TIS-TRK-SLED-1 / TIS-TRK-DOG-1: the lower of sled and dog values, then morale +2."""
    match = action_phase(2)
    hero = player(match, "p1")
    hero.update(sled=sled, dogs=dogs, vp=10, morale=4)
    act(match, "explore-1", "captain", {"sailor": 1})
    assert (hero["vp"], hero["morale"], hero["explores"]) == (10 + vp, 6, 1)


def test_explore_needs_a_dog_and_its_second_space_needs_two_crew():
    """TIS-ACT-11 and TIS-AMB-3: space 2 (4 players) = captain + 2 crew."""
    match = action_phase(4)
    player(match, "p1")["dogs"] = 0
    assert refused(match, "explore-1", "captain", {"sailor": 1}).rule_id == "TIS-ACT-11"
    player(match, "p1")["dogs"] = 2
    assert refused(match, "explore-2", "captain", {"sailor": 1}).rule_id == "TIS-ACT-3"
    act(match, "explore-2", "captain", {"sailor": 2})


def test_visit_inuit():
    """TIS-ACT-12 / TIS-ACT-60: (captain or Inuk) + 2 crew; a dog to the lowest empty space, fuel +2."""
    match = action_phase(2)
    hero = player(match, "p1")
    hero.update(fuel=5, dogs=7)
    hero["crew"]["inuk"] = hero["free"]["inuk"] = 1
    act(match, "visit-inuit", "inuk", {"sailor": 2})
    assert (hero["dogs"], hero["fuel"], hero["free"]["captain"]) == (7, 7, 1)  # a full dog track gains no dog


def test_hire_inuk():
    """TIS-ACT-14 / TIS-TRK-INUIT-1 / TIS-AMB-3: the track rises now, the pawn joins at Boarding (TIS-BRD-1)."""
    match = action_phase(2)
    assert refused(match, "hire-inuk-2", "captain", {"sailor": 1}).rule_id == "TIS-ACT-3"
    act(match, "hire-inuk-2", "captain", {"sailor": 2})
    hero = player(match, "p1")
    assert (hero["inuit"], hero["crew"]["inuk"], match.state["supply"]["inuk"]) == (1, 0, 14)
    pass_all(match)
    assert hero["crew"]["inuk"] == 1


@pytest.mark.parametrize(("lowered", "vp"), [(10, 10), (7, 8), (0, 5)])
def test_build_cabin(lowered, vp):
    """TV-2 / TIS-ACT-20: 5 VP, then 1 VP per 2 food lowered (rounded down); TIS-AMB-24: on the current anchor."""
    match = action_phase(2)
    hero = player(match, "p1")
    hero.update(vp=10, food=30, wood=2)
    act(match, "build-cabin", "carpenter", {"sailor": 1})
    assert match.state["pending"] == [{"seat": 0, "kind": "cabin_food"}]
    assert len(legal_moves(match, "p1")) == 31
    do(match, "p1", {"type": "lower_food_for_cabin", "amount": lowered})
    assert (hero["vp"], hero["food"], hero["cabins"], hero["wood"]) == (10 + vp, 30 - lowered, 1, 1)
    assert match.state["cabins_on"] == [["E1", "p1"]]


def test_build_cabin_needs_wood_and_a_cabin_pawn():
    """TIS-ACT-20 (finite supply ASSUMED: 4 cabin pawns per player)."""
    match = action_phase(2)
    player(match, "p1")["cabins"] = 4
    assert refused(match, "build-cabin", "carpenter", {"sailor": 1}).rule_id == "TIS-ACT-20"


def test_improve_sled():
    """TIS-ACT-21 / TIS-TRK-SLED-1: 1 wood, sled +1; not at the maximum (4, ASSUMED)."""
    match = action_phase(2)
    hero = player(match, "p1")
    act(match, "improve-sled", "carpenter", {"sailor": 1})
    assert (hero["sled"], hero["wood"]) == (2, 3)
    do(match, "p2", {"type": "pass"})
    hero["sled"] = 4
    assert "improve-sled" not in spaces(match)


def test_ship_upgrade_slot_bonuses():
    """TV-18 / TIS-ACT-22: 2nd tile morale +1, 3rd +1 wood, 4th morale +1 (morale at maximum: +1 VP instead)."""
    match = action_phase(2)
    hero = player(match, "p1")
    hero.update(upgrades=[2], wood=20, morale=8, vp=10)
    match.state["tiles"]["2"] -= 1
    act(match, "ship-upgrade-1", "carpenter", {"sailor": 1}, upgrade=6)
    assert (hero["upgrades"], hero["morale"], hero["vp"], hero["wood"]) == ([2, 6], 8, 11, 18)
    do(match, "p2", {"type": "pass"})
    hero["free"]["carpenter"] = 1
    assert 2 not in {move.get("upgrade") for move in legal_moves(match, "p1")}  # never two of one type
    act(match, "ship-upgrade-2", "carpenter", {"sailor": 1}, upgrade=3)
    assert (hero["wood"], match.state["tiles"]["3"]) == (18 - 3 + 1, 1)


def test_recycle_ship_wood():
    """TIS-ACT-23: carpenter + any crew: wood per crew placed, fuel -1 without band or towing."""
    match = action_phase(3)
    hero = player(match, "p1")
    morale = hero["morale"]
    hero["fuel"] = 9
    act(match, "recycle-wood-2", "carpenter", {"sailor": 2})
    assert (hero["wood"], hero["fuel"], hero["morale"]) == (4 + 3, 8, morale)


def test_discover_species():
    """TIS-ACT-30: the first acquirer of a species scores 5 VP; a second copy does not."""
    match = action_phase(2, draws={"species_setup": ["S01"]})
    match.state["revealed"]["species"] = ["S01", "S02"]
    act(match, "discover-species", "scientist", {"sailor": 1}, card="S01")
    assert (player(match, "p1")["vp"], player(match, "p1")["species"]) == (15, ["S01"])
    assert match.state["discovered"] == ["Arctic hare"]
    match.state["used"].pop("discover-species")
    player(match, "p2")["free"]["scientist"] = 1
    act(match, "discover-species", "scientist", {"sailor": 1}, card="S02")
    assert player(match, "p2")["vp"] == 10


def test_hunt_with_owned_rifles():
    """TIS-ACT-31 / TIS-AMB-25: prey number crew incl. a scientist or Inuk; rifles owned, not spent."""
    match = action_phase(4, draws={"hunting_setup": ["H18", "H19", "H01"]})
    hero = player(match, "p1")
    hero.update(rifle=2, food=10, health=3)
    act(match, "hunt-1", "scientist", {"sailor": 1}, card="H18")
    assert (hero["food"], hero["health"], hero["rifle"]) == (17, 4, 2)
    assert "H18" in match.state["discards"]["hunting"]
    for seat in ("p2", "p3", "p4"):
        do(match, seat, {"type": "pass"})
    hero["free"]["inuk"] = hero["crew"]["inuk"] = 1
    act(match, "hunt-2", "inuk", {"sailor": 1}, card="H19")
    assert hero["food"] == 24
    hero["rifle"] = 0
    assert refused(match, "hunt-3", "scientist", {}, card="H01").rule_id == "TIS-ACT-31"


def test_experiment():
    """TIS-ACT-32."""
    match = action_phase(2)
    hero = player(match, "p1")
    hero["fuel"] = 5
    act(match, "experiment", "scientist", {"sailor": 2})
    assert (hero["wood"], hero["fuel"], hero["dynamite"]) == (3, 7, 6)


def test_warehouses():
    """TV-10 / TIS-ACT-40 / TIS-ACT-41 / TIS-ACT-42 / TIS-AMB-15: exchange deposits into the box; collection takes
    one resource per crew from the box, chosen one at a time; boxes keep their contents between rounds."""
    match = action_phase(2)
    hero = player(match, "p1")
    act(match, "exchange-captain", "captain", {}, deposit="wood")
    assert (hero["wood"], hero["dynamite"], match.state["warehouses"]["captain"]) == (3, 6, {"wood": 1})
    match.state["warehouses"]["carpenter"] = {"dynamite": 1, "rifle": 1, "dog": 1, "wood": 1}
    act(match, "collect-carpenter", "carpenter", {"sailor": 2})
    rival = player(match, "p2")
    for resource in ("dynamite", "rifle", "dog"):
        do(match, "p2", {"type": "collect_resource", "resource": resource})
    assert (rival["dynamite"], rival["rifle"], rival["dogs"]) == (5, 4, 4)
    assert match.state["warehouses"]["carpenter"] == {"wood": 1}
    assert refused(match, "collect-carpenter", "carpenter", {}).rule_id == "TIS-ACT-2"
    pass_all(match)
    assert match.state["warehouses"]["captain"] == {"wood": 1}


def test_collection_is_limited_to_the_box():
    """TIS-ACT-42 (ASSUMED): no more crew than resources in the box."""
    match = action_phase(2)
    match.state["warehouses"]["scientist"] = {"rifle": 1}
    assert refused(match, "collect-scientist", "scientist", {"sailor": 1}).rule_id == "TIS-ACT-3"
    assert refused(match, "collect-captain", "captain", {}).rule_id == "TIS-ACT-42"


def test_substitutes_once_per_round():
    """TIS-ACT-61 / TIS-AMB-7: Bridge lets a sailor act as captain once per round; TIS-ACT-62: officers fill crew."""
    match = action_phase(2)
    hero = player(match, "p1")
    hero["upgrades"] = [5]
    act(match, "explore-1", "sailor", {"carpenter": 1})
    assert hero["subst_used"] == [5] and hero["free"]["captain"] == 1
    do(match, "p2", {"type": "pass"})
    assert refused(match, "hire-inuk-1", "sailor", {"sailor": 1}).rule_id == "TIS-ACT-3"
    act(match, "hire-inuk-1", "captain", {"sailor": 1})
    pass_all(match)
    assert hero["subst_used"] == []


def test_crew_permanence():
    """TIS-ACT-64: officers are never lost; sailors can be; Inuit in the sick bay are not lost."""
    match = action_phase(2)
    hero = player(match, "p1")
    hero.update(food=0, dogs=0, vp=30, species=[])
    hero["crew"]["inuk"] = 2
    demand_food(match.state, 0, 20)
    assert hero["crew"] == {"captain": 1, "carpenter": 1, "scientist": 1, "sailor": 0, "inuk": 2}


def test_an_inuk_fills_the_named_slot_of_improve_sled_without_an_upgrade():
    """TIS-ACT-60: Inuk for the carpenter in Improve Sled; TIS-ACT-61: Workshop and Laboratory substitutes."""
    match = action_phase(2)
    hero = player(match, "p1")
    hero["crew"]["inuk"] = hero["free"]["inuk"] = 2
    hero["upgrades"] = [1, 4]
    act(match, "improve-sled", "inuk", {"sailor": 1})
    assert hero["subst_used"] == []
    do(match, "p2", {"type": "pass"})
    act(match, "build-cabin", "inuk", {"sailor": 1})
    assert hero["subst_used"] == [1]
    do(match, "p1", {"type": "lower_food_for_cabin", "amount": 0})
    act(match, "experiment", "sailor", {"carpenter": 1, "scientist": 1})
    assert hero["subst_used"] == [1, 4]
    card = match.state["revealed"]["species"][0]
    assert refused(match, "discover-species", "sailor", {"inuk": 1}, card=card).rule_id == "TIS-ACT-3"  # used up


def test_the_view_names_the_phase_and_the_event_card():
    match = action_phase(2, draws={"event": ["ev13"]})
    shown = view(match, None)["state"]
    assert shown["phase"] == "action"
    assert shown["event_card"] == {"number": 13, "name": "Full cabin", "action_crew": 1}
