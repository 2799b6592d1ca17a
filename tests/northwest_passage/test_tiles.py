"""Drawing, refreshing and placing tiles (NWP-ACT-1 to NWP-ACT-3)."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves, waiting_for
from domain.northwest_passage import RULES
from tests.northwest_passage.helpers import OPENING_DISPLAY, event_of, give, play, put, resolve, started, vessel


def placements(match, seat="p1"):
    return [move for move in legal_moves(match, seat) if move["type"] == "place_tile"]


def test_drawing_a_display_tile_refills_the_display_from_the_stock():
    """NWP-ACT-1 / NWP-CMD-2: the tile goes to the reserve, a chance node refills its place."""
    match = started(2)
    play(match, "p1", {"type": "draw_tile", "source": "L03#1", "pay_from": "ship"})
    assert "L03#1" in match.state["players"]["p1"]["hand"]
    node = RULES.chance_node(match.state)
    assert node.key == "refill" and len(node.candidates) == 60 and node.visible_to is None
    resolve(match, ["L12#3"])
    assert match.state["display"] == ["L01#1", "L02#1", "L09#1", "L12#3"]


def test_small_tiles_are_unlimited_unless_the_printed_supply_is_chosen():
    """NWP-COMP-14 / NWP-SETUP-7: Board Game Arena's unlimited small tiles, or 4 printed copies of each."""
    match = started(2)
    match.state["small_taken"]["S07"] = 100
    events = play(match, "p1", {"type": "draw_tile", "source": "S07", "pay_from": "ship"})
    assert event_of(events, "tile_drawn")["tile"] == "S07#101"
    limited = started(2, {"small_tiles_unlimited": False})
    limited.state["small_taken"]["S07"] = 4
    assert not [m for m in legal_moves(limited, "p1") if m["type"] == "draw_tile" and m["source"] == "S07"]
    with pytest.raises(IllegalMove) as error:
        play(limited, "p1", {"type": "draw_tile", "source": "S07", "pay_from": "ship"})
    assert error.value.rule_id == "NWP-ACT-1"


def test_refresh_replaces_the_display_before_the_old_tiles_return():
    """NWP-ACT-2 / NWP-CMD-3: 4 new tiles drawn while the old ones are out, then a free draw from the new ones."""
    match = started(2)
    play(match, "p1", {"type": "refresh_and_draw", "pay_from": "ship"})
    node = RULES.chance_node(match.state)
    assert node.key == "refresh" and node.count == 4
    assert not set(OPENING_DISPLAY) & set(node.candidates)
    resolve(match, ["L04#1", "L05#1", "L06#1", "L07#1"])
    assert match.state["display"] == ["L04#1", "L05#1", "L06#1", "L07#1"]
    assert set(OPENING_DISPLAY) <= set(match.state["stock"])
    assert legal_moves(match, "p1")[0] == {"type": "draw_tile", "source": "L04#1"}
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "pass"})
    assert error.value.rule_id == "NWP-ACT-2"
    with pytest.raises(IllegalMove):
        play(match, "p1", {"type": "draw_tile", "source": "L01#1"})
    events = play(match, "p1", {"type": "draw_tile", "source": "L06#1"})
    assert event_of(events, "tile_drawn")["cost"] == 0
    assert match.state["players"]["p1"]["ship"]["available"] == 5
    assert RULES.chance_node(match.state).key == "refill"


def test_refresh_with_a_short_stock_reveals_what_is_left():
    """NWP-ACT-2: fewer than 4 in the stock: reveal them all, then the old tiles go back."""
    match = started(2)
    match.state["stock"] = ["L16#1", "L16#2"]
    play(match, "p1", {"type": "refresh_and_draw", "pay_from": "ship"})
    assert RULES.chance_node(match.state).count == 2
    resolve(match, ["L16#2", "L16#1"])
    assert match.state["stock"] == sorted(OPENING_DISPLAY)


