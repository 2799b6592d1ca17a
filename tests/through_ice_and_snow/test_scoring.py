"""The final voyage (TIS-END-1), final scoring (TIS-END-2, TIS-END-3, TIS-END-4) and investor objectives."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.core.match import legal_moves
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.scoring import majority, objective_met
from tests.through_ice_and_snow.helpers import bare_state, pass_all, player, sail, table_game, turn


@pytest.mark.parametrize(("counts", "expected"), [
    ({"A": 5, "B": 5, "C": 3, "D": 0}, {"A": 15, "B": 15, "C": 5}),
    ({"A": 4, "B": 4, "C": 4}, {"A": 11, "B": 11, "C": 11}),
    ({"A": 2, "B": 2, "C": 2, "D": 2}, {"A": 8, "B": 8, "C": 8, "D": 8}),
    ({"A": 6, "B": 3, "C": 3}, {"A": 20, "B": 7, "C": 7}),
])
def test_species_majority_with_the_averaged_tie_rule(counts, expected):
    """TV-11 / TIS-END-3 for species (20 / 10 / 5)."""
    assert majority(counts, (20, 10, 5)) == expected


@pytest.mark.parametrize(("counts", "expected"), [
    ({"A": 2, "B": 2}, {"A": 11, "B": 11}), ({"A": 3, "B": 1, "C": 1}, {"A": 15, "B": 3, "C": 3}),
])
def test_cabin_majority(counts, expected):
    """TV-11 / TIS-END-3 for cabins (15 / 7)."""
    assert majority(counts, (15, 7)) == expected


def finished(players=2):
    match = bare_state(players)
    match.state["over"] = {"outcome": "ranked"}
    return match


def test_final_score_sheet():
    """TIS-END-2 / TV-12: every part, in order, on one sheet; Rosa's health 5 gives +1, morale 3 gives -1."""
    match = finished(2)
    state = match.state
    rosa, other = state["players"]
    rosa.update(vp=30, species=["S21", "S23", "S01"], cabins=2, health=5, morale=3, investor="oxford-university",
                carto="K1")
    other.update(vp=40, species=["S22"], cabins=0, health=4, morale=4, investor="admiralty", carto="K2")
    state["mapped"] = {"Baffin": "p1", "Somerset": "p2", "Bylot": "p1"}
    sheet = RULES.final_score(state)
    rows = {(line["seat"], line["label"]): line["points"] for line in sheet["lines"]}
    assert rows[("p1", "species majority")] == 20 and rows[("p2", "species majority")] == 10
    assert rows[("p1", "species cards")] == 4 + 3 + 1
    assert rows[("p1", "cabin majority")] == 15 and rows[("p2", "cabin majority")] == 0
    assert rows[("p1", "health track")] == 1 and rows[("p1", "morale track")] == -1
    assert rows[("p1", "investor Oxford University")] == 0  # 2 cabins < 3
    assert rows[("p1", "cartography card")] == 10  # K1: Baffin, Somerset mapped
    assert rows[("p2", "cartography card")] == 5  # K2: Bylot
    assert sheet["totals"] == {"p1": 30 + 20 + 8 + 15 + 1 - 1 + 0 + 10, "p2": 40 + 10 + 4 + 0 + 0 + 0 + 0 + 5}
    assert sheet["ranking"] == [{"rank": 1, "seats": ["p1"]}, {"rank": 2, "seats": ["p2"]}]


def test_tied_winners_share_the_victory():
    """TIS-END-4 (ASSUMED shared victory)."""
    match = finished(2)
    for hero in match.state["players"]:
        hero.update(vp=20, investor="admiralty", carto="K1")
    sheet = RULES.final_score(match.state)
    assert sheet["ranking"] == [{"rank": 1, "seats": ["p1", "p2"]}]
    assert sheet["tie_breaks"][0]["rule"] == "TIS-END-4"


