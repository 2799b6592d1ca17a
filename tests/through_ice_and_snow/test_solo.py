"""The single-player scenarios: what they share (solo.py), the Lost Expedition (TIS-SOLO-LOST), the Magnetic
North Pole (TIS-SOLO-MAG), the Mysterious Epidemic (TIS-SOLO-EPI) and Amundsen's Voyage (TIS-SOLO-AMU)."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, SERVER, TABLE, IllegalMove
from domain.core.match import create, legal_moves, view
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.tracks import death, demand_food, finish_food_shortage
from domain.through_ice_and_snow.voyage import voyage_choices
from tests.conformance.harness import play_random_game
from tests.through_ice_and_snow.helpers import NAMES, act, do, draw, pass_all, play_sensibly, player, sail, table_game

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


def sail_the_final_voyage(match) -> None:
    """Put the fleet at B1 with the map laid to the Passage, then play the final voyage to its end."""
    state = match.state
    state["anchor"] = "B1"
    state["sections"].update({"CE": "A", "CW": "A", "W": "A"})
    state["final_voyage"] = True
    pass_all(match)
    sail(match, "FIN", until="finished")


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
    sail_the_final_voyage(match)
    assert state["over"]["outcome"] == "won"
    sheet = RULES.final_score(state)
    assert sheet["outcome"] == "won" and all(entry["met"] for entry in sheet["objectives"])
    assert sheet["lines"] == []


def test_losing_without_the_species():
    match = lost_game()
    at_action(match)
    state = match.state
    state["lost"].update(found=True, cabin=True)
    sail_the_final_voyage(match)
    sheet = RULES.final_score(state)
    assert sheet["outcome"] == "lost"
    assert [entry["met"] for entry in sheet["objectives"]] == [True, False, True, True]


def test_one_voyage_deck_left():
    """TIS-SOLO-LOST-9: when one voyage deck runs out, the other type is the only choice."""
    match = lost_game()
    at_action(match)
    match.state["decks"]["coastal"] = []
    assert voyage_choices(match.state) == ["open_sea"]


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


# ---------------------------------------------------------------- Magnetic North Pole

MAGNETIC = {"scenario": "magnetic_north_pole"}


def magnetic_game(start: str = "E0"):
    match, _ = create(RULES, MAGNETIC, NAMES[:1], TABLE, None)
    do(match, "p1", {"type": "choose_start_anchor", "anchor": start})
    return match


def magnetized_at(anchor: str, sections: dict | None = None):
    """A Magnetic game in its Action phase with the fleet moved to ``anchor`` and the compass magnetized."""
    match = magnetic_game()
    sail(match, "E1")
    state = match.state
    state["anchor"] = anchor
    state["sections"].update(sections or {"CE": "A", "CW": "A"})
    state["magnetic"]["compass"] = "on"
    return match


def to_compass(match):
    """Pass to the next round's Destination step, where the compass card is revealed."""
    hero = player(match, "p1")
    hero.update(dynamite=5, health=6, morale=6, food=40)
    pass_all(match)
    assert RULES.chance_node(match.state).key == "compass"


