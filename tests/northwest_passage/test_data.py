"""The ASSUMED component data: loaded from data files, checked, and refused loudly when malformed (spec 7.10)."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from domain.core import DataError
from domain.core.match import create
from domain.northwest_passage import RULES
from domain.northwest_passage.catalogue import DATA_DIR, load_catalogue

CATALOGUE = RULES.catalogue


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    return folder


def edit(folder: Path, name: str, change) -> None:
    path = folder / f"{name}.json"
    value = json.loads(path.read_text())
    change(value)
    path.write_text(json.dumps(value))


def test_board_grid_zones_and_ports_come_from_the_data_file():
    """NWP-COMP-1, NWP-COMP-2, NWP-COMP-3, NWP-COMP-4: a 12 x 9 grid, zones x3/x2/x1, ports east and west."""
    assert (CATALOGUE.width, CATALOGUE.height) == (12, 9)
    assert {CATALOGUE.zone((x, 0)) for x in range(12)} == {1, 2, 3}
    assert CATALOGUE.zone((0, 8)) == 3 and CATALOGUE.zone((5, 4)) == 2 and CATALOGUE.zone((11, 0)) == 1
    assert CATALOGUE.greenland_entry == ((11, 3), (11, 4), (11, 5))
    assert CATALOGUE.northwest_entry == ((0, 6), (0, 7), (0, 8))


def test_tile_catalogue_matches_the_printed_counts():
    """NWP-COMP-11, NWP-COMP-12, NWP-COMP-14, NWP-COMP-15, NWP-COMP-16: 64 large tiles, tokens 10/12/9/9 on 40."""
    assert len(CATALOGUE.large) == 64
    assert len(CATALOGUE.small) == 8
    tokens = Counter(tile.token["type"] for tile in CATALOGUE.large.values() if tile.token)
    assert tokens == {"wreck": 10, "strait": 12, "inuit": 9, "cairn": 9}
    assert sum(tokens.values()) == 40
    assert all(len(tile.pattern) == 3 and len(tile.pattern[0]) == 5 for tile in CATALOGUE.large.values())
    assert all(len(pattern) == 3 and len(pattern[0]) == 3 for pattern in CATALOGUE.small.values())


def test_sun_track_and_tables():
    """NWP-COMP-5, NWP-COMP-7, NWP-COMP-9, NWP-COMP-17, NWP-COMP-18: 7 positions, THE END on T2, 20 maps."""
    assert len(CATALOGUE.sun_track) == 7
    assert [p["position"] for p in CATALOGUE.sun_track if p["the_end"]] == ["T2"]
    assert [p["ice_rows"] for p in CATALOGUE.sun_track] == [0, 2, 4, 6, 4, 2, 0]
    assert CATALOGUE.tables["map_token_supply"] == 20
    assert CATALOGUE.tables["arrival"]["4"] == {"northwest": [8, 6, 4, 2], "greenland": [6, 4, 2]}


def test_every_data_file_version_is_recorded_in_the_first_event():
    """NWP-SETUP-1: the data versions and all options, defaults filled in, are in game_created."""
    _, events = create(RULES, {}, ["A", "B"], "server", "seed")
    created = events[0]["data"]
    assert set(created["data_versions"]) == {"board", "sun", "tiles", "tables"}
    assert created["options"] == {
        "hole_fill_source": "hand_first", "sled_on_thawed_sea": "stuck", "greenland_requires_northwest": True,
        "greenland_arrival_trigger": "first_vessel", "northwest_arrival_trigger": "either_vessel",
        "never_left_greenland": "not_abandoned", "small_tiles_unlimited": True,
    }


def test_a_tile_pattern_of_the_wrong_shape_names_file_and_field(data_copy):
    edit(data_copy, "tiles", lambda value: value["large"][2].update(pattern="LLLL/SSSSS/SSSSS"))
    with pytest.raises(DataError) as error:
        load_catalogue(data_copy)
    assert error.value.path.endswith("tiles.json")
    assert error.value.field == "large/2/pattern"


def test_a_zone_map_that_does_not_fit_the_board_names_the_row(data_copy):
    """NWP-COMP-2: one multiplier per cell."""
    edit(data_copy, "board", lambda value: value["zones"][4].pop())
    with pytest.raises(DataError) as error:
        load_catalogue(data_copy)
    assert error.value.path.endswith("board.json") and error.value.field == "zones/4"


def test_a_greenland_entry_cell_off_the_east_edge_is_refused(data_copy):
    """NWP-COMP-3: Greenland lies beyond the east edge."""
    edit(data_copy, "board", lambda value: value.update(greenland_entry_cells=[[11, 3], [10, 4]]))
    with pytest.raises(DataError) as error:
        load_catalogue(data_copy)
    assert error.value.field == "greenland_entry_cells/1"


def test_the_round_count_must_end_on_the_second_visit_to_the_end(data_copy):
    """NWP-COMP-9 / NWP-COMP-10: with THE END on T2, round 10 is the second visit."""
    edit(data_copy, "tables", lambda value: value.update(rounds=9))
    with pytest.raises(DataError) as error:
        load_catalogue(data_copy)
    assert error.value.path.endswith("tables.json") and error.value.field == "rounds"


def test_an_arrival_table_longer_than_the_printed_tokens_is_refused(data_copy):
    """NWP-COMP-18: 3 Greenland tokens, so at most 3 paid places."""
    edit(data_copy, "tables", lambda value: value["arrival"]["4"].update(greenland=[6, 4, 2, 1]))
    with pytest.raises(DataError) as error:
        load_catalogue(data_copy)
    assert error.value.field == "arrival/4/greenland"


def test_a_missing_field_is_named(data_copy):
    edit(data_copy, "sun", lambda value: value["sun_track"][3].pop("ice_rows"))
    with pytest.raises(DataError) as error:
        load_catalogue(data_copy)
    assert error.value.path.endswith("sun.json") and error.value.field == "sun_track/3"


def test_broken_json_is_named_with_its_line(data_copy):
    (data_copy / "tables.json").write_text("{ not json")
    with pytest.raises(DataError) as error:
        load_catalogue(data_copy)
    assert error.value.path.endswith("tables.json") and error.value.field.startswith("line")


def test_explicit_frozen_cells_replace_the_ice_line(data_copy):
    """NWP-GEO-9 / spec 7.6: a printed frozen area can be entered cell by cell."""
    edit(data_copy, "sun", lambda value: value["sun_track"][1].update(frozen_cells=[[0, 0], [5, 5]]))
    catalogue = load_catalogue(data_copy)
    assert catalogue.frozen_cells[1] == {(0, 0), (5, 5)}
    assert len(catalogue.frozen_cells[3]) == 6 * 12
