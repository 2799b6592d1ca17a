"""A scored game compacted by the compaction job reads back through the API exactly as it did live."""
from __future__ import annotations

from pathlib import Path

from service.store.keys import game_keys
from tests.workers.test_records_api import FAST, bearer, play_through_api
from workers.audit import audit_game
from workers.exports import export_game
from workers.maintenance import offer_compaction


def everything(client, game_id: str, tokens: dict[str, str]) -> dict:
    """Each read the API offers of a game, by the public and by each token."""
    readers = {"public": {}, **{reader: bearer(token) for reader, token in tokens.items()}}
    version = client.get(f"/games/{game_id}").get_json()["version"]
    seen = {}
    for name, headers in readers.items():
        seen[name] = {
            "view": client.get(f"/games/{game_id}", headers=headers).get_json(),
            "pages": [client.get(f"/games/{game_id}/events?from={start}&limit=4", headers=headers).get_json()
                      for start in range(1, version + 1, 4)],
            "states": [client.get(f"/games/{game_id}/state?at={at}", headers=headers).get_json()
                       for at in range(1, version + 1)],
        }
    integrity = client.get(f"/games/{game_id}/integrity").get_json()
    seen["integrity"] = {key: value for key, value in integrity.items() if key != "snapshot"}
    seen["listing"] = client.get("/games?status=scored&player=ann").get_json()
    seen["score"] = client.get(f"/games/{game_id}/score").get_json()
    return seen


def export_lines(store, redis_client, game_id: str, folder: Path) -> list[str]:
    redis_client.delete(f"cairn:{{{game_id}}}:exports")
    record = export_game(store, redis_client, game_id, "ndjson", store.version(game_id), None, folder)
    return (folder / game_id / record["file"]).read_text().splitlines()


def test_a_compacted_game_answers_every_read_as_it_did_live(redis_server, redis_client, store, export_dir, drain,
                                                            tmp_path, monkeypatch):
    from service.app import create_app

    client = create_app({"REDIS_URL": redis_server.url, "EXPORT_DIR": str(export_dir), **FAST}).test_client()
    game_id, tokens = play_through_api(client)
    drain()
    live = everything(client, game_id, tokens)
    live_export = export_lines(store, redis_client, game_id, tmp_path / "live")
    audited = client.post(f"/games/{game_id}/audits", headers=bearer(tokens["p1"]))
    drain()
    live_audit = client.get(client.get(audited.headers["Location"]).get_json()["result_url"]).get_json()

    monkeypatch.setenv("CAIRN_COMPACT_AFTER_SECONDS", "0")
    assert offer_compaction(redis_client) is not None
    drain()
    assert not redis_client.exists(game_keys(game_id).events) and redis_client.exists(game_keys(game_id).compacted)

    assert everything(client, game_id, tokens) == live
    compacted_export = export_lines(store, redis_client, game_id, tmp_path / "compacted")
    assert compacted_export[1:] == live_export[1:] and len(live_export) > 5
    audit = audit_game(store, redis_client, game_id, store.version(game_id))
    assert {**audit, "audited_at": None} == {**live_audit, "audited_at": None} and audit["ok"]
    moved = client.post(f"/games/{game_id}/moves", headers=bearer(tokens["p1"]),
                        json={"type": "play", "expected_version": live["public"]["view"]["version"]})
    assert moved.status_code in (409, 422) and not redis_client.exists(game_keys(game_id).events)
