"""Automatic hole filling (NWP-ACT-4) and the player's choice when tiles differ (NWP-CMD-5)."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves, waiting_for
from tests.northwest_passage.helpers import event_of, play, put, started, types_of, vessel

CLOSE_CORNER = {"type": "place_tile", "tile_id": "S01#7", "anchor_x": 11, "anchor_y": 1, "rotation": 0,
                "flip": False, "pay_from": "ship"}


def corner_position(options=None, hand=("S01#7",)):
    """Sea at (10,0) and the ship at (11,2): placing sea at (11,1) closes the corner cell (11,0)."""
    match = started(2, options)
    put(match, "S01#5", 11, 2)
    put(match, "S01#6", 10, 0)
    vessel(match, "p1", "ship", "S01#5", 7)
    match.state["players"]["p1"]["hand"] = list(hand)
    return match


def test_a_matching_small_tile_from_the_hand_fills_the_hole_for_free():
    """NWP-ACT-4: the hole is filled at once from the placing player's reserve, at no crew cost."""
    match = corner_position(hand=("S01#7", "S01#2", "S02#1"))
    events = play(match, "p1", CLOSE_CORNER)
    fill = event_of(events, "hole_filled")
    assert (fill["hole_x"], fill["hole_y"], fill["tile"], fill["from"]) == (11, 0, "S01#2", "hand")
    assert match.state["cells"][0][11] == "S01#2"
    assert match.state["players"]["p1"]["hand"] == ["S02#1"]
    assert match.state["players"]["p1"]["ship"]["available"] == 6


def test_with_no_small_tile_in_hand_the_supply_fills_it_and_the_player_chooses():
    """NWP-ACT-4 (A9) / NWP-CMD-5: sea, islet and corner land all fit: the player chooses from the supply."""
    match = corner_position()
    events = play(match, "p1", CLOSE_CORNER)
    assert types_of(events)[-1] == "hole_fill_pending"
    assert waiting_for(match) == ["p1"]
    moves = legal_moves(match, "p1")
    assert {move["source"] for move in moves} == {"S01", "S05", "S08"}
    assert all(move["type"] == "fill_hole" and (move["hole_x"], move["hole_y"]) == (11, 0) for move in moves)
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "end_turn"})
    assert error.value.rule_id == "NWP-CMD-5"
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "fill_hole", "hole_x": 11, "hole_y": 0, "source": "S02", "rotation": 0,
                           "flip": False})
    assert error.value.rule_id == "NWP-ACT-4"
    events = play(match, "p1", {"type": "fill_hole", "hole_x": 11, "hole_y": 0, "source": "S08", "rotation": 90,
                                "flip": False})
    assert event_of(events, "hole_filled")["tile"] == "S08#1"
    assert types_of(events) == ["hole_filled", "islands_scored"]
    assert match.state["pending"] is None and match.state["players"]["p1"]["ship"]["available"] == 6


def test_supply_only_ignores_the_hand_as_board_game_arena_does():
    """NWP-ACT-4 (A8): with hole_fill_source = supply_only the reserve's S01 stays in hand."""
    match = corner_position({"hole_fill_source": "supply_only"}, hand=("S01#7", "S01#2"))
    play(match, "p1", CLOSE_CORNER)
    assert {move["source"] for move in legal_moves(match, "p1")} == {"S01", "S05", "S08"}
    play(match, "p1", {"type": "fill_hole", "hole_x": 11, "hole_y": 0, "source": "S01", "rotation": 0,
                       "flip": True})
    assert match.state["players"]["p1"]["hand"] == ["S01#2"]


def test_a_hole_nothing_fits_stays_empty():
    """NWP-ACT-4: with no matching small tile anywhere the hole stays open."""
    match = corner_position({"small_tiles_unlimited": False})
    for kind in ("S01", "S05", "S08"):
        match.state["small_taken"][kind] = 4
    events = play(match, "p1", CLOSE_CORNER)
    assert "hole_filled" not in types_of(events) and match.state["cells"][0][11] is None


def test_holes_are_filled_in_row_then_column_order():
    """NWP-ACT-4: two holes closed by one tile are dealt with in ascending (y, x) order."""
    match = started(2)
    for tile, x, y in (("S01#5", 10, 0), ("S01#6", 10, 1), ("S01#8", 10, 2), ("S01#9", 11, 3)):
        put(match, tile, x, y)
    vessel(match, "p1", "ship", "S01#6", 7)
    match.state["players"]["p1"]["hand"] = ["S01#7", "S01#2", "S01#3"]
    events = play(match, "p1", {**CLOSE_CORNER, "tile_id": "S01#7"})
    fills = [(e["data"]["hole_x"], e["data"]["hole_y"], e["data"]["tile"])
             for e in events if e["type"] == "hole_filled"]
    assert fills == [(11, 0, "S01#2"), (11, 2, "S01#3")]
