"""Whole games, replay, the public view and the data files."""
from __future__ import annotations

import json
import random
import shutil

import pytest

from domain.core import ORGANISER, SERVER, DataError
from domain.core.match import apply_event, create, replay, submit, view, waiting_for
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.catalogue import DATA, load
from tests.through_ice_and_snow.helpers import NAMES, play_sensibly, sensible_move, table_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_reaches_the_final_scoring(players):
    """A plausible game from setup through every round and the final voyage (TIS-END-1) to a score sheet."""
    ended = []
    for seed in range(4):
        match = table_game(players)
        play_sensibly(match, seed)
        assert match.ended
        ended.append(match.state["over"]["outcome"])
        sheet = RULES.final_score(match.state)
        if sheet["outcome"] == "ranked":
            assert set(sheet["totals"]) == set(match.seats)
            assert match.state["anchor"] == "FIN"
    assert "ranked" in ended


def test_server_mode_replays_to_the_same_state():
    match, events = create(RULES, {}, NAMES, SERVER, "seed-1")
    rng = random.Random(5)
    while not match.ended:
        seat = waiting_for(match)[0]
        batch = submit(match, seat, sensible_move(match, seat, rng), "seed-1")
        for event in batch:
            apply_event(match, event)
        events += batch
    rebuilt = replay(json.loads(json.dumps(events)), lambda name: RULES)
    assert rebuilt.state == match.state


def test_views_hide_other_players_cards():
    """Spec 12.2: the cartography card stays secret until the end; the organiser sees everything."""
    match = table_game(3)
    public = view(match, None)["state"]
    assert [seat["carto"] for seat in public["players"]] == [None, None, None]
    assert public["players"][0]["carto_dealt"] == 2
    assert "decks" not in public and public["deck_sizes"]["species"] == 32
    assert view(match, "p2")["state"]["players"][1]["carto"] == match.state["players"][1]["carto"]
    assert view(match, ORGANISER)["state"]["players"][0]["carto"] == match.state["players"][0]["carto"]


def test_data_files_are_validated_with_the_file_and_field_named(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    assert load(folder).versions == load().versions
    tracks = json.loads((folder / "tracks.json").read_text())
    tracks["fuel"]["max"] = "ten"
    (folder / "tracks.json").write_text(json.dumps(tracks))
    with pytest.raises(DataError) as error:
        load(folder)
    assert error.value.path.endswith("tracks.json") and error.value.field == "fuel/max"


def test_data_files_must_agree_with_each_other(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    board = json.loads((folder / "map.json").read_text())
    board["routes"][0]["to"] = "Atlantis"
    (folder / "map.json").write_text(json.dumps(board))
    with pytest.raises(DataError) as error:
        load(folder)
    assert error.value.field == "routes/0/to"


def test_the_data_versions_are_recorded_at_creation():
    _, events = create(RULES, {}, NAMES[:2], SERVER, "x")
    assert set(events[0]["data"]["data_versions"]) == {"map", "tracks", "species", "hunting", "cartography",
                                                       "action_board", "events", "investors", "upgrades",
                                                       "components", "scenarios", "creatures", "legendary", "walking"}


def test_every_anchor_but_the_last_has_a_way_on_for_every_side(tmp_path):
    """TIS-VOY-2: routes are one-way and the fleet cannot stay, so a dead end is refused as a data error."""
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    board = json.loads((folder / "map.json").read_text())
    board["routes"] = [route for route in board["routes"] if route["from"] != "B1"]
    (folder / "map.json").write_text(json.dumps(board))
    with pytest.raises(DataError) as error:
        load(folder)
    assert error.value.field == "anchors/B1"