def test_magnetic_setup():
    """TIS-SOLO-MAG-1 (9 dynamite, 3 wood, 2 rifles, fuel 8), TIS-SOLO-MAG-2 (its decks), TIS-SOLO-MAG-3 (Hire
    Inuk and Discover covered, no species deck), TIS-SOLO-MAG-4 (the pole among the bottom 5),
    TIS-SOLO-MAG-5 / TIS-CMD-24 (East side B, a choice of two Start anchors)."""
    match, _ = create(RULES, MAGNETIC, NAMES[:1], TABLE, None)
    assert legal_moves(match, "p1") == [{"type": "choose_start_anchor", "anchor": "E0"},
                                        {"type": "choose_start_anchor", "anchor": "E0b"}]
    do(match, "p1", {"type": "choose_start_anchor", "anchor": "E0b"})
    state = match.state
    hero = player(match, "p1")
    assert (hero["dynamite"], hero["wood"], hero["rifle"], hero["fuel"]) == (9, 3, 2, 8)
    assert state["sections"]["E"] == "B" and state["anchor"] == "E0b"
    assert [move["anchor"] for move in legal_moves(match, "p1")] == ["E2", "E3"]
    assert sorted(state["decks"]["coastal"]) == [f"ev{n:02d}" for n in (13, 14, 15, 17, 18, 19, 20, 21, 23, 24)]
    assert sorted(state["decks"]["open_sea"]) == [f"ev{n:02d}" for n in range(1, 11)]
    assert state["decks"]["species"] == [] and len(state["decks"]["compass"]) == 12
    sail(match, "E2")
    assert state["revealed"]["species"] == []
    spaces = {move.get("space") for move in legal_moves(match, "p1")}
    assert "magnetic-research" in spaces and not spaces & {"hire-inuk-1", "hire-inuk-2", "discover-species"}
    player(match, "p1")["free"]["captain"] = 1
    with pytest.raises(IllegalMove) as refused:
        act(match, "hire-inuk-1", "captain", {"sailor": 1})
    assert refused.value.rule_id == "TIS-SOLO-MAG-3"


def test_the_pole_card_lies_among_the_bottom_five():
    """TIS-SOLO-MAG-4: until a card is shuffled back, the pole can only be drawn once 5 cards are left."""
    from domain.through_ice_and_snow.magnetic import compass_candidates
    state = magnetic_game().state
    assert "compass-pole" not in compass_candidates(state) and len(compass_candidates(state)) == 11
    state["decks"]["compass"] = ["compass-pole", "compass-N1", "compass-N2", "compass-S1", "compass-S2"]
    assert "compass-pole" in compass_candidates(state)
    state["decks"]["compass"] = sorted([*state["decks"]["compass"], "compass-E1"])
    state["magnetic"]["layered"] = False
    assert "compass-pole" in compass_candidates(state)


def test_the_compass_is_magnetized_from_central_west():
    """TIS-SOLO-MAG-8: a Voyage phase starting from a Central-West anchor (boundary included) magnetizes it."""
    match = magnetized_at("Y1")
    match.state["magnetic"]["compass"] = "off"
    to_compass(match)
    assert match.state["magnetic"]["compass"] == "on"


def test_somerset_south():
    """TV-15 / TIS-SOLO-MAG-9: at Somerset with a South card, only route-connected anchors count, either
    direction; the one furthest south is the destination."""
    from domain.through_ice_and_snow.magnetic import connected, farthest
    state = magnetized_at("X2").state
    assert connected(state, "X2") == ["C1", "C2", "E1", "E3"]
    assert farthest(state, "S") == ["C1"]
    assert farthest(state, "E") == ["E1"]


def test_a_compass_tie_is_the_players_choice():
    """TIS-AMB-18 / TIS-CMD-6 / TIS-CMD-26: at King William, South: Boothia and Queen Maud lie equally far
    south; the tie is the destination decision itself, answered with choose_destination."""
    match = magnetized_at("Y1")
    to_compass(match)
    draw(match, "compass-S1")
    assert [move["anchor"] for move in legal_moves(match, "p1")] == ["C1", "D2"]
    assert match.state["magnetic"]["discard"] == ["compass-S1"]
    do(match, "p1", {"type": "choose_destination", "anchor": "C1"})
    assert match.state["dynamite_on"].get("C1") == 1


def test_no_anchor_that_way_costs_fuel_and_draws_again():
    """TIS-SOLO-MAG-9: nothing north of Stefansson: fuel -1 (no band), the card goes back, another is drawn."""
    match = magnetized_at("D3")
    to_compass(match)
    hero = player(match, "p1")
    fuel = hero["fuel"]
    draw(match, "compass-N1")
    assert hero["fuel"] == fuel - 1 and "compass-N1" in match.state["decks"]["compass"]
    assert match.state["magnetic"]["layered"] is False and RULES.chance_node(match.state).key == "compass"
    hero["fuel"] = 0
    draw(match, "compass-N2")
    assert match.state["over"]["rule"] == "TIS-LOSE-3"


