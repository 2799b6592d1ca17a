"""Every way a request can fail: its own status and stable code, as problem+json, and nothing changed."""
from __future__ import annotations

import time
from contextlib import contextmanager

import pytest

from service.store.keys import INDEX_ALL, game_keys
from tests.api.conftest import Api, serve


def record_of(redis_client, game_id: str | None) -> tuple:
    """Everything a request could change: the game's stream, meta and idempotency keys, and the index."""
    if game_id is None:
        return (redis_client.zcard(INDEX_ALL),)
    keys = game_keys(game_id)
    return (
        redis_client.zcard(INDEX_ALL),
        redis_client.xrange(keys.events),
        redis_client.hgetall(keys.meta),
        redis_client.hgetall(keys.idem),
    )


@contextmanager
def unchanged(redis_client, game_id: str | None = None):
    before = record_of(redis_client, game_id)
    yield
    assert record_of(redis_client, game_id) == before


def refused(response, status: int, code: str, field: str | None = None, rule_id: str | None = None) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == code
    assert problem["status"] == status
    assert problem["type"] == f"/docs#error-{code}"
    assert problem["title"] and problem["detail"]
    if field is not None:
        assert problem["field"] == field
    if rule_id is not None:
        assert problem["rule_id"] == rule_id
    return problem


@pytest.fixture
def game(api):
    """A high-card game where p1 is to choose (server mode: the cards are dealt at creation)."""
    created = api.create("high-card", 2, seed="errors-seed")
    created["tokens"] = {seat["seat"]: seat["token"] for seat in created["seats"]}
    return created


def move(api: Api, game: dict, body, token: str | None = "p1", **kwargs):
    token = game["tokens"].get(token, token)
    return api.post(f"/games/{game['game_id']}/moves", token, **{"json": body, **kwargs})


def test_malformed_json_is_400(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        headers = {"Content-Type": "application/json"}
        refused(api.post("/games", data=b'{"game": "high-card",', headers=headers), 400, "malformed_json")
        refused(move(api, game, None, data=b"{'type': 'keep'}", headers=headers), 400, "malformed_json")


def test_a_body_not_sent_as_json_is_415(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, None, data=b'{"type": "keep"}', headers={"Content-Type": "text/plain"}),
                415, "unsupported_media_type")


def test_a_body_that_is_not_an_object_is_refused(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, [{"type": "keep"}]), 422, "body_not_object")


def test_unknown_game_names_are_refused_and_nothing_is_created(api, redis_client):
    with unchanged(redis_client):
        refused(api.post("/games", json={"game": "monopoly", "players": ["A", "B"]}), 422, "unknown_game_name", "game")


def test_wrong_field_types_name_the_field(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(api.post("/games", json={"game": "high-card", "players": "Ann and Bo"}), 422, "invalid_field",
                "players")
        refused(api.post("/games", json={"game": "high-card", "players": ["Ann", 7]}), 422, "invalid_field",
                "players.1")
        refused(api.post("/games", json={"game": "high-card", "players": ["A", "B"], "chance_mode": "dice"}), 422,
                "invalid_field", "chance_mode")
        refused(api.post("/games", json={"game": "high-card", "players": ["A", "B"], "chance_mode": "table",
                                         "seed": "0123456789"}), 422, "invalid_field", "seed")
        refused(move(api, game, {"type": 3, "expected_version": 3}), 422, "invalid_field", "type")
        refused(move(api, game, {"type": "keep", "expected_version": "3"}), 422, "invalid_field", "expected_version")
        refused(move(api, game, {"type": "swap", "card": 4, "expected_version": 3}), 422, "invalid_field", "card")


def test_options_and_player_counts_are_checked_against_the_rules(api, redis_client):
    with unchanged(redis_client):
        refused(api.post("/games", json={"game": "high-card", "players": ["A", "B", "C", "D"]}), 422,
                "invalid_player_count", "players")
        refused(api.post("/games", json={"game": "high-card", "players": ["A", "B"], "options": {"swaps": 5}}),
                422, "invalid_option", "options.swaps")
        refused(api.post("/games", json={"game": "through-ice-and-snow", "players": ["A"],
                                         "options": {"scenario": "magnetic_north_pole", "survival": False}}),
                422, "invalid_option", "options.survival", "TIS-SURV-1")


def test_unknown_move_types_are_refused(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "fold", "expected_version": 3}), 422, "unknown_move_type", "type")


def test_a_move_the_rules_forbid_cites_the_rule(api, redis_client, game):
    (hand,) = [m["card"] for m in api.get(f"/games/{game['game_id']}/legal-moves", game["tokens"]["p1"]).json()[
        "moves"] if m["type"] == "swap"]
    other = next(f"card-{n}" for n in range(1, 11) if f"card-{n}" != hand)
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "swap", "card": other, "expected_version": 3}), 422, "not_in_hand", "card",
                "HC-2")


def test_oversized_bodies_are_413(api, redis_client, game):
    padding = "x" * (64 * 1024)
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep", "expected_version": 3, "note": padding}), 413, "body_too_large")
        refused(api.post("/games", json={"game": "high-card", "players": ["A", padding]}), 413, "body_too_large")


def test_unknown_games_are_404_on_every_resource(api, redis_client, game):
    token = game["tokens"]["p1"]
    with unchanged(redis_client, game["game_id"]):
        for path in ("", "/legal-moves", "/state", "/events", "/stream", "/integrity"):
            refused(api.get(f"/games/nope{path}", token), 404, "game_not_found", "game_id")
        refused(api.post("/games/nope/moves", token, json={"type": "keep", "expected_version": 3}), 404,
                "game_not_found")
        refused(api.get("/games/no{such}game"), 404, "game_not_found")