@pytest.mark.parametrize(("investor", "edit", "met"), [
    ("felix-booth", {"booth_ok": True}, True), ("felix-booth", {"booth_ok": False}, False),
    ("parliament", {"times_leader": 5}, True), ("parliament", {"times_leader": 4}, False),
    ("admiralty", {"explores": 5}, True), ("british-museum", {"species": ["S01", "S03"]}, True),
    ("henry-grinnell", {"cabins": 1}, True), ("lady-franklin", {"inuit": 4}, True),
    ("north-west-company", {"species": ["S01", "S02", "S03", "S05", "S07"]}, False),
    ("north-west-company", {"species": ["S01", "S03", "S05", "S07", "S09"]}, True),
    ("oxford-university", {"cabins": 3}, True),
])
def test_investor_objectives(investor, edit, met):
    """Spec 2.4 with TIS-AMB-9 (times leader) and TIS-AMB-10 (distinct species held; strictly more)."""
    match = finished(2)
    hero = match.state["players"][0]
    hero.update(investor=investor, **edit)
    match.state["players"][1]["species"] = ["S11"]
    assert objective_met(match.state, 0) is met


@pytest.mark.parametrize(("rounds", "society", "geographers"), [(10, True, False), (8, False, True)])
def test_game_length_objectives(rounds, society, geographers):
    """TIS-AMB-8: rounds are Action phases played."""
    match = finished(2)
    match.state["round"] = rounds
    match.state["players"][0]["investor"] = "royal-society"
    match.state["players"][1]["investor"] = "royal-geographical-society"
    assert (objective_met(match.state, 0), objective_met(match.state, 1)) == (society, geographers)


def test_mapped_regions_objective():
    """Hudson Bay Company: 5 regions mapped by anyone."""
    match = finished(2)
    match.state["players"][0]["investor"] = "hudson-bay-company"
    match.state["mapped"] = dict.fromkeys(["Baffin", "Devon", "Bylot", "Somerset", "Boothia"], "p2")
    assert objective_met(match.state, 0)


@pytest.mark.parametrize(("side", "vp"), [("A", 6), ("B", 8)])
def test_final_round_then_final_voyage(side, vp):
    """TIS-END-1: after the final round's Boarding, one voyage to the final anchor: open-sea only, no event card,
    the leader scores the anchor (6 or 8 by the West side), fuel -1, no card setup; then the game ends."""
    match = table_game(2)
    match.state["anchor"] = "W2"
    match.state["sections"].update(CE="A", CW="A", W=side)
    sail(match, "B2")
    assert match.state["final_voyage"] is False
    pass_all(match)
    assert match.state["final_voyage"] is True
    leader = turn(match)
    assert legal_moves(match, leader) == [{"type": "choose_destination", "anchor": "FIN"}]
    before = player(match, leader)["vp"]
    fuel = [hero["fuel"] for hero in match.state["players"]]
    open_sea = len(match.state["decks"]["open_sea"])
    sail(match, "FIN")
    assert match.ended
    assert player(match, leader)["vp"] == before + vp
    assert [hero["fuel"] for hero in match.state["players"]] == [value - 1 for value in fuel]
    assert len(match.state["decks"]["open_sea"]) == open_sea
    assert match.state["revealed"] == {"hunting": [], "species": []}
    assert RULES.final_score(match.state)["outcome"] == "ranked"


@given(st.lists(st.integers(min_value=0, max_value=6), min_size=2, max_size=4))
def test_majority_prizes_are_never_given_twice(counts):
    """TIS-END-3: tied players get the same share, nobody unranked scores, and no more than the prizes is paid."""
    seats = {f"p{index + 1}": count for index, count in enumerate(counts)}
    awarded = majority(seats, (20, 10, 5))
    assert sum(awarded.values()) <= 35
    assert all(seats[seat] >= 1 for seat in awarded)
    for seat, points in awarded.items():
        assert all(awarded[other] == points for other in awarded if seats[other] == seats[seat])
        assert all(points >= awarded[other] for other in awarded if seats[other] < seats[seat])
