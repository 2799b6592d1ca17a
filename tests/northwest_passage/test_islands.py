"""Completing islands (NWP-ACT-3 step 3, NWP-SCORE-2, spec 7.3 and worked example V4)."""
from __future__ import annotations

import pytest

from domain.northwest_passage.decide import island_fame
from tests.northwest_passage.helpers import CATALOGUE, event_of, fabricate, give, play, put, started, vessel

TWO_ISLANDS = [
    "LLLSSSS",
    "LLLSSSS",
    "LLLLLSS",
    ".......",
    "LLLLLSS",
    "LLLLSSS",
    "LLLLSSS",
    "LLLLSSS",
    "SSSSSSS",
]
TWO_ISLAND_CELLS = {(0, 0): "a1", (1, 0): "a2", (2, 0): "a3", (0, 2): "b1", (1, 2): "b2", (2, 2): "t5",
                    (0, 3): "b3", (1, 3): "b4", (2, 3): "t6"}


def test_spec_example_7_3_completes_a_four_tile_island():
    """Spec 7.3 / NWP-ACT-3 / NWP-GEO-11: the L03 tile closes the land with sea: 4 tiles, 2 fame, 1 map token."""
    match = started(2)
    put(match, "S02#1", 0, 0)
    put(match, "S02#2", 1, 0)
    put(match, "S03#1", 2, 0, rotation=270)
    vessel(match, "p1", "sled", "S02#1", 3)
    give(match, "p1", "L03#1")
    events = play(match, "p1", {"type": "place_tile", "tile_id": "L03#1", "anchor_x": 0, "anchor_y": 1,
                                "rotation": 0, "flip": False, "pay_from": "sled"})
    [island] = event_of(events, "islands_scored")["islands"]
    assert island == {"size": 4, "fame": 2, "map_token": True, "tiles": ["L03#1", "S02#1", "S02#2", "S03#1"]}
    player = match.state["players"]["p1"]
    assert player["fame_by"]["NWP-SCORE-2"] == 2 and player["tokens"]["map"] == 1
    assert match.state["map_tokens_left"] == 19


@pytest.mark.parametrize(("size", "fame"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 3), (6, 4), (9, 4)])
def test_v4_island_fame_by_size(size, fame):
    """NWP-ACT-3 / NWP-SCORE-2 (V4): 2-3 tiles 1, 4 tiles 2, 5 tiles 3, 6 or more 4."""
    assert island_fame(CATALOGUE, size) == fame


def two_island_position():
    match = started(2)
    fabricate(match, TWO_ISLANDS, TWO_ISLAND_CELLS)
    vessel(match, "p1", "sled", "b1", 3)
    give(match, "p1", "L09#2")
    return match


PLACE_STRAIT = {"type": "place_tile", "tile_id": "L09#2", "anchor_x": 0, "anchor_y": 1, "rotation": 0,
                "flip": False, "pay_from": "sled"}


def test_v4_one_placement_completing_a_3_and_a_5_tile_island():
    """V4 / NWP-ACT-3: two islands at once give 2 map tokens and 1 + 3 = 4 fame."""
    match = two_island_position()
    islands = event_of(play(match, "p1", PLACE_STRAIT), "islands_scored")["islands"]
    assert [(i["size"], i["fame"], i["map_token"]) for i in islands] == [(3, 1, True), (5, 3, True)]
    player = match.state["players"]["p1"]
    assert player["fame_by"]["NWP-SCORE-2"] == 4 and player["tokens"]["map"] == 2


def test_when_map_tokens_run_out_the_island_still_scores():
    """NWP-COMP-17: no map token left, the fame is still paid."""
    match = two_island_position()
    match.state["map_tokens_left"] = 1
    islands = event_of(play(match, "p1", PLACE_STRAIT), "islands_scored")["islands"]
    assert [i["map_token"] for i in islands] == [True, False]
    player = match.state["players"]["p1"]
    assert player["fame_by"]["NWP-SCORE-2"] == 4 and player["tokens"]["map"] == 1
    assert match.state["map_tokens_left"] == 0


def test_land_on_a_single_tile_is_not_an_island():
    """NWP-ACT-3 / NWP-GEO-11 (V4): the islet of one small tile is complete but scores nothing."""
    match = started(2)
    give(match, "p1", "S08#9")
    events = play(match, "p1", {"type": "place_tile", "tile_id": "S08#9", "anchor_x": 11, "anchor_y": 4,
                                "rotation": 0, "flip": False, "pay_from": "ship"})
    assert event_of(events, "islands_scored")["islands"] == []
    assert match.state["players"]["p1"]["tokens"]["map"] == 0
