"""Board geometry over a state: tiles, ports, ice, routes, placements and holes.

Everything here reads the state and the catalogue and changes nothing, so the
same checks serve ``decide`` (is this command legal?) and ``legal_moves``
(list every legal command).
"""
from __future__ import annotations

from collections.abc import Set
from functools import cache

from domain.northwest_passage.catalogue import Catalogue
from domain.northwest_passage.lattice import (
    LAND,
    ORIENTATIONS,
    SEA,
    Cell,
    Point,
    agrees,
    east_edge,
    edge_points,
    orient,
    west_edge,
)
from domain.northwest_passage.state import GREENLAND, NORTHWEST

PORTS = (GREENLAND, NORTHWEST)
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@cache
def orientations(pattern: tuple[str, ...]) -> tuple[tuple[int, bool, tuple[str, ...]], ...]:
    """All 8 (rotation, flip) pairs with their oriented pattern; equivalent ones stay, as the engine accepts each."""
    return tuple((rotation, flip, orient(pattern, rotation, flip)) for rotation, flip in ORIENTATIONS)


class Board:
    def __init__(self, state: dict, catalogue: Catalogue):
        self.state = state
        self.catalogue = catalogue
        self.cells = state["cells"]
        self.rows = state["lattice"]
        self.frozen_cells = catalogue.frozen_cells[state["sun"]]

    def on_board(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.catalogue.width and 0 <= y < self.catalogue.height

    def tile_at(self, cell: Cell) -> str | None:
        x, y = cell
        if not self.on_board(cell):
            return None
        return self.cells[y][x]

    def tile_cells(self, tile_id: str) -> list[Cell]:
        return [tuple(cell) for cell in self.state["tiles"][tile_id]["cells"]]

    def is_frozen(self, position: str) -> bool:
        """NWP-GEO-9 / NWP-COMP-8: sea above the sun is ice; a tile is frozen if any cell is (A3); ports never are."""
        if position in PORTS:
            return False
        return any(cell in self.frozen_cells for cell in self.tile_cells(position))

    def borders(self, position: str) -> dict[str, set[Point]]:
        """Every position adjacent to ``position``, with the lattice points of the shared border.

        NWP-GEO-5: tiles sharing a full cell edge. NWP-GEO-7: a port is
        adjacent to the tiles on its entry cells, across their outer edge.
        """
        out: dict[str, set[Point]] = {}
        if position in PORTS:
            entry = self.catalogue.greenland_entry if position == GREENLAND else self.catalogue.northwest_entry
            edge = east_edge if position == GREENLAND else west_edge
            for cell in entry:
                tile = self.tile_at(cell)
                if tile is not None:
                    out.setdefault(tile, set()).update(edge(cell))
            return out
        for cell in self.tile_cells(position):
            x, y = cell
            for dx, dy in STEPS:
                near = (x + dx, y + dy)
                tile = self.tile_at(near)
                if tile is not None and tile != position:
                    out.setdefault(tile, set()).update(edge_points(cell, near))
            if cell in self.catalogue.greenland_entry:
                out.setdefault(GREENLAND, set()).update(east_edge(cell))
            if cell in self.catalogue.northwest_entry:
                out.setdefault(NORTHWEST, set()).update(west_edge(cell))
        return out

    def values(self, points: set[Point]) -> set[str]:
        return {self.rows[j][i] for i, j in points}

    def ship_routes(self, position: str) -> list[str]:
        """NWP-GEO-6 / NWP-ACT-6: a shared sea point, and neither side frozen; a frozen ship stays put."""
        if self.is_frozen(position):
            return []
        return sorted(
            target
            for target, border in self.borders(position).items()
            if SEA in self.values(border) and not self.is_frozen(target)
        )

    def sled_routes(self, position: str) -> list[str]:
        """NWP-GEO-6 / NWP-ACT-7: a shared land point, or ice on both sides (frozen tiles count as land).

        A port has no ice of its own, so between a port and a frozen tile the
        tile's ice carries the sled (NWP-GEO-9; spec example V9: a sled can
        enter Greenland from frozen entry cells).
        """
        here_frozen = self.is_frozen(position)
        out = []
        for target, border in self.borders(position).items():
            there_frozen = self.is_frozen(target)
            at_port = position in PORTS or target in PORTS
            iced = (here_frozen or there_frozen) if at_port else (here_frozen and there_frozen)
            if iced or LAND in self.values(border):
                out.append(target)
        return sorted(out)

    def contact_cells(self, position: str) -> set[Cell]:
        """NWP-ACT-3(b): empty cells a new tile may cover to touch the vessel's tile or port along a side."""
        if position == GREENLAND:
            return {cell for cell in self.catalogue.greenland_entry if self.tile_at(cell) is None}
        if position == NORTHWEST:
            return {cell for cell in self.catalogue.northwest_entry if self.tile_at(cell) is None}
        out = set()
        for x, y in self.tile_cells(position):
            for dx, dy in STEPS:
                near = (x + dx, y + dy)
                if self.on_board(near) and self.tile_at(near) is None:
                    out.add(near)
        return out

    def free(self, cells: tuple[Cell, ...]) -> bool:
        """NWP-ACT-3(a) / NWP-COMP-1: on the grid, on the board, on empty cells."""
        return all(self.on_board(cell) and self.tile_at(cell) is None for cell in cells)

    def matches(self, rows: tuple[str, ...], x: int, y: int) -> bool:
        """NWP-ACT-3(c) / NWP-GEO-4: land and sea agree with every neighbour, diagonals included."""
        return agrees(self.rows, rows, x, y)

    def fits(self, rows: tuple[str, ...], x: int, y: int, contact: Set[Cell]) -> bool:
        """A full placement check: free cells, a side against the paying vessel's tile, matching.

        The cells are read off the grid row by row rather than through :meth:`free`: search lists every
        placement of every position it visits, so this is the engine's hottest loop."""
        width, height = len(rows[0]) // 2, len(rows) // 2
        if x < 0 or y < 0 or x + width > self.catalogue.width or y + height > self.catalogue.height:
            return False
        touches = False
        for cy in range(y, y + height):
            line = self.cells[cy]
            for cx in range(x, x + width):
                if line[cx] is not None:
                    return False
                touches = touches or (cx, cy) in contact
        return touches and self.matches(rows, x, y)

    def anchors(self, rows: tuple[str, ...], contact: Set[Cell]) -> set[tuple[int, int]]:
        """Every anchor at which an oriented pattern covers at least one contact cell."""
        width, height = len(rows[0]) // 2, len(rows) // 2
        return {(cx - dx, cy - dy) for cx, cy in contact for dx in range(width) for dy in range(height)}

    def is_hole(self, cell: Cell) -> bool:
        """NWP-ACT-4: an empty cell whose four sides are placed tiles or the board edge (ports count as edge)."""
        if not self.on_board(cell) or self.tile_at(cell) is not None:
            return False
        x, y = cell
        return all(not self.on_board(near) or self.tile_at(near) is not None
                   for near in ((x + dx, y + dy) for dx, dy in STEPS))

    def holes_next_to(self, cells: list[Cell]) -> list[Cell]:
        """Holes a placement on ``cells`` created, in ascending (y, x) order (NWP-ACT-4)."""
        found = set()
        for x, y in cells:
            for dx, dy in STEPS:
                near = (x + dx, y + dy)
                if self.is_hole(near):
                    found.add(near)
        return sorted(found, key=lambda cell: (cell[1], cell[0]))

    def small_fits(self, kind: str, hole: Cell) -> list[tuple[int, bool, tuple[str, ...]]]:
        """NWP-ACT-4: orientations of a small tile type whose border matches the points fixed around the hole."""
        x, y = hole
        return [entry for entry in orientations(self.catalogue.small[kind]) if self.matches(entry[2], x, y)]
