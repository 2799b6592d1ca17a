"""``GET /games/{id}/export``: the reader's record in the format the request negotiates, by Accept or ?format=."""
from __future__ import annotations

import json

import pytest

from service.signing import keyring_from_environment
from tests.api.test_errors import refused, unchanged
from tests.burst import drain as drain_queue


@pytest.fixture(autouse=True)
def data_dir(api_config, monkeypatch):
    """The worker signs with the key of the server's data folder, as a deployed worker would."""
    monkeypatch.setenv("CAIRN_DATA_DIR", api_config["DATA_DIR"])
    keyring_from_environment.cache_clear()
    yield
    keyring_from_environment.cache_clear()


def play_to_the_end(api, game: dict) -> None:
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"]}
    while (view := api.get(f"/games/{game['game_id']}").json())["status"] == "active":
        seat = view["waiting_for"][0]
        move = api.get(f"/games/{game['game_id']}/legal-moves", tokens[seat]).json()["moves"][0]
        moved = api.post(f"/games/{game['game_id']}/moves", tokens[seat], json=move,
                         headers={"If-Match": f'"{view["version"]}"'})
        assert moved.status_code == 201, moved.text


def export(api, game_id: str, accept: str | None = None, **params):
    return api.get(f"/games/{game_id}/export", headers={"Accept": accept} if accept else {}, params=params)


def test_an_ended_game_is_answered_in_the_format_accept_asks_for(api):
    game = api.create("high-card", 2, seed="negotiated-seed")
    play_to_the_end(api, game)
    game_id = game["game_id"]
    record = export(api, game_id, "application/json")
    assert record.status_code == 200 and record.headers["Content-Type"] == "application/json"
    assert record.json()["format"] == "cairn-record/1" and record.json()["header"]["reader"] == "all"
    assert "Accept" in record.headers["Vary"]
    lines = export(api, game_id, "application/x-ndjson")
    assert lines.headers["Content-Type"] == "application/x-ndjson"
    assert [json.loads(line)["version"] for line in lines.text.splitlines()[:2]] == [1, 2]
    notation = export(api, game_id, "text/x-cairn")
    assert notation.headers["Content-Type"] == "text/x-cairn; charset=utf-8"
    assert notation.text.startswith('[Game "high-card"]')
    browser = export(api, game_id, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
    assert browser.headers["Content-Type"] == "text/html; charset=utf-8" and "<html" in browser.text
    assert export(api, game_id).json() == record.json(), "without Accept: JSON"
    assert export(api, game_id, "text/html", format="cairn").text == notation.text, "?format= wins over Accept"
    again = export(api, game_id, "application/json")
    assert again.headers["ETag"] == record.headers["ETag"], "the stored file is served again"


def test_a_format_nobody_makes_is_refused_with_the_list_of_formats(api, redis_client):
    game = api.create("high-card", 2)
    with unchanged(redis_client, game["game_id"]):
        problem = refused(export(api, game["game_id"], "image/png"), 406, "not_acceptable", "Accept")
        assert {entry["media_type"] for entry in problem["formats"]} == {
            "application/json", "application/x-ndjson", "text/x-cairn", "text/html"}
        refused(export(api, game["game_id"], format="pdf"), 400, "invalid_query", "format")


def test_a_game_in_play_is_written_by_a_worker_and_then_served(api, redis_client):
    game = api.create("high-card", 2)
    started = export(api, game["game_id"], "text/x-cairn")
    assert started.status_code == 202 and started.headers["Location"] == started.json()["job_url"]
    drain_queue(redis_client)
    assert api.get(started.headers["Location"]).json()["status"] == "finished"
    served = export(api, game["game_id"], "text/x-cairn")
    assert served.status_code == 200 and '[Reader "public"]' in served.text


def test_an_export_request_with_a_field_it_does_not_take_is_refused(api, redis_client):
    game = api.create("high-card", 2)
    with unchanged(redis_client, game["game_id"]):
        refused(api.post(f"/games/{game['game_id']}/exports", json={"format": "json", "reader": "p1"}), 422,
                "unknown_field", "reader")
