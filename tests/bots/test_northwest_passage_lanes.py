"""What the Northwest Passage bot reads off the sea lanes: where a lane can still be laid on, and where not."""
from __future__ import annotations

from bots.games.northwest_passage import UNREACHABLE, Chart
from domain.northwest_passage.lattice import Lattice, footprint, placed_points
from domain.northwest_passage.state import GREENLAND, NORTHWEST

WIDTH, HEIGHT = 12, 9
LAND = ("LLL", "LLL", "LLL")
OPEN_SEA = ("SSS", "SSS", "SSS")
# Sea only at the centre and the middle of the west side: a bay whose one way out is west.
BAY = ("LLL", "SSL", "LLL")
# A strait running west to east, land north and south.
STRAIT = ("LLL", "SSS", "LLL")


def board(*tiles: tuple[str, tuple[str, ...], int, int], round_: int = 1) -> dict:
    """The parts of a state a chart reads, with each tile laid as ``apply`` lays it (cells and lattice)."""
    cells: list[list[str | None]] = [[None] * WIDTH for _ in range(HEIGHT)]
    lattice = Lattice(WIDTH, HEIGHT)
    laid = {}
    for tile, rows, x, y in tiles:
        covered = footprint(rows, x, y)
        for cx, cy in covered:
            cells[cy][cx] = tile
        lattice.mark(placed_points(rows, x, y))
        laid[tile] = {"anchor": [x, y], "cells": [list(cell) for cell in covered]}
    return {"tiles": laid, "cells": cells, "lattice": lattice.to_rows(), "sun": 0, "round": round_}


def test_a_bay_whose_mouth_opens_on_sea_leads_on():
    """The bay's way out is the empty cell west of it; with sea still possible beyond that cell, a tile laid
    there can carry the lane on, so the ship has a way to the Northwest."""
    chart = Chart(board(("bay", BAY, 5, 7), ("north", LAND, 4, 6), ("south", LAND, 4, 8)))
    assert chart.distances(NORTHWEST)["bay"] < UNREACHABLE


def test_a_lane_into_a_pocket_of_coast_is_no_way_on():
    """NWP-GEO-4: a tile laid into the cell west of the bay must match the land fixed on its north, west and
    south sides by the tiles there, so the bay's mouth is the only sea it could have and no ship could sail
    on from it (NWP-GEO-6). Before, that empty cell counted as an open end 5 cells from the Northwest."""
    chart = Chart(board(("bay", BAY, 5, 7), ("north", LAND, 4, 6), ("south", LAND, 4, 8), ("west", LAND, 3, 7)))
    assert chart.distances(NORTHWEST)["bay"] == UNREACHABLE
    assert chart.distances(GREENLAND)["bay"] == UNREACHABLE


def test_no_way_leads_to_a_port_whose_entries_are_walled():
    """The Northwest's three entry cells all covered by land: no lane laid on the open sea elsewhere can
    enter it (NWP-GEO-7), however near the entries lie, while Greenland's entries are still free."""
    entries = [(f"wall{y}", LAND, 0, y) for y in (6, 7, 8)]
    walled = Chart(board(("sea", OPEN_SEA, 2, 7), *entries))
    assert walled.distances(NORTHWEST)["sea"] == UNREACHABLE
    assert walled.distances(GREENLAND)["sea"] < UNREACHABLE
    free = Chart(board(("sea", OPEN_SEA, 2, 7), *entries[:2]))
    assert free.distances(NORTHWEST)["sea"] < UNREACHABLE


def test_a_tile_over_the_open_end_a_way_runs_through_lengthens_it():
    """The strait's shortest way to the Northwest leaves it west, into (2, 7). With that cell closed, as a tile
    laid there that leads nowhere nearer would close it, the ship's next way is round by the east end, longer:
    what the bot weighs before it lays a tile over its own way on."""
    chart = Chart(board(("strait", STRAIT, 3, 7)))
    way = chart.distances(NORTHWEST)["strait"]
    assert chart.distances(NORTHWEST, frozenset({(2, 7)}))["strait"] > way
    assert chart.distances(NORTHWEST, frozenset({(4, 7)}))["strait"] == way
