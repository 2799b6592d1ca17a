"""``cairn verify FILE``: an export checked offline, the first bad version named."""
from __future__ import annotations

import copy
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from domain.core.events import full_data
from domain.registry import get_rules
from service import cli
from service.signing import keyring_from_environment, load_keyring
from tests.api.conftest import FAST, Api, serve
from tests.workers.records import play, record, sealed
from tests.workers.tamper import rechain, rechain_record
from workers.exports import export_game, game_folder
from workers.formats import ExportInput, make_header, signed_header
from workers.formats.record import write_json
from workers.verify import main, verify_envelopes


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
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("OK:") and "2 chance outcomes re-derived" in last and "score sheet recomputed" in last


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
    assert capsys.readouterr().out.splitlines()[-1].startswith("OK:")


def edited(path: Path, edit) -> Path:
    document = json.loads(path.read_text())
    edit(document)
    path.write_text(json.dumps(document))
    return path


def failures(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("FAILED")]


def test_an_edited_score_sheet_is_caught_against_the_recorded_and_the_recomputed_one(store, redis_client,
                                                                                      export_dir, capsys):
    record(store, "g1", play(choice=2))
    scored = store.version("g1")

    def ninety_nine(document: dict) -> None:
        document["score_sheet"]["lines"][0]["points"] = 99

    assert main([str(edited(exported(store, redis_client, export_dir), ninety_nine))]) == 1
    assert failures(capsys.readouterr().out) == [
        f"FAILED at version {scored}: score: the record's score_sheet is not the one recorded in game_scored"]


def test_an_edited_player_name_in_the_header_is_caught_at_game_created(store, redis_client, export_dir, capsys):
    record(store, "g1", play(choice=2))

    def rename(document: dict) -> None:
        document["header"]["players"][0]["name"] = "Eve"

    assert main([str(edited(exported(store, redis_client, export_dir), rename))]) == 1
    [line] = failures(capsys.readouterr().out)
    assert line.startswith("FAILED at version 1: header: the header's players is ") and '"Eve"' in line


def swapped_version(document: dict) -> int:
    return next(e["version"] for e in document["events"] if e.get("command", {}).get("type") == "swap")


def break_a_rule(document: dict) -> None:
    """Make a swap discard a card its seat does not hold, then recompute every hash and the claimed head."""
    version = swapped_version(document)
    envelope = document["events"][version - 1]
    held = envelope["data"]["card"]
    other = "card-10" if held != "card-10" else "card-1"
    envelope["data"]["card"] = envelope["command"]["card"] = other
    rechain_record(document, version)


def test_a_rechained_event_that_breaks_a_rule_is_caught_by_the_rules_at_its_version(store, redis_client,
                                                                                    export_dir, capsys):
    record(store, "g1", play(choice=0))
    path = edited(exported(store, redis_client, export_dir), break_a_rule)
    version = swapped_version(json.loads(path.read_text()))
    assert main([str(path), "--no-rules", "--key", str(keys_file(path))]) == 1
    assert failures(capsys.readouterr().out) == [
        f"FAILED at version {path_version(path)}: signature: the signature by key "
        f"{keyring_from_environment().active.key_id} does not match the game's head"]
    assert main([str(path)]) == 1
    lines = failures(capsys.readouterr().out)
    assert lines[0] == (f"FAILED at version {version}: adjudication: the rules now refuse this command "
                        "(not_in_hand: that card is not in your hand)")
    assert any(": signature: " in line for line in lines)


def path_version(path: Path) -> int:
    return json.loads(path.read_text())["events"][-1]["version"]


def keys_file(near: Path) -> Path:
    """The service's key list, as GET /keys serves it."""
    listing = near.with_name("keys.json")
    listing.write_text(json.dumps({"algorithm": "ed25519", "keys": keyring_from_environment().listing()}))
    return listing


def test_a_history_re_signed_with_a_key_of_its_own_passes_alone_and_fails_against_the_service_keys(
        store, redis_client, export_dir, tmp_path, capsys):
    record(store, "g1", play(choice=0))
    forger = load_keyring(tmp_path / "forger")

    def forge(document: dict) -> None:
        break_a_rule(document)
        header = document["header"]
        header.update(signed_header({**header, "head_hash": document["head_hash"]}, forger))

    path = edited(exported(store, redis_client, export_dir), forge)
    assert main([str(path), "--no-rules"]) == 0
    assert f"signed by key {forger.active.key_id}, a key the record itself lists" in capsys.readouterr().out
    assert main([str(path), "--no-rules", "--key", str(keys_file(path))]) == 1
    assert failures(capsys.readouterr().out) == [
        f"FAILED at version {path_version(path)}: signature: the signature's key "
        f"'{forger.active.key_id}' is not one of the keys given"]


@pytest.mark.parametrize("fmt", ["json", "ndjson"])
def test_an_unedited_export_passes_against_the_service_keys(store, redis_client, export_dir, capsys, fmt):
    record(store, "g1", play(choice=2))
    path = exported(store, redis_client, export_dir, fmt)
    assert main([str(path), "--key", str(keys_file(path))]) == 0
    out = capsys.readouterr().out
    assert f"signed by key {keyring_from_environment().active.key_id}, the keys given" in out
    assert out.splitlines()[-1].startswith("OK: 9 events")


