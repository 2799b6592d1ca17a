"""The board inside a game state: tiles in slots, the pieces on them, and what happens when tiles leave.

State tiles are keyed by ``"z:a:b"``. A tile is ``{"kind": "snow"|"artifact"|"building",
"id", "terrain", "rift", "face", "front", "camp", "arch", "smilodon"}``. Faces of
artifacts and buildings and fronts of snow tiles are ``None`` until someone
learns them: they are drawn by a chance node at that moment (ICE-RND-3).
``known_by`` lists the seats that know a snow tile's front (``["*"]``: everyone,
once it has been played), which decides whose secret a front is.
"""
from __future__ import annotations

from domain.ice_expedition.geometry import Geometry, Slot, parse_slot, slot_key


class Board:
    """Read and change the board part of a state (a plain dict) through the geometry."""

    def __init__(self, state: dict, geometry: Geometry):
        self.state = state
        self.geo = geometry
        self.tiles: dict[str, dict] = state["tiles"]
        self._present: set[Slot] | None = None

    @property
    def present(self) -> set[Slot]:
        """ICE-GEO-1: the slots holding a tile, worked out on first use: a Board is made for every event
        folded, and most events never ask where the tiles are."""
        if self._present is None:
            self._present = set(map(parse_slot, self.tiles))
        return self._present

    def leaders_on(self, key: str) -> list[str]:
        return [seat for seat, at in self.state["leaders"].items() if at == key]

    def explorers_on(self, key: str) -> int:
        return self.tiles[key]["arch"] + len(self.leaders_on(key))

    def standable(self, key: str) -> bool:
        """ICE-GEO-4: present and not fully covered."""
        return key in self.tiles and not self.geo.fully_covered(self.present, parse_slot(key))

    def enterable(self, key: str) -> bool:
        """ICE-SNOW-4 / ICE-LOG-5: standable and no Smilodon (inviolable tiles take nobody)."""
        return self.standable(key) and self.tiles[key]["smilodon"] is None

    def enterable_keys(self) -> list[str]:
        """Every tile :meth:`enterable` says yes to, by key: found from the slots not fully covered rather than
        by asking every tile on the board."""
        tiles = self.tiles
        return sorted(key for key in map(slot_key, self.geo.not_fully_covered(self.present))
                      if tiles[key]["smilodon"] is None)

    def takes_a_camp(self, key: str) -> bool:
        """Where a camp may stand, whether set up (ICE-ACT-3) or carried down after a dig (ICE-EXC-3 step 6):
        one rule for both, so a dig never puts a camp where Set up camp could not (no camp there already,
        FAQ; no Smilodon; never a building)."""
        tile = self.tiles[key]
        return not tile["camp"] and tile["smilodon"] is None and tile["kind"] != "building"

    def cover_count(self, key: str) -> int:
        return self.geo.cover_count(self.present, parse_slot(key))

    def step_blocked(self, start: str, end: str) -> bool:
        """ICE-GEO-7 / ICE-ACT-1: a same-layer step across a Rift edge; only the two tiles' own Rifts count."""
        rifts = {parse_slot(key): self.tiles[key]["rift"] for key in (start, end)
                 if key in self.tiles and self.tiles[key].get("rift")}
        return self.geo.rift_blocked(parse_slot(start), parse_slot(end), rifts)

    def adjacent(self, key: str) -> list[str]:
        """ICE-GEO-3: keys of the present tiles adjacent to ``key``."""
        return [slot_key(s) for s in self.geo.adjacent_tiles(self.present, parse_slot(key))]

    def walkable_from(self, key: str) -> list[str]:
        """Adjacent tiles an explorer may step onto: standable, no Smilodon, no Rift edge crossed.

        :meth:`enterable` and :meth:`step_blocked` inlined, and the Rift check made only where one of the two
        tiles has a Rift: every listing of a turn's moves asks this of every explorer's tile."""
        tiles, present, geo = self.tiles, self.present, self.geo
        rift_here = key in tiles and tiles[key].get("rift")
        walkable = []
        for slot in geo.adjacent_tiles(present, parse_slot(key)):
            end = slot_key(slot)
            tile = tiles[end]
            if tile["smilodon"] is not None or geo.fully_covered(present, slot):
                continue
            if (rift_here or tile.get("rift")) and self.step_blocked(key, end):
                continue
            walkable.append(end)
        return walkable

    def return_pieces(self, key: str) -> None:
        """Explorers, camp and Smilodon of a tile leaving the board go back to the reserve; leaders to
        their owners, off the board (ICE-EXC-6)."""
        tile = self.tiles[key]
        reserve = self.state["reserve"]
        reserve["archaeologists"] += tile["arch"]
        tile["arch"] = 0
        if tile["camp"]:
            reserve["camps"] += 1
            tile["camp"] = False
        if tile["smilodon"] is not None:
            reserve["smilodons"] += 1
            tile["smilodon"] = None
        for seat in self.leaders_on(key):
            self.state["leaders"][seat] = None

    def discard_to_bag(self, key: str) -> None:
        """Discard a tile unrevealed into the bag, its pieces going home (glossary: discarding a tile)."""
        self.return_pieces(key)
        tile = self.tiles.pop(key)
        self.present.discard(parse_slot(key))
        self.state["bag"].append(
            {"id": tile["id"], "kind": tile["kind"], "layer": parse_slot(key)[0], "terrain": tile.get("terrain"),
             "face": tile["face"], "front": tile.get("front"), "known_by": []}
        )

    def place(self, key: str, tile: dict) -> None:
        self.tiles[key] = tile
        self.present.add(parse_slot(key))

    def collapse(self) -> list[list[str]]:
        """ICE-EXC-6: discard every tile the collapse rule takes, wave after wave; buildings never fall."""
        # Buildings lie only where setup put them, in the building layer.
        buildings = {slot for slot in self.geo.building_slots & self.present
                     if self.tiles[slot_key(slot)]["kind"] == "building"}
        waves = self.geo.collapse_waves(self.present, buildings.__contains__)
        for wave in waves:
            for slot in wave:
                self.discard_to_bag(slot_key(slot))
        return [[slot_key(s) for s in wave] for wave in waves]

    def queue_reveals(self) -> None:
        """ICE-RND-3 / GAP-26: a face becomes known when its tile stops being fully covered (artifacts)
        or is uncovered (buildings); the face is drawn by a chance node at that moment. A building
        uncovered triggers the end (ICE-END-1); its variation is ignored (ICE-END-6, GAP-17)."""
        present = self.present
        queued = {entry.get("slot") for entry in self.state["chance"]}
        reveals = []
        # An uncovered tile is not fully covered either. Only snow tiles come onto the board after setup
        # (Board.place), so the snow layer holds no face to reveal.
        for slot in self.geo.not_fully_covered(present) - self.geo.snow_slots:
            key = slot_key(slot)
            tile = self.tiles[key]
            kind = tile["kind"]
            uncovered = kind == "building" and self.geo.cover_count(present, slot) == 0
            if uncovered:
                self.state["end_triggered"] = True
            if tile["face"] is not None or key in queued:
                continue
            if kind == "artifact":
                reveals.append((key, "reveal_artifact"))
            elif uncovered:
                reveals.append((key, "reveal_building"))
        self.state["chance"].extend({"kind": kind, "slot": key} for key, kind in sorted(reveals))
