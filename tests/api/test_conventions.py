"""The HTTP conventions a client author expects: compression, rate-limit headers on every counted answer,
separate budgets for creating, reading and moving, and ``Link: rel="next"`` on paged answers."""
from __future__ import annotations

import gzip
import json

from tests.api.conftest import FAST, Api, serve
from tests.api.test_errors import refused

IDENTITY = {"Accept-Encoding": "identity"}


def test_a_large_answer_is_gzipped_only_for_a_client_that_accepts_it(api):
    created = api.create("borealis", 4)
    path = f"/games/{created['game_id']}"
    compressed = api.session.get(api.base + path, stream=True, timeout=30, headers={
        "Accept-Encoding": "gzip", "Authorization": f"Bearer {created['organiser_token']}"})
    raw = compressed.raw.read(decode_content=False)
    assert compressed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in compressed.headers["Vary"]
    plain = api.get(path, created["organiser_token"], headers=IDENTITY)
    assert "Content-Encoding" not in plain.headers
    assert len(raw) < len(plain.content) / 3
    assert json.loads(gzip.decompress(raw)) == plain.json()
    refusing = api.get(path, created["organiser_token"], headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refusing.headers


def test_a_small_answer_and_the_live_stream_go_out_uncompressed(api):
    assert "Content-Encoding" not in api.get("/health", headers={"Accept-Encoding": "gzip"}).headers
    created = api.create("high-card", 2)
    response = api.session.get(f"{api.base}/games/{created['game_id']}/stream", stream=True, timeout=30,
                               headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Type"].startswith("text/event-stream")
    assert "Content-Encoding" not in response.headers
    response.close()


def test_every_counted_answer_says_where_its_bucket_stands(redis_server, redis_client):
    config = {"REDIS_URL": redis_server.url, "RATE_LIMIT": 1, "RATE_BURST": 5, "READ_RATE_BURST": 7,
              "CREATE_RATE_BURST": 3}
    for base in serve(config):
        api = Api(base)
        created = api.post("/games", json={"game": "high-card", "players": ["Ann", "Bo"]})
        assert (created.headers["RateLimit-Limit"], created.headers["RateLimit-Remaining"]) == ("3", "2")
        read = api.get(f"/games/{created.json()['game_id']}")
        assert (read.headers["RateLimit-Limit"], read.headers["RateLimit-Remaining"]) == ("7", "6")
        assert int(read.headers["RateLimit-Reset"]) >= 1
        page = api.get("/rules")
        assert page.headers["RateLimit-Remaining"] == "5", "the rules page is a read of the same address"
        missing = api.get("/games/nosuchgame")
        assert missing.status_code == 404 and missing.headers["RateLimit-Remaining"] == "4"


def test_creating_games_has_a_budget_that_reading_does_not_share(redis_server, redis_client):
    config = {**FAST, "REDIS_URL": redis_server.url, "CREATE_RATE_LIMIT": 0.01, "CREATE_RATE_BURST": 2}
    for base in serve(config):
        api = Api(base)
        games = [api.create("high-card", 2) for _ in range(2)]
        problem = refused(api.post("/games", json={"game": "high-card", "players": ["Ann", "Bo"]}), 429,
                          "rate_limited")
        assert problem["retry_after"] > 0
        for _ in range(20):
            assert api.get(f"/games/{games[0]['game_id']}").status_code == 200
        assert api.get("/games").status_code == 200, "reading is not held back by the creations"


def test_paged_answers_link_to_their_next_page(api):
    created = api.create("high-card", 2, seed="link-seed")
    game_id = created["game_id"]
    first = api.get(f"/games/{game_id}/events", params={"limit": 1})
    assert first.links["next"]["url"] == f"/games/{game_id}/events?limit=1&from=2"
    followed = api.get(first.links["next"]["url"])
    assert followed.json()["from"] == 2 and followed.json()["events"] == api.get(
        f"/games/{game_id}/events", params={"from": 2, "limit": 1}).json()["events"]
    last = api.get(f"/games/{game_id}/events", params={"from": created["version"]})
    assert "Link" not in last.headers
    api.create("high-card", 2)
    index = api.get("/games", params={"limit": 1, "game": "high-card"})
    assert index.links["next"]["url"] == "/games?limit=1&game=high-card&offset=1"
    assert "Link" not in api.get("/games", params={"offset": 1, "limit": 1}).headers


def test_a_large_move_answer_is_compressed_too(api):
    created = api.create("borealis", 4, seed="compressed-move-seed")
    game_id, organiser = created["game_id"], created["organiser_token"]
    view = api.get(f"/games/{game_id}").json()
    seat = view["waiting_for"][0]
    move = api.get(f"/games/{game_id}/legal-moves", organiser, params={"seat": seat}).json()["moves"][0]
    moved = api.session.post(f"{api.base}/games/{game_id}/moves?include=view", json={**move, "seat": seat},
                             headers={"Authorization": f"Bearer {organiser}", "If-Match": f'"{view["version"]}"',
                                      "Accept-Encoding": "gzip"}, timeout=30)
    assert moved.status_code == 201 and moved.headers["Content-Encoding"] == "gzip"
    assert moved.json()["view"]["version"] == moved.json()["version"]