def test_an_ndjson_export_cut_short_has_no_signed_head(store, redis_client, export_dir, capsys):
    record(store, "g1", play(choice=2))
    path = exported(store, redis_client, export_dir, "ndjson")
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:5]))
    assert main([str(path), "--key", str(keys_file(path))]) == 1
    assert failures(capsys.readouterr().out) == ["FAILED at version 5: signature: the record carries no signature"]


def test_an_edited_ndjson_trailer_is_caught(store, redis_client, export_dir, capsys):
    record(store, "g1", play(choice=2))
    path = exported(store, redis_client, export_dir, "ndjson")
    lines = path.read_text().splitlines()
    trailer = json.loads(lines[-1])
    trailer["signed_head"]["version"] = 8
    path.write_text("\n".join([*lines[:-1], json.dumps(trailer)]) + "\n")
    assert main([str(path)]) == 1
    assert failures(capsys.readouterr().out) == [
        "FAILED at version 9: header: the trailer's version is 8, the events say 9"]


def test_a_file_that_is_not_json_cannot_be_read(tmp_path, capsys):
    path = tmp_path / "noise.ndjson"
    path.write_bytes(b"\x00\x01 not an export\n")
    assert main([str(path)]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.json")]) == 2


def test_a_cairn_file_is_checked_by_replaying_it_and_says_what_it_cannot_show(store, redis_client, export_dir,
                                                                              capsys):
    record(store, "g1", play(choice=0))
    path = exported(store, redis_client, export_dir, "cairn")
    assert main([str(path), "--key", str(keys_file(path))]) == 0
    out = capsys.readouterr().out
    assert "a .cairn file has no hashes: it was checked by replaying its moves" in out
    assert "the Signature tag is the service's" in out
    text = path.read_text()
    swap = next(line for line in text.splitlines() if " swap card=" in line)
    version, held = swap.split(".")[0], swap.rsplit("=", 1)[1]
    path.write_text(text.replace(swap, swap.replace(held, "card-10" if held != "card-10" else "card-1")))
    assert main([str(path)]) == 1
    assert failures(capsys.readouterr().out) == [
        f"FAILED at version {version}: adjudication: the rules refuse it: that card is not in your hand"]


def move_out_of_turn(document: dict) -> None:
    """Give the first seat's move to the next seat, then recompute every hash and the claimed head."""
    envelope = next(e for e in document["events"] if e.get("command", {}).get("seat", "organiser") != "organiser")
    other = "p2" if envelope["seat"] == "p1" else "p1"
    envelope["seat"] = envelope["command"]["seat"] = other
    rechain_record(document, envelope["version"])


def test_the_verifier_runs_as_a_command_against_the_keys_a_served_app_publishes(
        redis_server, store, redis_client, export_dir):
    record(store, "g1", play(choice=1, rules=get_rules("northwest-passage")))
    good = exported(store, redis_client, export_dir)
    bad = edited(Path(shutil.copy(good, good.with_name("bad.json"))), move_out_of_turn)
    for base in serve({"REDIS_URL": redis_server.url, "EXPORT_DIR": str(export_dir), **FAST}):
        listed = Api(base).get("/keys").json()
        assert [key["key_id"] for key in listed["keys"]] == [keyring_from_environment().active.key_id]
        runs = [subprocess.run([sys.executable, "-m", "workers.verify", str(path), "--key", f"{base}/keys"],
                               capture_output=True, text=True, timeout=120, env={**os.environ, "NO_PROXY": "*"})
                for path in (good, bad)]
    assert runs[0].returncode == 0, runs[0].stdout + runs[0].stderr
    assert runs[0].stdout.splitlines()[-1].startswith("OK:")
    assert runs[1].returncode == 1, runs[1].stdout + runs[1].stderr
    assert ": adjudication: the rules now refuse this command" in runs[1].stdout
    assert ": signature: the signature by key " in runs[1].stdout


@pytest.mark.parametrize("game", ["borealis", "ice-expedition", "northwest-passage", "through-ice-and-snow"])
def test_moves_given_to_the_wrong_seat_and_rechained_are_caught_at_their_version_in_every_game(game):
    """Edited events can break a game's fold in any way (an outcome with no pending draw, a seat with no
    board): each is still a finding at its version, never a crash."""
    envelopes = sealed(play(rules=get_rules(game), choice=3))
    moves = [index for index, envelope in enumerate(envelopes)
             if envelope.get("command", {}).get("seat", "organiser") != "organiser"]
    for index in random.Random(game).sample(moves, 10):
        forged = copy.deepcopy(envelopes)
        envelope = forged[index]
        envelope["seat"] = envelope["command"]["seat"] = "p2" if envelope["seat"] == "p1" else "p1"
        rechain(forged, index)
        findings = verify_envelopes(lambda forged=forged: forged).findings
        assert [(finding.version, finding.check) for finding in findings][:1] == [(index + 1, "adjudication")]
