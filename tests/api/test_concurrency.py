"""Racing clients: optimistic concurrency on the expected version, and idempotent retries."""
from __future__ import annotations

import threading

from service.store.keys import game_keys


def race(count: int, send) -> list:
    """Run ``send(index)`` from ``count`` threads released at the same moment; their responses in order."""
    start = threading.Barrier(count)
    responses: list = [None] * count

    def run(index: int) -> None:
        start.wait()
        responses[index] = send(index)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return responses


def stream_versions(redis_client, game_id: str) -> list[int]:
    return [int(entry_id.decode().split("-")[0]) for entry_id, _ in redis_client.xrange(game_keys(game_id).events)]


def test_twenty_moves_on_the_same_version_one_wins_the_rest_get_409(api, redis_client):
    created = api.create("high-card", 2, seed="race-seed")
    game_id, organiser = created["game_id"], created["organiser_token"]
    p1 = created["seats"][0]["token"]
    # Ten keep and ten swap: different moves, all legal for p1 at version 3, and one organiser acting for p1.
    moves = api.get(f"/games/{game_id}/legal-moves", p1).json()["moves"]
    responses = race(20, lambda i: api.post(f"/games/{game_id}/moves", organiser if i == 0 else p1,
                                            json={**moves[i % 2], "seat": "p1"}, headers={"If-Match": '"3"'}))
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [201] + [409] * 19
    losers = [response.json() for response in responses if response.status_code == 409]
    (winner,) = [response.json() for response in responses if response.status_code == 201]
    assert {loser["current_version"] for loser in losers} == {winner["version"]}
    assert stream_versions(redis_client, game_id) == list(range(1, winner["version"] + 1))
    integrity = api.get(f"/games/{game_id}/integrity").json()
    assert {key: integrity[key] for key in ("game_id", "version", "ok", "first_bad_version")} == {
        "game_id": game_id, "version": winner["version"], "ok": True, "first_bad_version": None,
    }


def test_the_same_key_ten_times_appends_once_and_answers_the_same(api, redis_client):
    created = api.create("high-card", 2, seed="idem-seed")
    game_id, p1 = created["game_id"], created["seats"][0]["token"]
    responses = [
        api.post(f"/games/{game_id}/moves", p1, json={"type": "keep", "expected_version": 3},
                 headers={"Idempotency-Key": "keep-once"})
        for _ in range(10)
    ]
    assert [response.status_code for response in responses] == [201] * 10
    assert [response.headers["Idempotent-Replayed"] for response in responses] == ["false"] + ["true"] * 9
    assert all(response.json() == responses[0].json() for response in responses)
    assert stream_versions(redis_client, game_id) == [1, 2, 3, 4]
    # The game has moved on, yet the retry still gets the first answer, not a 409.
    assert api.post(f"/games/{game_id}/moves", created["seats"][1]["token"],
                    json={"type": "keep", "expected_version": 4}).status_code == 201
    late = api.post(f"/games/{game_id}/moves", p1, json={"type": "keep", "expected_version": 3},
                    headers={"Idempotency-Key": "keep-once"})
    assert late.status_code == 201 and late.json() == responses[0].json()


def test_the_same_key_ten_times_at_once_appends_once(api, redis_client):
    created = api.create("high-card", 2, seed="idem-race")
    game_id, p1 = created["game_id"], created["seats"][0]["token"]
    responses = race(10, lambda _i: api.post(f"/games/{game_id}/moves", p1,
                                             json={"type": "keep", "expected_version": 3},
                                             headers={"Idempotency-Key": "keep-at-once"}))
    assert [response.status_code for response in responses] == [201] * 10
    assert sorted(response.headers["Idempotent-Replayed"] for response in responses) == ["false"] + ["true"] * 9
    assert all(response.json() == responses[0].json() for response in responses)
    assert stream_versions(redis_client, game_id) == [1, 2, 3, 4]
    assert api.get(f"/games/{game_id}/integrity").json()["ok"]
