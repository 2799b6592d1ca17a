"""A process that already holds a game answers its moves with one round trip to Redis: the same answers,
the same refusals and the same limits as when it must first fetch the game's records."""
from __future__ import annotations

import uuid

from tests.api.conftest import Api, serve
from tests.api.test_errors import refused, unchanged


def seats_of(created: dict) -> dict[str, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"]}


def keep(api: Api, game_id: str, token: str, version: int, key: str | None = None):
    headers = {"If-Match": f'"{version}"', **({"Idempotency-Key": key} if key else {})}
    return api.post(f"/games/{game_id}/moves", token, json={"type": "keep"}, headers=headers)


def test_a_move_is_charged_in_its_append_to_a_budget_that_reads_do_not_spend(redis_server, redis_client):
    """The process that created the game knows the token, so the move's append takes from the bucket and
    its answer still says where the bucket stands."""
    config = {"REDIS_URL": redis_server.url, "RATE_LIMIT": 0.01, "RATE_BURST": 1, "READ_RATE_BURST": 50}
    for base in serve(config):
        api = Api(base)
        created = api.create("high-card", 2, seed="rate-limit-seed")
        game_id, token = created["game_id"], seats_of(created)["p1"]
        reads = [api.get(f"/games/{game_id}", token) for _ in range(5)]
        assert [read.status_code for read in reads] == [200] * 5
        assert reads[-1].headers["RateLimit-Limit"] == "50" and reads[-1].headers["RateLimit-Remaining"] == "45"
        moved = keep(api, game_id, token, created["version"])
        assert moved.status_code == 201, moved.text
        assert (moved.headers["RateLimit-Limit"], moved.headers["RateLimit-Remaining"]) == ("1", "0")
        assert int(moved.headers["RateLimit-Reset"]) > 0
        with unchanged(redis_client, game_id):
            problem = refused(keep(api, game_id, token, moved.json()["version"]), 429, "rate_limited")
        assert problem["retry_after"] > 0
        other = keep(api, game_id, seats_of(created)["p2"], moved.json()["version"])
        assert other.status_code == 201, "another seat's token has a budget of its own"


def test_a_refused_move_changes_nothing_and_the_next_one_is_accepted(api, redis_client):
    created = api.create("high-card", 2, seed="refusal-seed")
    game_id, token = created["game_id"], seats_of(created)["p1"]
    with unchanged(redis_client, game_id):
        refused(api.post(f"/games/{game_id}/moves", token, json={"type": "swap", "card": "card-99"},
                         headers={"If-Match": f'"{created["version"]}"'}), 422, "not_in_hand", "card", "HC-2")
    moved = keep(api, game_id, token, created["version"])
    assert moved.status_code == 201, moved.text
    assert moved.json()["first_version"] == created["version"] + 1


def test_a_retry_at_a_process_holding_the_game_before_the_move_gets_the_first_answer(api_config, redis_client):
    """The second process still holds the game as it was before the first process's move: deciding the
    move again there must not append it twice."""
    first_server, second_server = serve(api_config), serve(api_config)
    first, second = Api(next(first_server)), Api(next(second_server))
    created = first.create("high-card", 2, seed="retry-seed")
    game_id, tokens = created["game_id"], seats_of(created)
    opened = keep(second, game_id, tokens["p1"], created["version"])
    assert opened.status_code == 201, opened.text
    version = opened.json()["version"]
    key = uuid.uuid4().hex
    answered = keep(first, game_id, tokens["p2"], version, key)
    assert answered.status_code == 201, answered.text
    with unchanged(redis_client, game_id):
        retried = keep(second, game_id, tokens["p2"], version, key)
    assert retried.status_code == 201, retried.text
    assert retried.headers["Idempotent-Replayed"] == "true"
    assert retried.json() == answered.json()
    assert first.get(f"/games/{game_id}/integrity").json()["ok"] is True
    for server in (first_server, second_server):
        server.close()


def test_a_token_of_another_game_held_by_the_same_process_is_refused(api, redis_client):
    first, second = api.create("high-card", 2, seed="first-game-seed"), api.create("high-card", 2, seed="second-seed")
    with unchanged(redis_client, second["game_id"]):
        refused(keep(api, second["game_id"], seats_of(first)["p1"], second["version"]), 401, "token_invalid")
