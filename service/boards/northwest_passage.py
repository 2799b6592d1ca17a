"""What the Northwest Passage map names: the board's size and zones, the ports' entry cells, the ice rows
of each sun position, and each tile type's printed land-and-sea pattern and token, from the game's data."""
from __future__ import annotations

from functools import cache

from domain.northwest_passage.catalogue import load_catalogue


@cache
def components() -> dict:
    catalogue = load_catalogue()
    return {
        "width": catalogue.width,
        "height": catalogue.height,
        "zones": [list(row) for row in catalogue.zones],
        "greenland": [list(cell) for cell in catalogue.greenland_entry],
        "northwest": [list(cell) for cell in catalogue.northwest_entry],
        # sun position -> the frozen cells, as "x,y" keys
        "frozen": {position["position"]: sorted(f"{x},{y}" for x, y in cells)
                   for position, cells in zip(catalogue.sun_track, catalogue.frozen_cells, strict=True)},
        "sun_track": [position["position"] for position in catalogue.sun_track],
        "the_end": next(position["position"] for position in catalogue.sun_track if position["the_end"]),
        "patterns": {kind: "/".join(rows) for kind, rows in catalogue.patterns.items()},
        "tokens": {tile.id: tile.token["type"] for tile in catalogue.large.values() if tile.token},
        "small_copies": catalogue.small_copies_when_limited,
    }
