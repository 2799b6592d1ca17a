"""The stacked-tile board: which slots touch, cover, hold up and collapse (spec section 6, ICE-GEO).

Slots are ``(z, a, b)``: a layer and a point of one fine triangular lattice.
Every tile of layer z+1 is centred on a corner of the hex grid of layer z, so
it overlaps the three hexes meeting there. The slot lists and offsets are
ASSUMED data (GAP-5) read from ``data/board.json``; this module only turns
them into predicates. Everything here takes the set of present slots, so the
same functions serve the game and the property tests on random boards.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from itertools import combinations_with_replacement, permutations

Slot = tuple[int, int, int]


@cache
def slot_key(slot: Slot) -> str:
    """Slots as JSON object keys: ``"z:a:b"``."""
    return f"{slot[0]}:{slot[1]}:{slot[2]}"


@cache
def parse_slot(key: str) -> Slot:
    z, a, b = (int(part) for part in key.split(":"))
    return z, a, b


class Geometry:
    """The board's fixed shape: slot lists per layer, and what lies above, below and beside each slot."""

    def __init__(self, board: dict):
        self.layers: dict[int, list[Slot]] = {
            layer["z"]: [(layer["z"], a, b) for a, b in layer["slots"]] for layer in board["layers"]
        }
        self.layer_kind = {layer["z"]: layer["kind"] for layer in board["layers"]}
        self.slots: list[Slot] = [slot for z in sorted(self.layers) for slot in self.layers[z]]
        self._on_board = set(self.slots)
        self._u = [tuple(o) for o in board["offsets_u"]]
        self._v = [tuple(o) for o in board["offsets_v"]]
        self.neighbour_offsets = [tuple(o) for o in board["neighbour_offsets"]]
        self.below: dict[Slot, list[Slot]] = {s: self._partners(s, s[0] - 1) for s in self.slots}
        self.above: dict[Slot, list[Slot]] = {s: self._partners(s, s[0] + 1) for s in self.slots}
        self.neighbours: dict[Slot, list[Slot | None]] = {
            s: [self._at(s[0], s[1] + da, s[2] + db) for da, db in self.neighbour_offsets] for s in self.slots
        }
        # The same relations as sets, for the predicates every fold asks of a hundred slots at a time.
        self._above_set = {s: frozenset(above) for s, above in self.above.items()}
        self._lateral = {s: frozenset(n for n in around if n is not None) for s, around in self.neighbours.items()}
        self._resting_on = {s: frozenset(self.below[s]) for s in self.slots if s[0] > 0 and len(self.below[s]) == 3}
        self._leaning_on: dict[Slot, set[Slot]] = {s: set() for s in self.slots}  # whose fall may follow s's
        for slot in self.slots:
            for other in self._lateral[slot] | self._resting_on.get(slot, frozenset()):
                self._leaning_on[other].add(slot)
        self._falls_on_full_board = frozenset(s for s in self.slots if self._falls(self._on_board, s))
        self._lying_under: dict[Slot, list[Slot]] = {s: [] for s in self.slots}
        for slot in self.slots:
            for over in self.above[slot]:
                self._lying_under[over].append(slot)
        self._never_covered = frozenset(s for s in self.slots if not self.above[s])
        self.snow_slots = frozenset(s for s in self.slots if self.layer_kind[s[0]] == "snow")
        self.building_slots = frozenset(s for s in self.slots if self.layer_kind[s[0]] == "building")

    def _offsets(self, slot: Slot) -> list[tuple[int, int]]:
        """ICE-GEO: even layers use the U offsets, odd layers V, both for above and below."""
        return self._u if slot[0] % 2 == 0 else self._v

    def _at(self, z: int, a: int, b: int) -> Slot | None:
        slot = (z, a, b)
        return slot if slot in self._on_board else None

    def _partners(self, slot: Slot, z: int) -> list[Slot]:
        if z not in self.layers:
            return []
        found = (self._at(z, slot[1] + da, slot[2] + db) for da, db in self._offsets(slot))
        return [s for s in found if s is not None]

    def edge_destinations(self, slot: Slot) -> int:
        """ICE-GEO-5: below-slots of ``slot`` that fall outside the board (the board edge, ICE-SNOW-8)."""
        return 0 if slot[0] == 0 else 3 - len(self.below[slot])

    def same_layer_neighbours(self, present: set[Slot], slot: Slot) -> list[Slot]:
        return [n for n in self.neighbours[slot] if n is not None and n in present]

    def cover_count(self, present: set[Slot], slot: Slot) -> int:
        """ICE-GEO-2: how many tiles lie (partly) over ``slot``."""
        return len(self._above_set[slot] & present)

    def fully_covered(self, present: set[Slot], slot: Slot) -> bool:
        """ICE-GEO-2: every above-slot on the board holds a tile (the snow layer never is)."""
        above = self._above_set[slot]
        return bool(above) and above <= present

    def not_fully_covered(self, present: set[Slot]) -> set[Slot]:
        """ICE-GEO-2: the present slots :meth:`fully_covered` says no to, found from the slots missing above
        them rather than by asking every slot."""
        found = set().union(*map(self._lying_under.__getitem__, self._on_board - present), self._never_covered)
        found &= present
        return found

    def standable(self, present: set[Slot], slot: Slot) -> bool:
        """ICE-GEO-4 / ICE-EXC-5: explorers, camps and Smilodons stand only on tiles not fully covered."""
        return slot in present and not self.fully_covered(present, slot)

    def adjacent(self, present: set[Slot], first: Slot, second: Slot) -> bool:
        """ICE-GEO-3: same layer sharing an edge, or one layer apart and partly overlapping."""
        if first not in present or second not in present:
            return False
        if first[0] == second[0]:
            return second in self.neighbours[first]
        return second in self.above[first] or second in self.below[first]

    def adjacent_tiles(self, present: set[Slot], slot: Slot) -> list[Slot]:
        """ICE-GEO-3: the present tiles adjacent to ``slot``."""
        around = [n for n in self.neighbours[slot] if n is not None] + self.above[slot] + self.below[slot]
        return [s for s in around if s in present]

    def tiles_below(self, present: set[Slot], slot: Slot) -> list[Slot]:
        """ICE-GEO-5: the present tiles among the below-slots, where the explorers of a dug tile go."""
        return [s for s in self.below[slot] if s in present]

    def rift_blocked(self, start: Slot, end: Slot, rift_edges: dict[Slot, Iterable[int]]) -> bool:
        """ICE-GEO-7: a same-layer step across a blocked Rift edge, from either side; layer changes cross none."""
        if start[0] != end[0] or end not in self.neighbours[start]:
            return False
        edge = self.neighbours[start].index(end)
        return edge in set(rift_edges.get(start, ())) or (edge + 3) % 6 in set(rift_edges.get(end, ()))

    def unsupported(self, present: set[Slot], slot: Slot) -> bool:
        """A tile whose below-slots all lie on the board and are all empty has nothing holding it up."""
        below = self._resting_on.get(slot)
        return below is not None and below.isdisjoint(present)

    def _falls(self, remaining: set[Slot], slot: Slot) -> bool:
        """ICE-GEO-6: at most one same-layer neighbour left, or nothing left below."""
        if len(self._lateral[slot] & remaining) <= 1:
            return True
        below = self._resting_on.get(slot)  # unsupported(), inline: asked of every tile near a gap
        return below is not None and below.isdisjoint(remaining)

    def _leaning_on_any(self, slots: Iterable[Slot]) -> set[Slot]:
        return set().union(*map(self._leaning_on.__getitem__, slots))

    def collapse_waves(self, present: set[Slot], never_fall: Callable[[Slot], bool]) -> list[list[Slot]]:
        """ICE-GEO-6 / ICE-EXC-6: remove, wave by wave, every tile with at most one same-layer neighbour.

        All tiles of one wave fall together; the cascade repeats until nothing more
        qualifies (a fixed point). A tile left with no support at all falls too, so no
        tile ever floats. ``never_fall`` exempts buildings (ICE-LOG-7).

        A tile's fate hangs only on its same-layer neighbours and the slots below it: a tile none of them is
        missing from stands or falls as on a full board, and after each wave only the tiles leaning on a
        fallen one are looked at again.
        """
        remaining = set(present)
        candidates = self._leaning_on_any(self._on_board - remaining) | self._falls_on_full_board
        candidates &= remaining
        waves: list[list[Slot]] = []
        lateral, resting_on = self._lateral, self._resting_on
        while True:
            falling = []
            for slot in candidates:  # _falls(), inline
                if never_fall(slot):
                    continue
                below = resting_on.get(slot)
                if len(lateral[slot] & remaining) <= 1 or below is not None and below.isdisjoint(remaining):
                    falling.append(slot)
            if not falling:
                return waves
            falling.sort()
            waves.append(falling)
            remaining.difference_update(falling)
            candidates = self._leaning_on_any(falling) & remaining

    def whistle_slots(self, present: set[Slot], blocked_below: Callable[[Slot], bool]) -> list[Slot]:
        """ICE-SNOW-12 (AMB-21): empty slots resting on every below-slot the board has there, touching at
        least 2 same-layer tiles, over no camp and no Smilodon, with nothing lying over it. The board has no
        slot above the snow layer."""
        found = []
        for slot in self.slots:
            if slot in present or any(s in present for s in self.above[slot]):
                continue  # a tile is laid from above: never under a tile still lying over the slot
            below = self.below[slot]
            if not all(s in present for s in below):
                continue
            if len(self.same_layer_neighbours(present, slot)) < 2:
                continue
            if any(blocked_below(s) for s in below):
                continue
            found.append(slot)
        return found

    def newly_fully_covered(self, present: set[Slot], placed: Slot) -> list[Slot]:
        """Tiles that a tile just placed at ``placed`` turned fully covered."""
        return [s for s in self.below[placed] if self.fully_covered(present | {placed}, s)]


def even_shares(count: int, places: int) -> list[tuple[int, ...]]:
    """ICE-EXC-4: every way to spread ``count`` explorers over ``places`` as evenly as possible."""
    if places == 0:
        return []
    low, extra = divmod(count, places)
    return sorted(set(permutations([low + 1] * extra + [low] * (places - extra))), reverse=True)


def free_shares(count: int, places: int) -> list[tuple[int, ...]]:
    """ICE-SNOW-6: every distribution of ``count`` explorers over ``places`` (evenness ignored)."""
    if places == 0:
        return []
    found = set()
    for cuts in combinations_with_replacement(range(count + 1), places - 1):
        bounds = (0, *cuts, count)
        found.add(tuple(bounds[i + 1] - bounds[i] for i in range(places)))
    return sorted(found, reverse=True)
