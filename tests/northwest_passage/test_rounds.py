"""Rounds, the sun, turn order and the two ways the game ends (spec 4 and 6.1)."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves, waiting_for
from domain.northwest_passage import RULES
from tests.northwest_passage.helpers import event_of, play, put, started, types_of, vessel


def test_v11_next_round_plays_in_passing_order():
    """NWP-ROUND-9 / NWP-COMP-23 (V11): order A, B, C; passes C, A, B; next round C, A, B."""
    match = started(3)
    for seat in ("p1", "p2"):
        play(match, seat, {"type": "draw_tile", "source": "S01", "pay_from": "ship"})
        play(match, seat, {"type": "end_turn"})
    play(match, "p3", {"type": "pass"})
    play(match, "p1", {"type": "pass"})
    events = play(match, "p2", {"type": "pass"})
    assert event_of(events, "round_ended")["order"] == ["p3", "p1", "p2"]
    assert match.state["order"] == ["p3", "p1", "p2"] and waiting_for(match) == ["p3"]


def test_end_of_round_moves_the_sun_and_stands_the_crew_up():
    """NWP-ROUND-10 / NWP-COMP-7 / NWP-COMP-8: the sun moves on one position, resting crew become available."""
    match = started(2)
    put(match, "S01#5", 5, 1)
    play(match, "p1", {"type": "draw_tile", "source": "S01", "pay_from": "ship"})
    play(match, "p1", {"type": "pass"})
    assert match.state["players"]["p1"]["ship"]["resting"] == 1
    events = play(match, "p2", {"type": "pass"})
    assert event_of(events, "round_ended") == {"round": 2, "sun": 1, "order": ["p1", "p2"], "sleds_lost": []}
    ship = match.state["players"]["p1"]["ship"]
    assert (ship["available"], ship["resting"]) == (7, 0)
    vessel(match, "p1", "ship", "S01#5", 7)
    assert not [move for move in legal_moves(match, "p1") if move["type"] == "move_ship"]


def test_ten_rounds_with_the_sun_on_the_end_twice():
    """NWP-ROUND-1 / NWP-COMP-9 / NWP-COMP-10 / NWP-END-1: T0..T6, T0, T1, T2; the game ends after round 10."""
    match = started(2)
    suns = [match.state["sun"]]
    while not match.ended:
        for seat in list(match.state["order"]):
            events = play(match, seat, {"type": "pass"})
        if "round_ended" in types_of(events):
            suns.append(event_of(events, "round_ended")["sun"])
    assert suns == [0, 1, 2, 3, 4, 5, 6, 0, 1, 2]
    assert RULES.catalogue.sun_track[suns[-1]]["the_end"] and suns.count(2) == 2
    assert {y for _, y in RULES.catalogue.frozen_cells[suns[-1]]} == {0, 1, 2, 3}, "V9: round 10 freezes rows 0-3"
    assert event_of(events, "expedition_ended") == {"rule": "NWP-END-1"}
    assert match.state["sun"] == 2 and match.state["round"] == 10 and RULES.is_over(match.state)


def test_a_player_with_every_vessel_home_passes_at_the_start_of_each_round():
    """NWP-ROUND-8 / NWP-END-4 / NWP-END-3: a returned vessel cannot act, so its player passes automatically."""
    match = started(2)
    home = vessel(match, "p1", "ship", "G", 7)
    home.update(returned=True, left_greenland=True)
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "draw_tile", "source": "S01", "pay_from": "ship"})
    assert error.value.rule_id == "NWP-ROUND-5"
    play(match, "p1", {"type": "pass"})
    events = play(match, "p2", {"type": "pass"})
    assert types_of(events)[-2:] == ["round_ended", "player_passed"]
    assert events[-1]["seat"] == "p1" and events[-1]["data"] == {"auto": True}
    assert waiting_for(match) == ["p2"]


def test_the_game_ends_at_once_when_every_explorer_is_home():
    """NWP-END-2 / NWP-ROUND-11 / NWP-END-3: the last crew entering Greenland end the game mid-round."""
    match = started(2)
    put(match, "S01#5", 11, 4)
    vessel(match, "p2", "ship", "G", 7).update(returned=True, left_greenland=True)
    vessel(match, "p1", "ship", "S01#5", 7)
    events = play(match, "p1", {"type": "move_ship", "to": "G"})
    assert match.state["players"]["p1"]["ship"]["returned"]
    assert event_of(events, "expedition_ended") == {"rule": "NWP-END-2"}
    assert match.ended and match.state["sun"] == 0 and match.state["round"] == 1


def test_setting_out_from_greenland_is_not_returning():
    """NWP-END-3: a vessel in Greenland at setup has not returned; it returns by entering again after leaving."""
    match = started(2)
    put(match, "S01#5", 11, 4)
    assert not match.state["players"]["p1"]["ship"]["returned"]
    play(match, "p1", {"type": "move_ship", "to": "S01#5"})
    play(match, "p1", {"type": "move_ship", "to": "G"})
    assert match.state["players"]["p1"]["ship"]["returned"]
    assert waiting_for(match) == ["p2"], "no crew left on a vessel able to act: automatic pass"


@pytest.mark.parametrize(("choice", "lost"), [("stuck", False), ("lost", True)])
def test_a_sled_on_thawing_sea(choice, lost):
    """NWP-ACT-7 (A4): on thawing sea the sled is stuck by default, or lost with its crew."""
    match = started(2, {"sled_on_thawed_sea": choice})
    put(match, "S01#5", 5, 5)
    vessel(match, "p1", "sled", "S01#5", 3)
    vessel(match, "p1", "ship", "G", 4)
    match.state["sun"] = 3
    play(match, "p1", {"type": "pass"})
    events = play(match, "p2", {"type": "pass"})
    assert event_of(events, "round_ended")["sleds_lost"] == (["p1"] if lost else [])
    sled = match.state["players"]["p1"]["sled"]
    assert sled["lost"] is lost and sled["available"] == 3
    draws = [m for m in legal_moves(match, "p1") if m["type"] == "draw_tile" and m["pay_from"] == "sled"]
    assert bool(draws) is not lost