def test_the_pole_card_follows_the_top_discarded_card():
    """TIS-SOLO-MAG-12: direction of the top of the discard pile; no discard pile is no direction (ASSUMED)."""
    match = magnetized_at("Y1")
    to_compass(match)
    state = match.state
    state["magnetic"]["layered"] = False
    hero = player(match, "p1")
    fuel = hero["fuel"]
    draw(match, "compass-pole")
    assert hero["fuel"] == fuel - 1 and "compass-pole" in state["decks"]["compass"]
    state["magnetic"]["discard"] = ["compass-S1", "compass-W1"]
    draw(match, "compass-pole")
    assert [move["anchor"] for move in legal_moves(match, "p1")] == ["D1", "D2"]  # any anchor west, not the farthest
    assert state["magnetic"]["pole_round"] == {"direction": "W", "threshold": 13, "explore": False, "cabin": False}


@pytest.mark.parametrize(("sled", "dogs", "food", "found"), [(4, 7, 4, True), (4, 7, 3, False), (3, 7, 4, False)])
def test_discovering_the_pole(sled, dogs, food, found):
    """TIS-SOLO-MAG-12 / TIS-AMB-22: in the pole round, an Explore worth >= 13 (West) and a cabin lowering food by
    4 or more; otherwise the pole card goes back into the compass deck."""
    match = magnetized_at("Y1")
    to_compass(match)
    state = match.state
    state["magnetic"]["discard"] = ["compass-W1"]
    state["magnetic"]["layered"] = False
    draw(match, "compass-pole")
    sail(match, "D1")
    hero = player(match, "p1")
    hero.update(sled=sled, dogs=dogs, food=30, wood=5)
    act(match, "explore-1", "captain", {"sailor": 1}, survival_deposit="wood")
    act(match, "build-cabin", "carpenter", {"sailor": 1}, survival_deposit="wood")
    do(match, "p1", {"type": "lower_food_for_cabin", "amount": food})
    hero.update(dynamite=5, health=6, morale=6)
    pass_all(match)
    assert (state["magnetic"]["compass"] == "discovered") is found
    assert ("compass-pole" in state["decks"]["compass"]) is not found


def test_open_sea_to_an_unmapped_region_shuffles_the_discards_back():
    """TIS-SOLO-MAG-11."""
    match = magnetized_at("Y1")
    to_compass(match)
    state = match.state
    state["magnetic"]["discard"] = ["compass-N1"]
    draw(match, "compass-S1")
    sail(match, "C1", voyage="open_sea")
    assert state["magnetic"]["discard"] == [] and {"compass-N1", "compass-S1"} <= set(state["decks"]["compass"])


def test_magnetic_research():
    """TIS-SOLO-MAG-7: scientist + 1 crew; a direction card is discarded, the pole card shuffled back."""
    match = magnetic_game()
    sail(match, "E1")
    state = match.state
    act(match, "magnetic-research", "scientist", {"sailor": 1}, survival_deposit="rifle")
    assert RULES.chance_node(state).key == "research"
    draw(match, "compass-E2")
    assert state["magnetic"]["discard"] == ["compass-E2"] and "compass-E2" not in state["decks"]["compass"]


def test_ice_breaking_even_where_dynamite_lies():
    """TIS-SOLO-MAG-10: a magnetized compass may lead back; the dynamite is placed again."""
    match = magnetized_at("Y1")
    match.state["dynamite_on"]["C1"] = 1
    to_compass(match)
    draw(match, "compass-S1")
    do(match, "p1", {"type": "choose_destination", "anchor": "C1"})
    assert match.state["dynamite_on"]["C1"] == 2


