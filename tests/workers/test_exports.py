"""Exports: streamed from the store, redacted for their reader, written once and atomically, reused."""
from __future__ import annotations

import hashlib
import json

import pytest
from rq.job import Job

from domain.core.events import ORGANISER
from tests.workers.records import play, record
from workers import formats as formats_module
from workers.exports import export_game, find_export, game_folder
from workers.queues import enqueue_export
from workers.verify import verify_file


def hands_dealt(store, game_id: str = "g1") -> dict[str, str]:
    """Each seat's secret card, read from the store's unredacted events."""
    return {e["secret_to"][0]: e["secret"]["outcome"][0] for e in store.read(game_id) if "secret" in e}


@pytest.mark.cluster
def test_a_worker_exports_an_ended_game_as_a_json_record_that_verifies(store, redis_client, queue_client, drain,
                                                                        export_dir):
    record(store, "g1", play())
    version = store.version("g1")
    job = enqueue_export(queue_client, "g1", "json", version, None, "all", str(export_dir))
    drain()
    finished = Job.fetch(job.id, connection=queue_client)
    assert finished.get_status() == "finished"
    assert finished.meta["progress"] == {"done": version, "total": version}
    saved = find_export(redis_client, export_dir, "g1", "json", version, "all")
    path = game_folder(export_dir, "g1") / saved["file"]
    exported = json.loads(path.read_text())
    assert exported["header"]["seed"] == "north" and exported["header"]["status"] == "scored"
    assert exported["score_sheet"] == store.load("g1").score
    assert [e["version"] for e in exported["events"]] == list(range(1, version + 1))
    assert exported["head_hash"] == store.read("g1", version)[0]["hash"]
    assert saved["etag"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert saved["content_type"] == "application/json"
    assert verify_file(path).ok


def test_ndjson_is_one_envelope_per_line_then_the_signed_head(store, redis_client, export_dir):
    record(store, "g1", play())
    saved = export_game(store, redis_client, "g1", "ndjson", store.version("g1"), None, export_dir)
    lines = [json.loads(line) for line in (game_folder(export_dir, "g1") / saved["file"]).read_text().splitlines()]
    assert [line["version"] for line in lines[:-1]] == list(range(1, store.version("g1") + 1))
    head = {"game_id": "g1", "version": store.version("g1"), "head_hash": lines[-2]["hash"],
            "seed_commitment": lines[0]["data"]["seed_hash"]}
    assert lines[-1]["signed_head"] == head
    assert lines[-1]["signature"]["algorithm"] == "ed25519"
    assert saved["content_type"] == "application/x-ndjson"


@pytest.mark.parametrize("reader, sees", [("p1", {"p1"}), ("p2", {"p2"}), (None, set()),
                                          (ORGANISER, {"p1", "p2"})])
def test_an_export_of_a_game_in_play_shows_each_reader_only_their_own_cards(store, redis_client, export_dir,
                                                                          reader, sees):
    record(store, "g1", play()[:3])
    hands = hands_dealt(store)
    saved = export_game(store, redis_client, "g1", "json", store.version("g1"), reader, export_dir)
    content = (game_folder(export_dir, "g1") / saved["file"]).read_text()
    assert {seat for seat, card in hands.items() if f'"{card}"' in content} == sees
    assert saved["reader"] == (reader or "public")
    assert verify_file(game_folder(export_dir, "g1") / saved["file"]).ok


def test_the_same_export_is_made_once_and_reused(store, redis_client, export_dir):
    record(store, "g1", play())
    version = store.version("g1")
    first = export_game(store, redis_client, "g1", "json", version, "p1", export_dir)
    path = game_folder(export_dir, "g1") / first["file"]
    written_at = path.stat().st_mtime_ns
    again = export_game(store, redis_client, "g1", "json", version, "p2", export_dir)
    assert again == first and first["reader"] == "all"
    assert path.stat().st_mtime_ns == written_at


def test_a_writer_that_fails_half_way_leaves_no_file_at_all(store, redis_client, export_dir, monkeypatch):
    record(store, "g1", play())

    def half_then_fail(out, source):
        out.write('{"format": "cairn-record/1", "events": [')
        raise OSError("disk full")

    failing = formats_module.Format("json", "json", "application/json", half_then_fail)
    monkeypatch.setattr("workers.exports.formats", lambda: {"json": failing})
    with pytest.raises(OSError):
        export_game(store, redis_client, "g1", "json", store.version("g1"), None, export_dir)
    assert [p for p in export_dir.rglob("*") if p.is_file()] == []
    assert find_export(redis_client, export_dir, "g1", "json", store.version("g1"), "all") is None
