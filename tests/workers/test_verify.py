"""``cairn verify FILE``: an export checked offline, the first bad version named."""
from __future__ import annotations

import json
from pathlib import Path

from domain.core.events import full_data
from service import cli
from tests.workers.records import play, record, sealed
from workers.exports import export_game, game_folder
from workers.formats import ExportInput, make_header
from workers.formats.record import write_json
from workers.verify import main


def exported(store, redis_client, export_dir, fmt="json", reader=None) -> Path:
    saved = export_game(store, redis_client, "g1", fmt, store.version("g1"), reader, export_dir)
    return game_folder(export_dir, "g1") / saved["file"]


def write_record(envelopes: list[dict], path: Path) -> Path:
    """A json export of envelopes made without the store (for forgeries that keep the chain intact)."""
    last = envelopes[-1]
    header = make_header("g1", envelopes[0]["data"], title="High Card", version=last["version"], status="ended",
                         seed="north", head_hash=last["hash"], score_sheet=None, reader_class="all")
    with path.open("w") as out:
        write_json(out, ExportInput(header, lambda: envelopes, None, True))
    return path


def test_an_intact_export_verifies(store, redis_client, export_dir, capsys):
    record(store, "g1", play(choice=2))
    assert main([str(exported(store, redis_client, export_dir))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK:") and "2 chance outcomes re-derived" in out


def test_editing_one_event_of_an_export_names_its_version(store, redis_client, export_dir, capsys):
    record(store, "g1", play(choice=2))
    path = exported(store, redis_client, export_dir)
    document = json.loads(path.read_text())
    document["events"][4]["data"]["card"] = "card-10"
    path.write_text(json.dumps(document))
    assert main([str(path)]) == 1
    assert "FAILED at version 5: chain" in capsys.readouterr().out


def test_editing_one_line_of_an_ndjson_export_names_its_version(store, redis_client, export_dir, capsys):
    record(store, "g1", play(choice=2))
    path = exported(store, redis_client, export_dir, "ndjson")
    lines = path.read_text().splitlines()
    edited = json.loads(lines[2])
    edited["seat"] = "p2" if edited["seat"] != "p2" else "p1"
    lines[2] = json.dumps(edited)
    path.write_text("\n".join(lines) + "\n")
    assert main([str(path)]) == 1
    assert "FAILED at version 3" in capsys.readouterr().out


def test_a_draw_forged_with_an_intact_chain_is_caught_by_the_revealed_seed(tmp_path, capsys):
    batches = play(choice=2)
    opening, command = batches[0]
    draw = next(index for index, event in enumerate(opening) if event["type"] == "chance_resolved")
    drawn = full_data(opening[draw])["outcome"][0]
    forged = {**opening[draw], "secret": {"outcome": ["card-10" if drawn != "card-10" else "card-1"]}}
    batches[0] = ([*opening[:draw], forged, *opening[draw + 1:]], command)
    path = write_record(sealed(batches), tmp_path / "forged.json")
    assert main([str(path)]) == 1
    assert f"FAILED at version {draw + 1}: chance" in capsys.readouterr().out


def test_a_public_export_of_a_game_in_play_verifies_what_it_can_and_says_so(store, redis_client, export_dir, capsys):
    record(store, "g1", play(choice=2)[:4])
    assert main([str(exported(store, redis_client, export_dir))]) == 0
    out = capsys.readouterr().out
    assert "the seed is not revealed" in out


def test_a_file_that_is_not_an_export_is_refused(tmp_path, capsys):
    path = tmp_path / "other.json"
    path.write_text('{"format": "something-else"}')
    assert main([str(path)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_cairn_command_verifies_offline(store, redis_client, export_dir, capsys, monkeypatch):
    record(store, "g1", play(choice=2))
    path = exported(store, redis_client, export_dir)
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert cli.main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.startswith("OK:")
