"""The component data the source does not print, loaded once and checked before any game starts.

Every number the spec marks ASSUMED (board size, zones, ports, sun track,
tile patterns and tokens, arrival and majority tables, penalties) lives in
``data/*.json`` beside its JSON Schema, so the printed values can replace
the stand-ins without a code change (spec 7.10). A file that passes its
schema is also checked for what a schema cannot say (a zone map the size of
the board, ports on the right edge), so a bad edit stops the service with the
file and the field named.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from domain.core.data import load_data
from domain.core.errors import DataError

DATA_DIR = Path(__file__).parent / "data"
FILES = ("board", "sun", "tiles", "tables")
COLLECTABLE = ("inuit", "cairn", "wreck", "strait", "map")


@dataclass(frozen=True)
class LargeTile:
    """One physical large tile (``L03#2``): its printed type, pattern and the token it carries."""

    id: str
    type: str
    pattern: tuple[str, ...]
    token: dict | None


@dataclass(frozen=True)
class Catalogue:
    width: int
    height: int
    zones: tuple[tuple[int, ...], ...]
    greenland_entry: tuple[tuple[int, int], ...]
    northwest_entry: tuple[tuple[int, int], ...]
    sun_track: tuple[dict, ...]
    frozen_cells: tuple[frozenset, ...]
    large: dict[str, LargeTile]
    small: dict[str, tuple[str, ...]]
    small_copies_when_limited: int
    tables: dict
    versions: dict[str, str]

    def zone(self, cell: tuple[int, int]) -> int:
        """NWP-COMP-2: the multiplier of the zone a cell lies in."""
        x, y = cell
        return self.zones[y][x]

    @cached_property
    def patterns(self) -> dict[str, tuple[str, ...]]:
        """Pattern per tile type, large and small."""
        out = {tile.type: tile.pattern for tile in self.large.values()}
        out.update(self.small)
        return out


def _rows(pattern: str) -> tuple[str, ...]:
    return tuple(pattern.split("/"))


def _cells_on_board(path: str, field: str, cells: list, width: int, height: int) -> tuple[tuple[int, int], ...]:
    for index, (x, y) in enumerate(cells):
        if not (0 <= x < width and 0 <= y < height):
            raise DataError(path, f"{field}/{index}", f"cell ({x}, {y}) is off the {width} x {height} board")
    return tuple((x, y) for x, y in cells)


def load_catalogue(folder: Path = DATA_DIR) -> Catalogue:
    """All four data files, schema-checked and cross-checked; raises :class:`DataError` naming file and field."""
    values = {}
    versions = {}
    for name in FILES:
        values[name], versions[name] = load_data(folder, name)
    board, sun, tiles, tables = (values[name] for name in FILES)
    board_path = str(folder / "board.json")
    width, height = board["width"], board["height"]
    if len(board["zones"]) != height:
        raise DataError(board_path, "zones", f"needs {height} rows, one per y, not {len(board['zones'])}")
    for y, row in enumerate(board["zones"]):
        if len(row) != width:
            raise DataError(board_path, f"zones/{y}", f"needs {width} multipliers, one per x, not {len(row)}")
    greenland = _cells_on_board(board_path, "greenland_entry_cells", board["greenland_entry_cells"], width, height)
    northwest = _cells_on_board(board_path, "northwest_entry_cells", board["northwest_entry_cells"], width, height)
    for index, (x, _) in enumerate(greenland):
        if x != width - 1:
            raise DataError(board_path, f"greenland_entry_cells/{index}",
                            "Greenland entry cells lie on the east edge (NWP-COMP-3)")
    for index, (x, _) in enumerate(northwest):
        if x != 0:
            raise DataError(board_path, f"northwest_entry_cells/{index}",
                            "the Northwest lies at the lower left, beyond the west edge (NWP-COMP-4)")
    sun_path = str(folder / "sun.json")
    frozen = []
    for index, position in enumerate(sun["sun_track"]):
        if "frozen_cells" in position:
            field = f"sun_track/{index}/frozen_cells"
            cells = _cells_on_board(sun_path, field, position["frozen_cells"], width, height)
        else:
            cells = tuple((x, y) for y in range(min(position["ice_rows"], height)) for x in range(width))
        frozen.append(frozenset(cells))
    ends = [index for index, position in enumerate(sun["sun_track"]) if position["the_end"]]
    if len(ends) != 1:
        raise DataError(sun_path, "sun_track", "exactly one position is THE END")
    tables_path = str(folder / "tables.json")
    last_round = ends[0] + 1 + len(sun["sun_track"])
    if tables["rounds"] != last_round:
        raise DataError(tables_path, "rounds", f"the last round is the 2nd on THE END (NWP-COMP-9), round {last_round}")
    tiles_path = str(folder / "tiles.json")
    large: dict[str, LargeTile] = {}
    types = set()
    for index, entry in enumerate(tiles["large"]):
        if entry["id"] in types:
            raise DataError(tiles_path, f"large/{index}/id", f"tile type {entry['id']} is listed twice")
        types.add(entry["id"])
        for copy, item in enumerate(entry["copies"], start=1):
            tile_id = f"{entry['id']}#{copy}"
            large[tile_id] = LargeTile(tile_id, entry["id"], _rows(entry["pattern"]), item["token"])
    small: dict[str, tuple[str, ...]] = {}
    for index, entry in enumerate(tiles["small"]["types"]):
        if entry["id"] in types or entry["id"] in small:
            raise DataError(tiles_path, f"small/types/{index}/id", f"tile type {entry['id']} is listed twice")
        small[entry["id"]] = _rows(entry["pattern"])
    for players, arrival in tables["arrival"].items():
        for where, tokens in (("northwest", 4), ("greenland", 3)):
            if len(arrival[where]) > tokens:
                raise DataError(tables_path, f"arrival/{players}/{where}",
                                f"only {tokens} printed {where} tokens, so at most {tokens} places pay (NWP-COMP-18)")
    sizes = [row["min_size"] for row in tables["island_fame"]]
    if sizes != sorted(set(sizes)):
        raise DataError(tables_path, "island_fame", "min_size must rise from row to row")
    return Catalogue(
        width=width,
        height=height,
        zones=tuple(tuple(row) for row in board["zones"]),
        greenland_entry=greenland,
        northwest_entry=northwest,
        sun_track=tuple(sun["sun_track"]),
        frozen_cells=tuple(frozen),
        large=large,
        small=small,
        small_copies_when_limited=tiles["small"]["copies_when_limited"],
        tables=tables,
        versions=versions,
    )