def test_tokens_missing_malformed_or_of_another_game_are_401(api, redis_client, game):
    other = api.create("high-card", 2)
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep", "expected_version": 3}, token=None), 401, "token_missing")
        refused(move(api, game, {"type": "keep", "expected_version": 3}, token=None,
                     headers={"Authorization": "Basic dXNlcjpwdw=="}), 401, "token_malformed")
        refused(move(api, game, {"type": "keep", "expected_version": 3}, token=other["seats"][0]["token"]), 401,
                "token_invalid")
        refused(api.get(f"/games/{game['game_id']}/legal-moves"), 401, "token_missing")
        refused(api.get(f"/games/{game['game_id']}", "not-a-token"), 401, "token_invalid")


def test_the_wrong_seats_token_is_403(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep", "expected_version": 3}, token="p2"), 403, "not_your_turn")
        refused(move(api, game, {"type": "keep", "seat": "p1", "expected_version": 3}, token="p2"), 403,
                "wrong_seat", "seat")
        refused(api.get(f"/games/{game['game_id']}/legal-moves?seat=p1", game["tokens"]["p2"]), 403, "wrong_seat")
        refused(move(api, game, {"type": "resolve_chance", "outcome": ["card-1"], "expected_version": 3}), 403,
                "not_organiser")


def test_the_organiser_names_a_seat_that_exists(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep", "seat": "p9", "expected_version": 3},
                     token=game["organiser_token"]), 422, "unknown_seat", "seat")


def test_a_stale_version_is_409_with_the_current_version(api, redis_client, game):
    assert move(api, game, {"type": "keep", "expected_version": 3}).status_code == 201
    with unchanged(redis_client, game["game_id"]):
        problem = refused(move(api, game, {"type": "keep", "expected_version": 3}, token="p2"), 409, "stale_version",
                          "expected_version")
        assert problem["current_version"] == 4


def test_a_move_without_an_expected_version_is_428(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep"}), 428, "expected_version_required", "expected_version")


def test_if_match_must_be_a_version_and_agree_with_the_body(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep"}, headers={"If-Match": "7"}), 400, "invalid_if_match", "If-Match")
        refused(move(api, game, {"type": "keep"}, headers={"If-Match": "*"}), 428, "expected_version_required")
        refused(move(api, game, {"type": "keep", "expected_version": 4}, headers={"If-Match": '"3"'}), 400,
                "expected_version_mismatch")


def test_an_idempotency_key_is_bound_to_its_move(api, redis_client, game):
    first = move(api, game, {"type": "keep", "expected_version": 3}, headers={"Idempotency-Key": "k1"})
    assert first.status_code == 201
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "swap", "card": "card-1", "expected_version": 3},
                     headers={"Idempotency-Key": "k1"}), 422, "idempotency_key_reused", "Idempotency-Key")
        refused(move(api, game, {"type": "keep", "expected_version": 4}, headers={"Idempotency-Key": "x" * 201}),
                400, "invalid_idempotency_key")


def test_reads_beyond_the_game_are_422_and_bad_queries_400(api, game):
    refused(api.get(f"/games/{game['game_id']}/state?at=99"), 422, "version_out_of_range", "at")
    refused(api.get(f"/games/{game['game_id']}/events?limit=many"), 400, "invalid_query", "limit")
    refused(api.get("/games?status=lost"), 400, "invalid_query", "status")
    refused(api.get("/games?created_after=yesterday"), 400, "invalid_query", "created_after")


def test_an_ended_game_takes_no_more_moves(api, redis_client, game):
    version = 3
    while True:
        view = api.get(f"/games/{game['game_id']}").json()
        if view["status"] != "active":
            break
        seat = view["waiting_for"][0]
        version = move(api, game, {"type": "keep" if version < 5 else "ready", "expected_version": version},
                       token=seat).json()["version"]
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "ready", "expected_version": version}), 409, "game_over")


def test_table_mode_refuses_impossible_draws(api, redis_client):
    created = api.create("high-card", 2, chance_mode="table")
    organiser = created["organiser_token"]
    with unchanged(redis_client, created["game_id"]):
        refused(api.post(f"/games/{created['game_id']}/moves", organiser,
                         json={"type": "resolve_chance", "outcome": ["card-11"], "expected_version": 1}), 422,
                "impossible_outcome", "outcome")
        refused(api.post(f"/games/{created['game_id']}/moves", created["seats"][0]["token"],
                         json={"type": "keep", "expected_version": 1}), 422, "chance_pending")


def test_over_the_rate_a_token_gets_429_with_retry_after(redis_server, redis_client):
    for base in serve({"REDIS_URL": redis_server.url, "RATE_LIMIT": 1, "RATE_BURST": 3}):
        api = Api(base)
        created = api.create("high-card", 2)
        token = created["seats"][0]["token"]
        path = f"/games/{created['game_id']}"
        with unchanged(redis_client, created["game_id"]):
            statuses = [api.get(path, token).status_code for _ in range(3)]
            problem = refused(api.get(path, token), 429, "rate_limited")
            assert statuses == [200, 200, 200]
        assert problem["retry_after"] > 0
        assert api.get(path, created["seats"][1]["token"]).status_code == 200, "another token has its own budget"
        time.sleep(1.05)
        assert api.get(path, token).status_code == 200, "the bucket refills at the rate"
