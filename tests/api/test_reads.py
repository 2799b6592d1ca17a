"""Reading games: the index, views and their ETags, past states, the paged log, live streams, the contract."""
from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
import yaml

from domain import registry
from domain.core.canonical import sha256_hex
from service.store.envelope import expected_hash
from service.store.keys import game_keys
from tests.api.conftest import read_stream
from tests.contract import SPEC_PATH

pytestmark = pytest.mark.cluster


def play_keep(api, created: dict, seat_index: int, version: int) -> dict:
    response = api.post(f"/games/{created['game_id']}/moves", created["seats"][seat_index]["token"],
                        json={"type": "keep", "expected_version": version})
    assert response.status_code == 201, response.text
    return response.json()


def test_rules_lists_every_game_with_its_player_counts_and_options(api):
    games = api.get("/rules").json()["games"]
    assert [game["name"] for game in games] == registry.game_names()
    for game in games:
        rules = registry.get_rules(game["name"])
        assert game["player_counts"] == list(rules.player_counts)
        assert game["options_schema"] == rules.options_schema


def test_the_index_filters_and_pages(api):
    before = datetime.now(UTC) - timedelta(seconds=1)
    ann = api.post("/games", json={"game": "high-card", "players": ["Ann", "Bo"]}).json()
    cy = api.post("/games", json={"game": "high-card", "players": ["Cy", "Di", "Ed"], "chance_mode": "table"}).json()
    middle = datetime.now(UTC)
    time.sleep(0.01)
    ann_again = api.post("/games", json={"game": "high-card", "players": ["ANN", "Flo"]}).json()
    listed = api.get("/games").json()
    assert listed["total"] == 3 and listed["next_offset"] is None
    assert [game["game_id"] for game in listed["games"]] == [ann_again["game_id"], cy["game_id"], ann["game_id"]]
    assert listed["games"][1]["players"] == ["Cy", "Di", "Ed"] and listed["games"][1]["chance_mode"] == "table"
    by_player = api.get("/games", params={"player": "ann"}).json()
    assert {game["game_id"] for game in by_player["games"]} == {ann["game_id"], ann_again["game_id"]}
    page = api.get("/games", params={"limit": 2}).json()
    assert len(page["games"]) == 2 and page["next_offset"] == 2
    rest = api.get("/games", params={"limit": 2, "offset": 2}).json()
    assert [game["game_id"] for game in rest["games"]] == [ann["game_id"]] and rest["next_offset"] is None
    recent = api.get("/games", params={"created_after": middle.isoformat()}).json()
    assert [game["game_id"] for game in recent["games"]] == [ann_again["game_id"]]
    older = api.get("/games", params={"created_before": middle.isoformat(), "created_after": before.isoformat()})
    assert {game["game_id"] for game in older.json()["games"]} == {ann["game_id"], cy["game_id"]}
    assert api.get("/games", params={"game": "borealis"}).json()["total"] == 0
    assert api.get("/games", params={"status": "active", "player": "cy"}).json()["total"] == 1
    assert api.get("/games", params={"limit": 100_000}).json()["limit"] == 500


def test_views_are_shaped_for_their_reader_and_tagged_with_the_version(api):
    created = api.create("high-card", 2, seed="views-seed")
    path = f"/games/{created['game_id']}"
    organiser = api.get(path, created["organiser_token"])
    hands = organiser.json()["state"]["hands"]
    assert organiser.headers["ETag"] == '"3;organiser"' and organiser.json()["reader"] == "organiser"
    assert all(hands.values())
    public = api.get(path).json()
    assert public["reader"] == "public" and public["state"]["hands"] == {"p1": None, "p2": None}
    p1 = api.get(path, created["seats"][0]["token"]).json()
    assert p1["state"]["hands"] == {"p1": hands["p1"], "p2": None}
    assert public["seed"] is None and organiser.json()["seed"] is None, "the seed stays secret while the game runs"
    assert api.get(path, headers={"If-None-Match": '"3"'}).status_code == 304
    play_keep(api, created, 0, 3)
    assert api.get(path, headers={"If-None-Match": '"3"'}).status_code == 200


def test_the_server_seed_stays_in_the_service_until_the_end(api, redis_client):
    """Drawn by the service when not given; no response, the organiser's included, holds it while the game runs."""
    created = api.create("high-card", 2)
    game_id, organiser = created["game_id"], created["organiser_token"]
    seed = redis_client.hget(game_keys(game_id).private, "seed").decode()
    assert len(seed) == 64
    shown = json.dumps([created, api.get(f"/games/{game_id}", organiser).json(),
                        api.get(f"/games/{game_id}/events", organiser).json(),
                        api.get(f"/games/{game_id}/legal-moves", organiser).json()])
    assert seed not in shown and sha256_hex(seed) in shown
    play_keep(api, created, 0, 3)
    play_keep(api, created, 1, 4)
    for seat in (0, 1):
        api.post(f"/games/{game_id}/moves", created["seats"][seat]["token"], json={"type": "ready"},
                 headers={"If-Match": f'"{5 + seat}"'})
    assert api.get(f"/games/{game_id}").json()["seed"] == seed, "the end reveals it to everyone"


def test_past_states_are_shown_as_they_were(api):
    created = api.create("high-card", 2, seed="past-seed")
    path = f"/games/{created['game_id']}/state"
    play_keep(api, created, 0, 3)
    at_three = api.get(path, params={"at": 3}).json()
    assert at_three["version"] == 3 and at_three["current_version"] == 4 and at_three["waiting_for"] == ["p1"]
    assert api.get(path).json()["waiting_for"] == ["p2"]
    assert api.get(path, params={"at": 1}).json()["state"]["hands"] == {}