def test_magnetic_objectives():
    """TIS-SOLO-MAG-6: both the pole and the Passage, no final scoring."""
    match = magnetic_game()
    sail(match, "E1")
    state = match.state
    player(match, "p1")["dynamite"] = 3
    sail_the_final_voyage(match)
    sheet = RULES.final_score(state)
    assert sheet["outcome"] == "lost" and [entry["met"] for entry in sheet["objectives"]] == [False, True]


@pytest.mark.parametrize("mode", [SERVER, TABLE])
def test_magnetic_north_pole_conforms(mode):
    assert play_random_game(RULES, 1, mode, 22, options=MAGNETIC).match.ended


# ---------------------------------------------------------------- Mysterious Epidemic (TIS-SOLO-EPI)

EPIDEMIC = {"scenario": "mysterious_epidemic"}


def epidemic_game(settlement: str = "S1", upgrade: int = 4):
    match, _ = create(RULES, EPIDEMIC, NAMES[:1], TABLE, None)
    draw(match, settlement)
    do(match, "p1", {"type": "choose_free_upgrade", "upgrade": upgrade})
    return match


def test_epidemic_setup():
    """TIS-SOLO-EPI-1 (7 dynamite, 4 wood, 2 rifles), TIS-SOLO-EPI-2 (Hire Inuk covered), TIS-SOLO-EPI-3 (its
    decks), TIS-SOLO-EPI-4 / TIS-CMD-25 (a free tile in the leftmost slot), TIS-SOLO-EPI-5 (one settlement card
    at random), TIS-SOLO-EPI-8 (its East anchors get an Inuk)."""
    match, _ = create(RULES, EPIDEMIC, NAMES[:1], TABLE, None)
    node = RULES.chance_node(match.state)
    assert (node.key, node.candidates, node.visible_to) == ("settlement", ("S1", "S2", "S3"), None)
    draw(match, "S1")
    assert [move["upgrade"] for move in legal_moves(match, "p1")] == [1, 2, 3, 4, 5, 6]
    do(match, "p1", {"type": "choose_free_upgrade", "upgrade": 5})
    state = match.state
    hero = player(match, "p1")
    assert (hero["dynamite"], hero["wood"], hero["rifle"], hero["upgrades"]) == (7, 4, 2, [5])
    assert state["tiles"]["5"] == 1
    assert sorted(state["decks"]["coastal"]) == [f"ev{n:02d}" for n in (13, 14, 15, 16, 18, 19, 21, 22, 23, 24)]
    assert sorted(state["decks"]["open_sea"]) == [f"ev{n:02d}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 11, 12)]
    assert state["epidemic"]["inuit_on"] == ["E3"] and state["supply"]["inuk"] == 14
    sail(match, "E1", draws={"disease": ["D3"]})
    with pytest.raises(IllegalMove) as refused:
        act(match, "hire-inuk-1", "captain", {"sailor": 1})
    assert refused.value.rule_id == "TIS-SOLO-EPI-2"


def test_an_officer_falls_ill_at_the_end_of_the_voyage():
    """TIS-SOLO-EPI-7: the officer shown goes onto the disease card: not in the sick bay, cannot act, still
    fed; already ill, 2 other crew members (not Inuit) instead, the player's choice."""
    match = epidemic_game()
    sail(match, "E1", chance="disease")
    draw(match, "D1")
    state = match.state
    hero = player(match, "p1")
    assert state["epidemic"]["diseases"] == [{"card": "D1", "crew": {"captain": 1}}]
    assert (hero["crew"]["captain"], hero["free"]["captain"]) == (1, 0)
    hero["crew"]["inuk"] = hero["free"]["inuk"] = 1
    hero.update(dynamite=5, health=6, morale=6, food=40)
    pass_all(match)
    assert hero["free"]["captain"] == 0  # back at Boarding, but still ill
    sail(match, "E3", chance="disease")
    draw(match, "D2")
    moves = legal_moves(match, "p1")
    assert {"type": "choose_sick_crew", "crew": {"carpenter": 1, "scientist": 1}} in moves
    assert all("inuk" not in move["crew"] and "captain" not in move["crew"] for move in moves)
    do(match, "p1", {"type": "choose_sick_crew", "crew": {"sailor": 2}})
    assert state["epidemic"]["diseases"][-1] == {"card": "D2", "crew": {"sailor": 2}}
    assert hero["free"]["sailor"] <= 1


def test_consulting_the_inuit():
    """TIS-SOLO-EPI-8: on a settlement anchor of a mapped region, no disease: the Inuk joins (usable this round)
    and a treatment card is drawn; a section placed later gets its settlement Inuit."""
    match = epidemic_game()
    sail(match, "E1", draws={"disease": ["D5"]})
    hero = player(match, "p1")
    hero.update(dynamite=5, health=6, morale=6, food=40)
    pass_all(match)
    sail(match, "E3", voyage="coastal", chance="treatment")
    state = match.state
    assert "Devon" in state["mapped"] and state["epidemic"]["inuit_on"] == []
    assert (hero["crew"]["inuk"], hero["free"]["inuk"], hero["inuit"]) == (1, 1, 1)
    draw(match, "T1")
    assert state["epidemic"]["treatments"] == ["T1"] and len(state["epidemic"]["diseases"]) == 1
    hero.update(dynamite=5, health=6, morale=6, food=40)
    pass_all(match)
    sail(match, "X2", side="A", draws={"disease": ["D6"]})
    assert state["epidemic"]["inuit_on"] == ["C1"]


def test_a_treatment_after_a_qualifying_explore():
    """TIS-SOLO-EPI-9 / TIS-CMD-23 / TIS-AMB-22: Explore worth >= 5 meets T1's first requirement (cure 1);
    the cured officer is back at once and the empty disease card and the treatment are discarded."""
    match = epidemic_game()
    sail(match, "E1", draws={"disease": ["D3"]})
    state = match.state
    state["epidemic"]["treatments"] = ["T1"]
    hero = player(match, "p1")
    hero.update(sled=1, dogs=4)
    act(match, "explore-1", "captain", {"sailor": 1}, survival_deposit="wood")
    assert legal_moves(match, "p1") == [
        {"type": "activate_treatment", "card": "T1", "requirement": 1, "crew": {"carpenter": 1}, "species": []},
        {"type": "activate_treatment", "card": None}]
    do(match, "p1", {"type": "activate_treatment", "card": "T1", "requirement": 1, "crew": {"carpenter": 1},
                     "species": []})
    assert hero["free"]["carpenter"] == 1 and state["epidemic"]["diseases"] == []
    assert state["epidemic"]["discards"] == {"disease": ["D3"], "treatment": ["T1"]}


def test_a_treatment_by_discarding_species():
    """TIS-SOLO-EPI-9 / GAP-17: T3 cures 2 for 2 species cards of any species; declining keeps the card."""
    match = epidemic_game()
    sail(match, "E1", draws={"disease": ["D3"]})
    state = match.state
    state["epidemic"]["treatments"] = ["T3"]
    state["epidemic"]["diseases"].append({"card": "D5", "crew": {"scientist": 1}})
    hero = player(match, "p1")
    hero["species"] = ["S01", "S05"]
    act(match, "ice-fishing", None, {"sailor": 1})
    moves = legal_moves(match, "p1")
    assert {"type": "activate_treatment", "card": "T3", "requirement": 2, "crew": {"carpenter": 1, "scientist": 1},
            "species": ["S01", "S05"]} in moves
    do(match, "p1", {"type": "activate_treatment", "card": None})
    assert state["epidemic"]["treatments"] == ["T3"]


def test_no_healthy_crew_loses():
    """TIS-SOLO-EPI-6: at the end of the Boarding phase, at least 1 healthy crew member who is not an Inuk."""
    match = epidemic_game()
    sail(match, "E1", draws={"disease": ["D3"]})
    hero = player(match, "p1")
    match.state["epidemic"]["diseases"] = [{"card": "D3", "crew": {"captain": 1, "carpenter": 1, "scientist": 1,
                                                                   "sailor": 3}}]
    hero.update(dynamite=5, health=6, morale=6, food=40)
    pass_all(match)
    assert match.state["over"]["rule"] == "TIS-SOLO-EPI-6"
    assert RULES.final_score(match.state)["outcome"] == "lost"


@pytest.mark.parametrize("mode", [SERVER, TABLE])
def test_mysterious_epidemic_conforms(mode):
    assert play_random_game(RULES, 1, mode, 23, options={**EPIDEMIC, "inuit_myths": True}).match.ended


# ---------------------------------------------------------------- Amundsen's Voyage

AMUNDSEN = {"scenario": "amundsens_voyage"}


def amundsen_game():
    match, _ = create(RULES, AMUNDSEN, NAMES[:1], TABLE, None)
    draw(match, "ev01", "ev02")
    return match


def test_amundsen_sets_its_own_legendary_cards():
    """TIS-SOLO-AMU-3 / TIS-SOLO-AMU-4: no Legendary card types besides the scenario's own."""
    with pytest.raises(IllegalMove) as refused:
        create(RULES, {**AMUNDSEN, "legendary_expeditions": ["explorer_events"]}, NAMES[:1], TABLE, None)
    assert (refused.value.rule_id, refused.value.field) == ("TIS-SOLO-AMU-3", "options.legendary_expeditions")


def test_amundsen_setup():
    """TIS-SOLO-AMU-1 (8 dynamite, 5 wood, 3 rifles), TIS-SOLO-AMU-3 (Amundsen's dog track, the Gjøa),
    TIS-SOLO-AMU-4 (no open-sea deck; 2 coastal cards out unseen, Gjøa Haven and event 53 in)."""
    match, _ = create(RULES, AMUNDSEN, NAMES[:1], TABLE, None)
    node = RULES.chance_node(match.state)
    assert (node.key, node.count, node.visible_to, len(node.candidates)) == ("amundsen_removal", 2, (), 12)
    draw(match, "ev03", "ev04")
    state = match.state
    hero = player(match, "p1")
    assert (hero["dynamite"], hero["wood"], hero["rifle"], hero["dogs"], hero["fixed_dogs"]) == (8, 5, 3, 0, 7)
    assert hero["ship"] == "ship-gjoa" and state["supply"]["dog"] == 25
    assert state["decks"]["open_sea"] == [] and len(state["decks"]["coastal"]) == 12
    assert {"ev55", "ev53"} <= set(state["decks"]["coastal"]) and "ev03" not in state["decks"]["coastal"]
    assert hero["black_cylinders"] == {"health": [8], "morale": [8, 7]}


def test_only_coastal_voyages():
    """TIS-SOLO-AMU-6: the leader is never asked: coastal it is; without fuel for it, the game is lost."""
    match = amundsen_game()
    sail(match, "E1", until="fuel")
    assert match.state["voyage"] == "coastal"
    match = amundsen_game()
    player(match, "p1")["fuel"] = 1
    sail(match, "E1")
    assert match.state["over"]["rule"] == "TIS-SOLO-AMU-6"
    assert RULES.final_score(match.state)["outcome"] == "lost"


def test_black_cylinders_cap_health_and_morale():
    """TIS-SOLO-AMU-2 / TIS-AMB-6: the cylinders sit on the highest spaces; tracks stop below them."""
    from domain.through_ice_and_snow.tracks import raise_track
    hero = player(amundsen_game(), "p1")
    hero.update(health=6, morale=5, fuel=10)
    raise_track(hero, "health", 3)
    raise_track(hero, "morale", 3)
    raise_track(hero, "fuel", 2)
    assert (hero["health"], hero["morale"], hero["vp"]) == (7, 6, 10)


def test_amundsens_ability():
    """TIS-SOLO-AMU-3: Explore counts 7 dogs; no dog is ever placed; Improve Sled needs no wood; the Gjøa gives
    fuel +1 per upgrade built (GAP-14)."""
    match = amundsen_game()
    sail(match, "E1")
    hero = player(match, "p1")
    hero.update(wood=0, sled=3, morale=3, fuel=5)
    assert "improve-sled" in {move.get("space") for move in legal_moves(match, "p1")}
    act(match, "improve-sled", "carpenter", {"sailor": 1}, survival_deposit="dynamite")
    assert (hero["sled"], hero["wood"]) == (4, 0)
    act(match, "visit-inuit", "captain", {"sailor": 2}, survival_deposit="rifle")
    assert hero["dogs"] == 0 and hero["fuel"] == 7
    hero.update(wood=3, dynamite=3)
    hero["free"].update(carpenter=1, sailor=1)
    act(match, "ship-upgrade-1", "carpenter", {"sailor": 1}, upgrade=2)
    assert hero["fuel"] == 8


@pytest.mark.parametrize(("sled", "morale", "left", "raised"), [(1, 5, [8, 7], 6), (2, 5, [8], 7), (3, 6, [], 8)])
def test_explores_remove_the_morale_cylinders(sled, morale, left, raised):
    """TIS-SOLO-AMU-9 / TIS-AMB-22: worth 7 or more removes the right cylinder (space 7), 10 or more the leftmost
    too (sled 1: 5, sled 2: 8, sled 3: 11 with 7 dogs). The cylinders are taken as the Explore's VP are earned,
    before its morale +2 (TIS-ACT-11), so the +2 climbs into the spaces they leave."""
    match = amundsen_game()
    sail(match, "E1")
    hero = player(match, "p1")
    hero.update(sled=sled, morale=morale)
    act(match, "explore-1", "captain", {"sailor": 1}, survival_deposit="wood")
    assert hero["black_cylinders"]["morale"] == left
    assert hero["morale"] == raised


def test_a_varied_diet_removes_the_health_cylinder():
    """TIS-SOLO-AMU-8: two different species discarded for food (over the game, ASSUMED)."""
    from domain.through_ice_and_snow.tracks import demand_food
    match = amundsen_game()
    sail(match, "E1")
    hero = player(match, "p1")
    hero.update(food=0, species=["S01", "S03"])
    demand_food(match.state, 0, 20)
    do(match, "p1", {"type": "resolve_food_shortage", "card": "S01"})
    assert hero["black_cylinders"]["health"] == [8]
    do(match, "p1", {"type": "resolve_food_shortage", "card": "S03"})
    assert hero["black_cylinders"]["health"] == []


@pytest.mark.parametrize(("card", "amount", "founded"), [("ev55", 6, True), ("ev55", 5, False), ("ev05", 9, False)])
def test_founding_gjoa_haven(card, amount, founded):
    """TIS-SOLO-AMU-7: only in the round its card is revealed, with a cabin lowering food by the crew count (6)."""
    match = amundsen_game()
    sail(match, "E1")
    match.state["event"] = card
    hero = player(match, "p1")
    hero["food"] = 30
    act(match, "build-cabin", "carpenter", {"sailor": 1}, survival_deposit="dynamite")
    do(match, "p1", {"type": "lower_food_for_cabin", "amount": amount})
    assert match.state["amundsen"]["gjoa_haven"] is founded


def test_amundsen_objectives():
    """TIS-SOLO-AMU-5: Gjøa Haven and the Passage; TIS-AMB-19: the card-less final voyage is sailed as usual."""
    match = amundsen_game()
    sail(match, "E1")
    state = match.state
    state["amundsen"]["gjoa_haven"] = True
    player(match, "p1")["dynamite"] = 3
    sail_the_final_voyage(match)
    assert RULES.final_score(state)["outcome"] == "won"


@pytest.mark.parametrize("mode", [SERVER, TABLE])
def test_amundsens_voyage_conforms(mode):
    assert play_random_game(RULES, 1, mode, 24, options=AMUNDSEN).match.ended
