"""The land/sea lattice on its own (spec 7.2): orientation, matching, regions, completion and size."""
from __future__ import annotations

from domain.northwest_passage.lattice import (
    Lattice,
    cells_owning,
    edge_points,
    footprint,
    orient,
    placed_points,
    token_cell,
)

LARGE_COAST = ("LLSSS", "LLSSS", "LLLSS")


def lay(lattice: Lattice, owners: dict, tile: str, pattern: tuple[str, ...], x: int, y: int,
        rotation: int = 0, flip: bool = False) -> list:
    rows = orient(pattern, rotation, flip)
    for cell in footprint(rows, x, y):
        owners[cell] = tile
    return lattice.mark(placed_points(rows, x, y))


def test_a_cell_owns_nine_points_shared_with_its_neighbours():
    """NWP-GEO-1, NWP-GEO-2: side neighbours share 3 edge points, diagonal neighbours exactly one corner."""
    assert edge_points((0, 0), (1, 0)) == ((2, 0), (2, 1), (2, 2))
    assert edge_points((3, 4), (3, 3)) == ((6, 8), (7, 8), (8, 8))
    first = {(i, j) for i, j, _ in placed_points(("SSS",) * 3, 0, 0)}
    diagonal = {(i, j) for i, j, _ in placed_points(("SSS",) * 3, 1, 1)}
    assert len(first) == 9 and first & diagonal == {(2, 2)}


def test_a_long_side_shares_five_points():
    """NWP-GEO-5: two large tiles side by side along their long sides share 2 edges, 5 distinct points."""
    shared = set(edge_points((0, 0), (0, 1))) | set(edge_points((1, 0), (1, 1)))
    assert len(shared) == 5


def test_flip_mirrors_before_the_clockwise_turn():
    """NWP-GEO-3 / NWP-COMP-13: flip west-east first, then rotate clockwise; large tiles turn vertical at 90."""
    assert orient(("LLL", "SSS", "SSS"), 270, False) == ("LSS", "LSS", "LSS")
    assert orient(("LLL", "SSS", "SSS"), 90, False) == ("SSL", "SSL", "SSL")
    assert orient(LARGE_COAST, 0, True) == ("SSSLL", "SSSLL", "SSLLL")
    turned = orient(LARGE_COAST, 90, False)
    assert turned == ("LLL", "LLL", "LSS", "SSS", "SSS")
    assert orient(LARGE_COAST, 90, True) == orient(orient(LARGE_COAST, 0, True), 90, False)


def test_footprints_of_small_horizontal_and_vertical_tiles():
    """NWP-COMP-12 / NWP-GEO-3: the anchor is the north-west cell of the footprint."""
    assert footprint(("SSS",) * 3, 4, 4) == ((4, 4),)
    assert footprint(LARGE_COAST, 4, 4) == ((4, 4), (5, 4))
    assert footprint(orient(LARGE_COAST, 270, False), 4, 4) == ((4, 4), (4, 5))


def test_the_token_cell_moves_with_the_orientation():
    """NWP-GEO-10: token_cell 0 is the canonical west cell wherever the tile is turned."""
    assert token_cell(LARGE_COAST, 0, 0, False, 3, 3) == (3, 3)
    assert token_cell(LARGE_COAST, 0, 180, False, 3, 3) == (4, 3)
    assert token_cell(LARGE_COAST, 0, 0, True, 3, 3) == (4, 3)
    assert token_cell(LARGE_COAST, 0, 90, False, 3, 3) == (3, 3)
    assert token_cell(LARGE_COAST, 1, 90, False, 3, 3) == (3, 4)
    assert token_cell(LARGE_COAST, 0, 270, False, 3, 3) == (3, 4)


def test_matching_checks_orthogonal_and_diagonal_neighbours():
    """NWP-GEO-4: every shared determined point must agree; a single diagonal corner is enough to refuse."""
    lattice = Lattice(12, 9)
    lattice.mark(placed_points(("LLL", "LLL", "LLL"), 0, 0))
    assert lattice.matches(placed_points(("LLL", "SSS", "SSS"), 1, 0)) is False
    assert lattice.matches(placed_points(("LSS", "LSS", "LSS"), 1, 0)) is True
    assert lattice.matches(placed_points(("SSS", "SSS", "SSS"), 1, 1)) is False
    assert lattice.matches(placed_points(("LSS", "SSS", "SSS"), 1, 1)) is True
    assert lattice.matches(placed_points(("SSS", "SSS", "SSS"), 2, 2)) is True


def test_spec_example_island_completion_on_the_lattice():
    """Spec 7.3 / NWP-GEO-11: the fourth tile closes the region with sea; 4 tiles count towards its size."""
    lattice = Lattice(12, 9)
    owners: dict = {}
    lay(lattice, owners, "a", ("LLL",) * 3, 0, 0)
    lay(lattice, owners, "b", ("LLL",) * 3, 1, 0)
    fresh = lay(lattice, owners, "c", ("LLL", "SSS", "SSS"), 2, 0, rotation=270)
    assert lattice.completed_islands(fresh, owners.get) == []
    assert lattice.to_rows()[2][:7] == "LLLLLSS"
    fresh = lay(lattice, owners, "d", ("LLLLL", "SSSSS", "SSSSS"), 0, 1)
    assert all(lattice.value(point) == "S" for point in fresh)
    [(region, tiles)] = lattice.completed_islands(fresh, owners.get)
    assert region == {(i, j) for i in range(5) for j in range(3)}
    assert tiles == {"a", "b", "c", "d"}


def test_land_touching_only_at_a_corner_is_two_regions():
    """NWP-GEO-11: land is 4-connected, so a diagonal pinch separates two islands and water passes."""
    lattice = Lattice(2, 2, ["LLSSS", "LLSSS", "SSLLS", "SSLLS", "SSSSS"])
    assert lattice.land_component((0, 0)) == {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert lattice.land_component((2, 2)) == {(2, 2), (3, 2), (2, 3), (3, 3)}


def test_completeness_and_the_board_edge():
    """NWP-GEO-11: a region is complete when no 4-neighbour on the board is undetermined; edges close it."""
    lattice = Lattice(1, 1, ["LLS", "LLS", "SSS"])
    assert lattice.is_complete(lattice.land_component((0, 0)))
    open_lattice = Lattice(2, 1, ["LLL..", "LLL..", "SSS.."])
    assert not open_lattice.is_complete(open_lattice.land_component((0, 0)))


def test_a_tile_touching_the_island_only_at_a_corner_does_not_count():
    """NWP-GEO-11 size: only tiles owning a centre or an edge midpoint of the region count."""
    assert cells_owning((1, 1)) == ((0, 0),)
    assert cells_owning((2, 1)) == ((0, 0), (1, 0))
    assert cells_owning((2, 2)) == ()
    lattice = Lattice(12, 9)
    owners: dict = {}
    lay(lattice, owners, "a", ("LLL", "LLL", "LLS"), 0, 0)
    lay(lattice, owners, "b", ("LSS", "SSS", "SSS"), 1, 1)
    region = lattice.land_component((0, 0))
    assert (2, 2) in region
    assert lattice.island_tiles(region, owners.get) == {"a"}