def test_the_log_pages_from_any_version(api):
    created = api.create("high-card", 2, seed="log-seed")
    play_keep(api, created, 0, 3)
    play_keep(api, created, 1, 4)
    path = f"/games/{created['game_id']}/events"
    first = api.get(path, params={"limit": 2}).json()
    assert [event["version"] for event in first["events"]] == [1, 2] and first["next_from"] == 3
    second = api.get(path, params={"from": first["next_from"], "limit": 2}).json()
    assert [event["version"] for event in second["events"]] == [3, 4] and second["next_from"] == 5
    last = api.get(path, params={"from": 5, "limit": 2}).json()
    assert [event["version"] for event in last["events"]] == [5] and last["next_from"] is None
    assert api.get(path, params={"from": 6}).json()["events"] == []


def test_the_log_is_redacted_for_each_reader_and_still_chains(api):
    created = api.create("high-card", 2, seed="redact-seed")
    path = f"/games/{created['game_id']}/events"
    p1_token = created["seats"][0]["token"]
    public, p1 = api.get(path).json()["events"], api.get(path, p1_token).json()["events"]
    deal_to_p1 = p1[1]
    assert deal_to_p1["secret_to"] == ["p1"] and "secret" in deal_to_p1
    assert "secret" not in public[1] and "secret_salt" not in public[1] and public[1]["redacted"] == ["outcome"]
    assert public[1]["secret_hash"] == deal_to_p1["secret_hash"]
    assert "secret" not in p1[2], "p2's card is hidden from p1"
    for events in (public, p1):
        assert all(event["prev_hash"] == before["hash"] for before, event in zip(events, events[1:], strict=False))
        assert all(expected_hash(event) == event["hash"] for event in events)


def test_commands_are_shown_to_their_sender_only_until_the_end(api):
    """The organiser's draw in table mode names p1's secret card: only the organiser sees that command."""
    created = api.create("high-card", 2, chance_mode="table")
    organiser = created["organiser_token"]
    offers = api.get(f"/games/{created['game_id']}/legal-moves", organiser).json()["moves"]
    assert len(offers) > 1 and all(offer.keys() == {"type", "outcome"} for offer in offers), "one per outcome"
    draw = offers[4]
    moved = api.post(f"/games/{created['game_id']}/moves", organiser, json=draw, headers={"If-Match": '"1"'})
    assert moved.status_code == 201
    path = f"/games/{created['game_id']}/events?from=2"
    assert api.get(path, organiser).json()["events"][0]["command"] == {**draw, "seat": "organiser"}
    for token in (None, created["seats"][1]["token"]):
        shown = api.get(path, token).json()
        assert shown["events"][0]["command_redacted"] is True
        assert draw["outcome"][0] not in json.dumps(shown)
        assert expected_hash(shown["events"][0]) == shown["events"][0]["hash"], "a withheld command still verifies"
    assert draw["outcome"][0] in json.dumps(api.get(path, created["seats"][0]["token"]).json())


def test_the_stream_sends_new_events_live_and_resumes_after_last_event_id(api):
    created = api.create("high-card", 2, seed="stream-seed")
    path = f"/games/{created['game_id']}/stream"
    received: list = []
    follower = threading.Thread(target=lambda: received.extend(read_stream(api, path)))
    follower.start()
    time.sleep(0.3)
    play_keep(api, created, 0, 3)
    follower.join(timeout=10)
    assert [message["id"] for message in received if "id" in message] == ["4"]
    assert received[-1]["event"] == "end" and json.loads(received[-1]["data"]) == {"reason": "idle", "version": 4}
    resumed = read_stream(api, path, headers={"Last-Event-ID": "2"})
    envelopes = [json.loads(message["data"]) for message in resumed if "id" in message]
    assert [envelope["version"] for envelope in envelopes] == [3, 4]
    assert "secret" not in envelopes[0] and envelopes[0]["redacted"] == ["outcome"]
    as_p2 = read_stream(api, f"{path}?from=3&token={created['seats'][1]['token']}")
    assert "secret" in json.loads(as_p2[0]["data"]), "p2 sees its own card, with the token in the query"


def test_integrity_reports_the_first_tampered_version(api, redis_client):
    created = api.create("high-card", 2, seed="tamper-seed")
    play_keep(api, created, 0, 3)
    path = f"/games/{created['game_id']}/integrity"
    assert api.get(path).json()["ok"] is True
    key = f"cairn:{{{created['game_id']}}}:events"
    entries = redis_client.xrange(key)
    redis_client.delete(key)
    for entry_id, fields in entries:
        envelope = json.loads(fields[b"e"])
        if envelope["version"] == 2:
            envelope["secret"] = {"outcome": ["card-1"]}
        redis_client.xadd(key, {"e": json.dumps(envelope)}, id=entry_id)
    answer = api.get(path).json()
    assert {key: answer[key] for key in ("game_id", "version", "ok", "first_bad_version")} == {
        "game_id": created["game_id"], "version": 4, "ok": False, "first_bad_version": 2}


def test_the_contract_is_served_with_a_readable_page(api):
    served = api.get("/openapi.yaml")
    assert served.headers["Content-Type"].startswith("application/yaml")
    assert yaml.safe_load(served.text) == yaml.safe_load(SPEC_PATH.read_text())
    page = api.get("/docs").text
    assert "<code>/games/{game_id}/moves</code>" in page
    assert 'id=error-stale_version' in page and "http" not in page.split("</style>")[1].replace("/openapi", "")
