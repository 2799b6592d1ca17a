"""The land/sea lattice (spec 7.2): what makes matching, routes and islands computable.

Land and sea are recorded on points at half-cell spacing (NWP-GEO-2): cell
(x, y) owns points (2x..2x+2, 2y..2y+2). Neighbouring cells share the points
of their common edge and diagonal neighbours share one corner, so "agree
with all 8 neighbours" becomes "agree on every shared point" (NWP-GEO-4).
Freezing never touches these values (NWP-GEO-9): the sun only changes
which tiles count as frozen.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

LAND = "L"
SEA = "S"
UNDETERMINED = "."

Point = tuple[int, int]
Cell = tuple[int, int]

ROTATIONS = (0, 90, 180, 270)
ORIENTATIONS = tuple((rotation, flip) for flip in (False, True) for rotation in ROTATIONS)


def orient(pattern: tuple[str, ...], rotation: int, flip: bool) -> tuple[str, ...]:
    """NWP-GEO-3 / NWP-COMP-13: mirror west-east first (``flip``), then turn clockwise by ``rotation`` degrees."""
    rows = [row[::-1] for row in pattern] if flip else list(pattern)
    for _ in range(rotation // 90):
        height = len(rows)
        rows = ["".join(rows[height - 1 - c][r] for c in range(height)) for r in range(len(rows[0]))]
    return tuple(rows)


def footprint(rows: tuple[str, ...], x: int, y: int) -> tuple[Cell, ...]:
    """NWP-GEO-1 / NWP-COMP-12: a small tile covers 1 cell, a large one 2; anchored at the north-west cell."""
    return tuple((x + dx, y + dy) for dy in range(len(rows) // 2) for dx in range(len(rows[0]) // 2))


def placed_points(rows: tuple[str, ...], x: int, y: int) -> list[tuple[int, int, str]]:
    """Every lattice point an oriented pattern anchored at (x, y) covers, with its value."""
    return [(2 * x + i, 2 * y + j, value) for j, row in enumerate(rows) for i, value in enumerate(row)]


def token_cell(rows_canonical: tuple[str, ...], cell_index: int, rotation: int, flip: bool, x: int, y: int) -> Cell:
    """NWP-GEO-10: where the token printed on canonical cell 0 (west) or 1 (east) ends up after orienting."""
    height, width = len(rows_canonical), len(rows_canonical[0])
    r, c = 1, 1 + 2 * cell_index
    if flip:
        c = width - 1 - c
    for _ in range(rotation // 90):
        r, c = c, height - 1 - r
        height, width = width, height
    return (x + c // 2, y + r // 2)


def agrees(lattice: list[str], rows: tuple[str, ...], x: int, y: int) -> bool:
    """NWP-ACT-3(c) / NWP-GEO-4: a pattern anchored at (x, y) agrees with every point of ``lattice`` already
    determined, diagonal neighbours included."""
    for j, row in enumerate(rows):
        line = lattice[2 * y + j]
        for i, value in enumerate(row):
            here = line[2 * x + i]
            if here != UNDETERMINED and here != value:
                return False
    return True


def edge_points(a: Cell, b: Cell) -> tuple[Point, ...]:
    """NWP-GEO-5: the 3 points of the edge two orthogonally adjacent cells share."""
    (ax, ay), (bx, by) = sorted((a, b))
    if ay == by:
        return tuple((2 * bx, 2 * ay + k) for k in range(3))
    return tuple((2 * ax + k, 2 * by) for k in range(3))


def east_edge(cell: Cell) -> tuple[Point, ...]:
    x, y = cell
    return tuple((2 * x + 2, 2 * y + k) for k in range(3))


def west_edge(cell: Cell) -> tuple[Point, ...]:
    x, y = cell
    return tuple((2 * x, 2 * y + k) for k in range(3))


def cells_owning(point: Point) -> tuple[Cell, ...]:
    """Cells owning a centre or edge-midpoint point (corner points own no tile for island size, NWP-GEO-11)."""
    i, j = point
    if i % 2 and j % 2:
        return ((i // 2, j // 2),)
    if i % 2:
        return ((i // 2, j // 2 - 1), (i // 2, j // 2))
    if j % 2:
        return ((i // 2 - 1, j // 2), (i // 2, j // 2))
    return ()


class Lattice:
    """The points of a W x H board: ``rows[j][i]`` is L, S or undetermined."""

    def __init__(self, width: int, height: int, rows: Iterable[str] | None = None):
        self.width = width
        self.height = height
        if rows is None:
            rows = [UNDETERMINED * (2 * width + 1)] * (2 * height + 1)
        self.rows = [list(row) for row in rows]

    def to_rows(self) -> list[str]:
        return ["".join(row) for row in self.rows]

    def on_board(self, point: Point) -> bool:
        i, j = point
        return 0 <= i <= 2 * self.width and 0 <= j <= 2 * self.height

    def value(self, point: Point) -> str:
        i, j = point
        return self.rows[j][i]

    def matches(self, points: Iterable[tuple[int, int, str]]) -> bool:
        """NWP-GEO-4: every already determined point the new tile covers has the same value."""
        rows = self.rows
        for i, j, value in points:
            here = rows[j][i]
            if here != UNDETERMINED and here != value:
                return False
        return True

    def mark(self, points: Iterable[tuple[int, int, str]]) -> list[Point]:
        """Record a placed tile's values; returns the points that were undetermined before."""
        fresh = []
        for i, j, value in points:
            if self.rows[j][i] == UNDETERMINED:
                fresh.append((i, j))
            self.rows[j][i] = value
        return fresh

    def neighbours(self, point: Point) -> list[Point]:
        """4-neighbours on the board: land is 4-connected (NWP-GEO-11)."""
        i, j = point
        near = ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
        return [p for p in near if self.on_board(p)]

    def land_component(self, start: Point) -> set[Point]:
        """NWP-GEO-11: the 4-connected land region containing ``start``."""
        seen = {start}
        todo = [start]
        while todo:
            for near in self.neighbours(todo.pop()):
                if near not in seen and self.value(near) == LAND:
                    seen.add(near)
                    todo.append(near)
        return seen

    def is_complete(self, component: set[Point]) -> bool:
        """NWP-GEO-11: no point of the region touches an undetermined point on the board; edges close it."""
        return all(self.value(near) != UNDETERMINED for point in component for near in self.neighbours(point))

    def completed_islands(
        self, new_points: Iterable[Point], tile_at: Callable[[Cell], str | None]
    ) -> list[tuple[set[Point], set[str]]]:
        """Land regions completed by the points just determined, each with the tiles that count for its size.

        A region is newly completed when it is complete now and it, or one of
        its 4-neighbours, was determined by this placement: the spec's own
        example (7.3) closes a region with sea points alone, so the region
        need not contain a new point itself. Regions of one tile are
        returned too; whether they score is the caller's rule (size >= 2).
        """
        new = set(new_points)
        starts = set()
        for point in new:
            for candidate in (point, *self.neighbours(point)):
                if self.value(candidate) == LAND:
                    starts.add(candidate)
        found: list[tuple[set[Point], set[str]]] = []
        covered: set[Point] = set()
        for start in sorted(starts):
            if start in covered:
                continue
            component = self.land_component(start)
            covered |= component
            if self.is_complete(component):
                found.append((component, self.island_tiles(component, tile_at)))
        return found

    def island_tiles(self, component: set[Point], tile_at: Callable[[Cell], str | None]) -> set[str]:
        """NWP-GEO-11 size: tiles owning a centre or edge-midpoint point of the region (a corner alone does not)."""
        tiles = set()
        for point in component:
            for cell in cells_owning(point):
                tile = tile_at(cell)
                if tile is not None:
                    tiles.add(tile)
        return tiles
