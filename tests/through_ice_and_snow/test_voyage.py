"""The Voyage phase (TIS-VOY-*), its catastrophes (TIS-LOSE-1, TIS-LOSE-2) and the voyage event cards."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves
from domain.through_ice_and_snow.voyage import leadership
from tests.through_ice_and_snow.helpers import bare_state, do, pass_all, player, sail, table_game, turn

P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]


def test_the_helm_holder_with_dynamite_leads():
    """TIS-VOY-1, TIS-AMB-9: the leader is the helm holder; being leader is counted for Parliament."""
    match = table_game(3, P1_LEADS[:3])
    assert match.state["pending"] == [{"seat": 0, "kind": "destination"}]
    assert player(match, "p1")["times_leader"] == 1


def test_a_helm_holder_without_dynamite_hands_the_helm_on():
    """TIS-VOY-1 / TIS-AMB-14: reassigned as at the Next-leader step; TIS-LOSE-2 when nobody has dynamite."""
    match = bare_state(3)
    state = match.state
    state["helm"] = state["leader"] = 0
    for seat, dynamite in enumerate((0, 2, 1)):
        state["players"][seat]["dynamite"] = dynamite
    leadership(state)
    assert (state["helm"], state["leader"]) == (1, 1)
    for hero in state["players"]:
        hero["dynamite"] = 0
    leadership(state)
    assert state["over"]["rule"] == "TIS-LOSE-2"


def test_destinations_follow_one_way_routes():
    """TIS-VOY-2 / TIS-CMD-6: only routes leaving the current anchor."""
    match = table_game(2)
    leader = turn(match)
    assert {move["anchor"] for move in legal_moves(match, leader)} == {"E1", "E2"}
    with pytest.raises(IllegalMove) as refused:
        do(match, leader, {"type": "choose_destination", "anchor": "E3"})
    assert refused.value.rule_id == "TIS-VOY-2"


def test_reaching_a_boundary_anchor_places_the_next_section_on_the_chosen_side():
    """TIS-VOY-2 / TIS-CMD-7: the leader picks the side; the routes then depend on it (GAP-1)."""
    match = table_game(2)
    match.state["anchor"] = "E3"
    leader = turn(match)
    do(match, leader, {"type": "choose_destination", "anchor": "X2"})
    assert legal_moves(match, leader) == [{"type": "place_map_section", "section": "CE", "side": "A"},
                                          {"type": "place_map_section", "section": "CE", "side": "B"}]
    do(match, leader, {"type": "place_map_section", "section": "CE", "side": "B"})
    assert match.state["sections"] == {"E": "A", "CE": "B"}
    sail(match, "X2")
    pass_all(match)
    sail(match, decision="destination")
    assert {move["anchor"] for move in legal_moves(match, turn(match))} == {"C1"}  # X2->C2 exists on side A only


def test_ice_breaking_places_dynamite_with_the_extra_for_marked_routes():
    """TIS-VOY-3: E1->X2 needs 1 extra dynamite; the leader's shortfall is paid clockwise by owners of dynamite."""
    match = table_game(3, P1_LEADS[:3])
    match.state["anchor"] = "E1"
    player(match, "p1")["dynamite"] = 1
    player(match, "p2")["dynamite"] = 0
    player(match, "p3")["dynamite"] = 2
    sail(match, "X2", decision="voyage_type")
    assert match.state["dynamite_on"] == {"X2": 2}
    assert [player(match, seat)["dynamite"] for seat in match.seats] == [0, 0, 1]


def test_nobody_able_to_pay_the_ice_loses_the_game():
    """TIS-LOSE-1."""
    match = table_game(3, P1_LEADS[:3])
    match.state["anchor"] = "E1"
    for seat in match.seats:
        player(match, seat)["dynamite"] = 0
    player(match, "p1")["dynamite"] = 1
    sail(match, "X2")
    assert match.ended and match.state["over"]["rule"] == "TIS-LOSE-1"
    assert match.rules.final_score(match.state)["outcome"] == "all_lost"


