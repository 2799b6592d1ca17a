"""Crew costs, the surcharge and who pays (spec 4, worked examples V1 to V3)."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves, waiting_for
from tests.northwest_passage.helpers import event_of, play, put, resolve, started, types_of, vessel


def test_v1_three_actions_from_the_ship_then_an_automatic_pass():
    """NWP-ROUND-3 (V1): 1, then 2, then 2; a 4th draw costs 2, leaves 0 and passes automatically (NWP-ROUND-7)."""
    match = started(2)
    ship = match.state["players"]["p1"]["ship"]
    play(match, "p1", {"type": "draw_tile", "source": "S03", "pay_from": "ship"})
    assert ship["available"] == 6
    play(match, "p1", {"type": "place_tile", "tile_id": "S01#2", "anchor_x": 11, "anchor_y": 4, "rotation": 0,
                       "flip": False, "pay_from": "ship"})
    assert ship["available"] == 4
    events = play(match, "p1", {"type": "move_ship", "to": "S01#2"})
    assert event_of(events, "vessel_moved")["cost"] == 2 and ship["available"] == 2
    events = play(match, "p1", {"type": "draw_tile", "source": "S03", "pay_from": "ship"})
    assert event_of(events, "tile_drawn")["cost"] == 2
    assert (ship["available"], ship["resting"]) == (0, 7)
    assert types_of(events)[-1] == "player_passed" and event_of(events, "player_passed") == {"auto": True}
    assert waiting_for(match) == ["p2"]


def test_v2_the_surcharge_is_flat():
    """NWP-ROUND-3 (V2 / A11): explore 3 then discover 2 + 1 = 6; the other way round 2 + (3 + 1) = 6."""
    for first, second in (("explore", "discover"), ("discover", "explore")):
        match = started(2)
        put(match, "L01#2", 5, 5)
        put(match, "L02#2", 5, 4)
        ship = vessel(match, "p1", "ship", "L01#2", 7)
        # V2 has both tokens within the ship's reach; one tile carries one token, so the Inuit is set beside the wreck
        match.state["tokens"]["L02#2:inuit"]["tile"] = "L01#2"
        tokens = {"explore": "L01#2:wreck", "discover": "L02#2:inuit"}
        costs = []
        for kind in (first, second):
            events = play(match, "p1", {"type": kind, "token_id": tokens[kind], "pay_from": "ship"})
            costs.append(event_of(events, "token_claimed")["cost"])
        assert sum(costs) == 6 and ship["available"] == 1


def test_v2_refresh_costs_two_first_and_three_second():
    """NWP-ROUND-3 (V2): a refresh as the first action costs 2, as the second 3, from one vessel."""
    match = started(2)
    ship = match.state["players"]["p1"]["ship"]
    play(match, "p1", {"type": "refresh_and_draw", "pay_from": "ship"})
    assert ship["available"] == 5
    resolve(match, ["L04#1", "L05#1", "L06#1", "L07#1"])
    play(match, "p1", {"type": "draw_tile", "source": "L05#1"})
    resolve(match, ["L08#1"])
    events = play(match, "p1", {"type": "refresh_and_draw", "pay_from": "ship"})
    assert event_of(events, "display_refreshed")["cost"] == 3 and ship["available"] == 2


def test_v3_crew_of_two_vessels_never_pay_together():
    """NWP-ROUND-4 (V3): ship 1 and sled 1 available: no refresh (cost 2), but a draw from either vessel."""
    match = started(2)
    vessel(match, "p1", "ship", "G", 1, 5)
    vessel(match, "p1", "sled", "G", 1)
    moves = legal_moves(match, "p1")
    assert not [move for move in moves if move["type"] == "refresh_and_draw"]
    assert {move["pay_from"] for move in moves if move["type"] == "draw_tile"} == {"ship", "sled"}
    for payer in ("ship", "sled"):
        with pytest.raises(IllegalMove) as error:
            play(match, "p1", {"type": "refresh_and_draw", "pay_from": payer})
        assert error.value.rule_id == "NWP-ROUND-4" and error.value.code == "not_enough_crew"


def test_the_surcharge_starts_again_each_turn():
    """NWP-ROUND-6: after End Turn play passes on, and the next turn's first action costs its base again."""
    match = started(2)
    play(match, "p1", {"type": "draw_tile", "source": "S03", "pay_from": "ship"})
    play(match, "p1", {"type": "end_turn"})
    assert waiting_for(match) == ["p2"]
    play(match, "p2", {"type": "pass"})
    assert waiting_for(match) == ["p1"]
    events = play(match, "p1", {"type": "draw_tile", "source": "S03", "pay_from": "ship"})
    assert event_of(events, "tile_drawn")["cost"] == 1
    assert waiting_for(match) == ["p1"], "p2 passed, so p1 takes turn after turn"


def test_end_turn_needs_an_action_and_pass_does_not():
    """NWP-ROUND-2 / NWP-ACT-11 / NWP-CMD-11 / NWP-ACT-10 / NWP-CMD-12."""
    match = started(2)
    assert {"type": "end_turn"} not in legal_moves(match, "p1")
    assert {"type": "pass"} in legal_moves(match, "p1")
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "end_turn"})
    assert error.value.rule_id == "NWP-ROUND-2"
    play(match, "p1", {"type": "draw_tile", "source": "S03", "pay_from": "ship"})
    assert {"type": "end_turn"} in legal_moves(match, "p1")
    events = play(match, "p1", {"type": "pass"})
    assert types_of(events) == ["player_passed"]
    assert match.state["players"]["p1"]["ship"]["available"] == 6
    assert match.state["passed"] == ["p1"] and waiting_for(match) == ["p2"]


def test_a_vessel_that_is_not_on_the_board_cannot_pay():
    """NWP-ROUND-5 / NWP-COMP-22: the off-board sled pays nothing."""
    match = started(2)
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "draw_tile", "source": "S03", "pay_from": "sled"})
    assert error.value.rule_id == "NWP-ROUND-5"
