"""The stacked-tile geometry (spec section 6): slot lists, adjacency across layers, covers, collapse,
Storm Whistle placement, and invariants on random boards."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.ice_expedition import RULES
from domain.ice_expedition.geometry import even_shares, free_shares

GEO = RULES.geo
FULL = set(GEO.slots)


def s(z, a, b):
    return (z, a, b)


def test_layer_sizes_match_the_counted_tiles():
    """ICE-SETUP-1: 12 buildings, 19 deep, 27 middle, 37 surface and 48 snow slots."""
    assert {z: len(slots) for z, slots in GEO.layers.items()} == {0: 12, 1: 19, 2: 27, 3: 37, 4: 48}


def test_validation_statistics_of_section_6_3():
    """ICE-GEO-6 neighbour counts and ICE-GEO-5 below-slot counts per layer, as the spec lists them."""
    neighbours = {z: Counter(len(GEO.same_layer_neighbours(FULL, slot)) for slot in slots)
                  for z, slots in GEO.layers.items()}
    assert neighbours == {0: {6: 3, 4: 3, 3: 6}, 1: {6: 7, 4: 6, 3: 6}, 2: {6: 12, 4: 9, 3: 6},
                          3: {6: 19, 4: 12, 3: 6}, 4: {6: 27, 4: 15, 3: 6}}
    below = {z: Counter(len(GEO.below[slot]) for slot in slots) for z, slots in GEO.layers.items() if z > 0}
    assert below == {1: {3: 7, 2: 3, 1: 9}, 2: {3: 12, 2: 6, 1: 9}, 3: {3: 19, 2: 6, 1: 12}, 4: {3: 27, 2: 9, 1: 12}}
    assert all(len(GEO.above[slot]) == 3 for z in range(4) for slot in GEO.layers[z])


def test_cover_example_of_section_7_3():
    """ICE-GEO-2 / ICE-GEO-3 / ICE-GEO-5: snow (0,1) lies over surface (1,1), (0,0), (-1,2); surface (0,0) is
    covered by snow (-1,0), (0,1), (1,-1) and lies over middle (-1,0), (0,1), (1,-1)."""
    assert set(GEO.below[s(4, 0, 1)]) == {s(3, 1, 1), s(3, 0, 0), s(3, -1, 2)}
    assert set(GEO.above[s(3, 0, 0)]) == {s(4, -1, 0), s(4, 0, 1), s(4, 1, -1)}
    assert set(GEO.tiles_below(FULL, s(3, 0, 0))) == {s(2, -1, 0), s(2, 0, 1), s(2, 1, -1)}
    board = FULL - {s(4, -1, 0), s(4, 1, -1)}
    assert GEO.cover_count(board, s(3, 0, 0)) == 1
    assert not GEO.fully_covered(board, s(3, 0, 0))
    assert GEO.fully_covered(FULL, s(3, 0, 0))
    assert GEO.cover_count(FULL, s(4, 0, 1)) == 0  # ICE-GEO-2: the snow layer is never covered


def test_adjacency_across_layers():
    """ICE-GEO-3: same layer sharing an edge, or one layer apart and partly overlapping; never two apart."""
    centre = s(3, 0, 0)
    assert set(GEO.same_layer_neighbours(FULL, centre)) == {
        s(3, 2, -1), s(3, 1, 1), s(3, -1, 2), s(3, -2, 1), s(3, -1, -1), s(3, 1, -2)}
    assert GEO.adjacent(FULL, centre, s(4, 0, 1))
    assert GEO.adjacent(FULL, centre, s(2, -1, 0))
    assert not GEO.adjacent(FULL, centre, s(1, 0, 0))
    assert not GEO.adjacent(FULL - {s(4, 0, 1)}, centre, s(4, 0, 1))  # ICE-GEO-1: only present tiles
    assert len(GEO.adjacent_tiles(FULL, centre)) == 12


def test_three_tiles_under_one_tile_touch_each_other():
    """The three hexes meeting at a corner are mutual neighbours, which is why an excavation never leaves a
    tile above without support."""
    for slot in GEO.slots:
        below = GEO.below[slot]
        if len(below) == 3:
            assert all(b in GEO.neighbours[a] for a in below for b in below if a != b)


def test_edge_destinations_count_missing_below_slots():
    """ICE-GEO-5: a tile at the board edge has fewer tiles below; the rest are edge places (ICE-SNOW-8)."""
    corner = s(4, -7, 3)
    assert len(GEO.below[corner]) == 1
    assert GEO.edge_destinations(corner) == 2
    assert GEO.edge_destinations(s(4, 0, 1)) == 0


def test_collapse_example_of_section_7_3():
    """ICE-GEO-6 / ICE-EXC-6: removing (4,-5) and (2,-4) drops (3,-6) in wave 1; (1,-5) keeps 2 neighbours."""
    board = set(FULL)
    assert set(GEO.same_layer_neighbours(board, s(3, 3, -6))) == {s(3, 4, -5), s(3, 2, -4), s(3, 1, -5)}
    board -= {s(3, 4, -5), s(3, 2, -4)}
    waves = GEO.collapse_waves(board, lambda slot: False)
    assert waves[0] == [s(3, 3, -6)]
    assert s(3, 1, -5) not in {slot for wave in waves for slot in wave}
    variant = board - {s(3, 0, -3)}
    waves = GEO.collapse_waves(variant, lambda slot: False)
    assert waves[0] == [s(3, 3, -6)]
    assert s(3, 1, -5) in waves[1]


def test_buildings_never_collapse():
    """ICE-LOG-7: building tiles can never be discarded, not even by the collapse rule."""
    lonely = {s(0, -3, 1)}
    assert GEO.collapse_waves(lonely, lambda slot: slot[0] == 0) == []
    assert GEO.collapse_waves(lonely, lambda slot: False) == [[s(0, -3, 1)]]


def test_rift_blocks_both_directions():
    """ICE-GEO-7: a step across a blocked Rift edge is refused from either side; layer changes cross no edge."""
    start, end = s(4, 0, 1), s(4, 2, 0)
    assert GEO.neighbours[start].index(end) == 0
    assert GEO.rift_blocked(start, end, {start: [0, 3]})
    assert GEO.rift_blocked(end, start, {start: [0, 3]})
    assert GEO.rift_blocked(start, end, {end: [3, 0]})
    assert not GEO.rift_blocked(start, end, {start: [1, 4]})
    assert not GEO.rift_blocked(start, s(3, 0, 0), {start: [0, 1, 2, 3, 4, 5]})


def test_storm_whistle_slots():
    """ICE-SNOW-12 (AMB-21): an empty slot resting on all its below tiles, touching 2 same-layer tiles, over no
    camp or Smilodon; nothing goes above the snow layer (FAQ)."""
    hole = s(4, 0, 1)
    board = FULL - {hole}
    assert GEO.whistle_slots(board, lambda slot: False) == [hole]
    assert GEO.whistle_slots(board, lambda slot: slot == s(3, 0, 0)) == []
    without_support = board - {s(3, 0, 0)}
    assert hole not in GEO.whistle_slots(without_support, lambda slot: False)
    under_a_tile = FULL - {s(3, 0, 0)}
    assert s(3, 0, 0) not in GEO.whistle_slots(under_a_tile, lambda slot: False)
    assert set(GEO.newly_fully_covered(board, hole)) == {s(3, 1, 1), s(3, 0, 0), s(3, -1, 2)}
    assert all(slot[0] <= 4 for slot in GEO.slots)


def test_even_spreads_of_section_7_2():
    """ICE-EXC-4: P1 5 over 3 -> 2,2,1 in any order; P2 4 over 2 -> 2,2; P3 1 over 3 -> 1,0,0."""
    assert sorted(even_shares(5, 3)) == [(1, 2, 2), (2, 1, 2), (2, 2, 1)]
    assert even_shares(4, 2) == [(2, 2)]
    assert sorted(even_shares(1, 3)) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    assert even_shares(3, 0) == []
    assert len(free_shares(2, 3)) == 6  # ICE-SNOW-6: the Rope allows any distribution


# ----- properties on random boards ------------------------------------------------------------------


def excavatable(board: set, slot) -> bool:
    """ICE-EXC-1 on the bare geometry: not a building, uncovered or covered by exactly one tile."""
    return slot[0] > 0 and GEO.cover_count(board, slot) <= 1


def never_fall(slot) -> bool:
    return slot[0] == 0


@st.composite
def dig_sequences(draw):
    return draw(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60))


@settings(max_examples=60, deadline=None)
@given(dig_sequences(), st.lists(st.integers(min_value=0, max_value=5), min_size=len(FULL), max_size=len(FULL)))
def test_random_digs_keep_the_board_sound(picks, explorers):
    """On random excavation sequences: collapse reaches a fixed point, no tile floats without support,
    explorers are never lost (on the board or back in the reserve), explorers stand only on standable tiles."""
    board = set(FULL)
    on = {slot: n for slot, n in zip(GEO.slots, explorers, strict=True) if GEO.standable(board, slot)}
    total = sum(on.values())
    reserve = 0
    for pick in picks:
        choices = sorted(slot for slot in board if excavatable(board, slot))
        if not choices:
            break
        target = choices[pick % len(choices)]
        covers = [a for a in GEO.above[target] if a in board]
        for cover in covers:  # ICE-EXC-3 step 2: the single cover collapses
            board.discard(cover)
            reserve += on.pop(cover, 0)
        board.discard(target)
        moving = on.pop(target, 0)
        below = GEO.tiles_below(board, target)
        if below:
            shares = even_shares(moving, len(below))[pick % len(even_shares(moving, len(below)))]
            for slot, share in zip(below, shares, strict=True):
                on[slot] = on.get(slot, 0) + share
        else:
            reserve += moving
        waves = GEO.collapse_waves(board, never_fall)
        for wave in waves:
            for slot in wave:
                board.discard(slot)
                reserve += on.pop(slot, 0)
        assert GEO.collapse_waves(board, never_fall) == []
        assert not [slot for slot in board if GEO.unsupported(board, slot)]
        assert sum(on.values()) + reserve == total
        assert all(slot in board and GEO.standable(board, slot) for slot, n in on.items() if n)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(sorted(FULL)), max_size=80))
def test_collapse_reaches_a_fixed_point_on_any_board(removed):
    """ICE-EXC-6: whatever is missing, the cascade stops, and what is left neither collapses nor floats."""
    board = FULL - removed
    waves = GEO.collapse_waves(board, never_fall)
    fallen = {slot for wave in waves for slot in wave}
    assert not fallen & {slot for slot in board if slot[0] == 0}
    rest = board - fallen
    assert GEO.collapse_waves(rest, never_fall) == []
    assert all(len(GEO.same_layer_neighbours(rest, slot)) >= 2 for slot in rest if slot[0] > 0)
    assert not [slot for slot in rest if GEO.unsupported(rest, slot)]


@settings(max_examples=40, deadline=None)
@given(st.sets(st.sampled_from(sorted(FULL)), max_size=60))
def test_whistle_slots_hold_their_tile_up(removed):
    """ICE-SNOW-12: a snowflake placed where the Whistle allows is supported and does not collapse."""
    board = FULL - removed
    board -= {slot for wave in GEO.collapse_waves(board, never_fall) for slot in wave}
    for slot in GEO.whistle_slots(board, lambda below: False):
        placed = board | {slot}
        assert not GEO.unsupported(placed, slot)
        assert slot not in {s for wave in GEO.collapse_waves(placed, never_fall) for s in wave}