def test_attrition_lowers_health_and_morale():
    """TIS-VOY-4."""
    match = table_game(2)
    sail(match, "E1", decision="voyage_type")
    assert [(hero["health"], hero["morale"]) for hero in match.state["players"]] == [(3, 4), (3, 4)]


def test_coastal_voyage_needs_fuel_and_maps_the_region():
    """TIS-VOY-5, TIS-TRK-FUEL-3, TIS-CMD-9: coastal only with total fuel >= 2 x players; fuel -2; the leader maps
    the region for 1 VP and the event comes from the coastal deck."""
    match = table_game(2)
    leader = turn(match)
    sail(match, "E1", decision="voyage_type")
    for hero in match.state["players"]:
        hero["fuel"] = 1
    assert legal_moves(match, leader) == [{"type": "choose_voyage_type", "voyage": "open_sea"}]
    with pytest.raises(IllegalMove) as refused:
        do(match, leader, {"type": "choose_voyage_type", "voyage": "coastal"})
    assert refused.value.rule_id == "TIS-VOY-5"
    for hero in match.state["players"]:
        hero["fuel"] = 9
    vp = player(match, leader)["vp"]
    do(match, leader, {"type": "choose_voyage_type", "voyage": "coastal"})
    assert match.state["anchor"] == "E1"
    assert [hero["fuel"] for hero in match.state["players"]] == [7, 7]
    assert match.state["mapped"] == {"Baffin": leader}
    assert player(match, leader)["vp"] == vp + 1
    assert match.state["chance"] == {"key": "event", "deck": "coastal", "count": 1}


def test_a_mapped_region_is_not_mapped_again():
    """TIS-AMB-2."""
    match = table_game(2)
    leader = turn(match)
    match.state["mapped"]["Baffin"] = "p2"
    vp = player(match, leader)["vp"]
    sail(match, "E1", voyage="coastal", chance="event")
    assert match.state["mapped"] == {"Baffin": "p2"}
    assert match.state["supply"]["cartography"] == 12
    assert player(match, leader)["vp"] == vp


def test_open_sea_voyage_costs_one_fuel_and_draws_from_the_open_sea_deck():
    """TIS-VOY-5."""
    match = table_game(2)
    sail(match, "E1", voyage="open_sea", chance="event")
    assert [hero["fuel"] for hero in match.state["players"]] == [9, 9]
    assert match.state["mapped"] == {}
    assert match.state["chance"] == {"key": "event", "deck": "open_sea", "count": 1}


@pytest.mark.parametrize(("players", "hunting"), [(3, 2), (4, 3)])
def test_card_setup_by_region_and_player_count(players, hunting):
    """TV-16 / TIS-VOY-6: arriving at Devon reveals 2 species cards; hunting cards 2 (1-3 players) or 3 (4)."""
    match = table_game(players)
    match.state["anchor"] = "E1"
    sail(match, "E3")
    assert len(match.state["revealed"]["species"]) == 2
    assert len(match.state["revealed"]["hunting"]) == hunting


def test_inuk_guide_lets_its_holder_map_on_open_sea():
    """Event 9 / TIS-CMD-11: the holder, when leader on an open-sea voyage, may map the region."""
    match = table_game(2)
    leader = turn(match)
    player(match, leader)["kept_events"] = ["ev09"]
    sail(match, "E1", decision="inuk_guide")
    assert legal_moves(match, leader) == [{"type": "inuk_guide_map", "map": True},
                                          {"type": "inuk_guide_map", "map": False}]
    do(match, leader, {"type": "inuk_guide_map", "map": True})
    assert match.state["mapped"] == {"Baffin": leader}


@pytest.mark.parametrize(("voyage", "species"), [("coastal", 2), ("open_sea", 1)])
def test_translators_variant_reveals_one_more_species_after_a_coastal_voyage(voyage, species):
    """TIS-VOY-5 (variant_coastal_extra_species): E1 shows 1 species icon."""
    match = table_game(2, options={"variant_coastal_extra_species": True})
    sail(match, "E1", voyage=voyage)
    assert len(match.state["revealed"]["species"]) == species