def test_v12_first_placements_from_greenland_cover_an_entry_cell():
    """NWP-ACT-3(b) / NWP-CMD-4 / NWP-GEO-7 (V12): from Greenland a tile must cover (11,3), (11,4) or (11,5)."""
    match = started(2)
    give(match, "p1", "L13#1")
    moves = placements(match)
    assert moves
    for move in moves:
        cells = {(move["anchor_x"], move["anchor_y"])}
        if move["tile_id"] == "L13#1":
            wide = move["rotation"] in (0, 180)
            cells.add((move["anchor_x"] + 1, move["anchor_y"]) if wide else (move["anchor_x"], move["anchor_y"] + 1))
        assert cells & {(11, 3), (11, 4), (11, 5)}
    horizontal = {"type": "place_tile", "tile_id": "L13#1", "anchor_x": 10, "anchor_y": 4, "rotation": 0,
                  "flip": False, "pay_from": "ship"}
    assert horizontal in moves
    play(match, "p1", horizontal)
    assert match.state["cells"][4][10] == match.state["cells"][4][11] == "L13#1"


def test_every_orientation_is_offered_even_when_two_look_the_same():
    """NWP-COMP-13 / NWP-GEO-3: rotation and flip are free; equivalent orientations are all accepted."""
    match = started(2)
    small = [m for m in placements(match) if m["tile_id"] == "S01#2"]
    assert len(small) == 3 * 8


def test_a_placement_away_from_the_vessel_is_refused():
    """NWP-ACT-3(b) / NWP-GEO-5: a side must touch the paying vessel's tile; a corner is not enough."""
    match = started(2)
    put(match, "S02#1", 5, 5)
    vessel(match, "p1", "ship", "S02#1", 7)
    give(match, "p1", "S02#2")
    base = {"type": "place_tile", "tile_id": "S02#2", "rotation": 0, "flip": False, "pay_from": "ship"}
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {**base, "anchor_x": 6, "anchor_y": 6})
    assert error.value.rule_id == "NWP-GEO-5"
    play(match, "p1", {**base, "anchor_x": 6, "anchor_y": 5})


def test_the_sled_gives_adjacency_for_what_it_pays():
    """NWP-ACT-3: the vessel next to the new tile pays; the ship cannot pay for a tile beside the sled."""
    match = started(2)
    put(match, "S02#1", 5, 5)
    vessel(match, "p1", "sled", "S02#1", 2)
    give(match, "p1", "S02#2")
    base = {"type": "place_tile", "tile_id": "S02#2", "anchor_x": 5, "anchor_y": 4, "rotation": 0, "flip": False}
    assert {m["pay_from"] for m in placements(match) if (m["anchor_x"], m["anchor_y"]) == (5, 4)} == {"sled"}
    with pytest.raises(IllegalMove):
        play(match, "p1", {**base, "pay_from": "ship"})
    play(match, "p1", {**base, "pay_from": "sled"})
    assert match.state["players"]["p1"]["sled"]["available"] == 1


def test_cells_must_be_empty_and_on_the_board():
    """NWP-ACT-3(a) / NWP-COMP-1: the grid, on the board, no overlap."""
    match = started(2)
    put(match, "S01#1", 11, 4)
    give(match, "p1", "L01#3")
    base = {"type": "place_tile", "tile_id": "L01#3", "rotation": 0, "flip": False, "pay_from": "ship"}
    for x, y in ((10, 4), (11, 3)):
        with pytest.raises(IllegalMove) as error:
            play(match, "p1", {**base, "anchor_x": x, "anchor_y": y})
        assert error.value.rule_id == "NWP-COMP-1"


def test_land_and_sea_must_match_on_all_eight_sides():
    """NWP-ACT-3(c) / NWP-GEO-4: land next to sea is refused, diagonal corners included."""
    match = started(2)
    put(match, "S02#1", 11, 4)
    give(match, "p1", "S01#3")
    base = {"type": "place_tile", "tile_id": "S01#3", "rotation": 0, "flip": False, "pay_from": "ship"}
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {**base, "anchor_x": 11, "anchor_y": 3})
    assert error.value.rule_id == "NWP-GEO-4"
    assert not [m for m in placements(match) if m["tile_id"] == "S01#3"]


def test_a_token_on_a_large_tile_lands_on_its_cell():
    """NWP-COMP-15 / NWP-GEO-10: the wreck printed on L01's west cell lies where that cell is placed."""
    match = started(2)
    give(match, "p1", "L01#3")
    play(match, "p1", {"type": "place_tile", "tile_id": "L01#3", "anchor_x": 10, "anchor_y": 3, "rotation": 180,
                       "flip": False, "pay_from": "ship"})
    assert match.state["tokens"]["L01#3:wreck"] == {"kind": "wreck", "tile": "L01#3", "cell": [11, 3], "owner": None}
    assert waiting_for(match) == ["p1"]
