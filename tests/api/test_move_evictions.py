"""Moves through a cache that forgets at each point of their way: a move whose game or token the process
loses from its cache meanwhile gets the answer it would have had, never a 500, while several clients move
in the same game at once."""
from __future__ import annotations

import random
import threading
import uuid

import pytest

from service.api.matches import MatchCache
from service.app import create_app
from tests.api.conftest import Api, serve_app
from tests.api.test_concurrency import stream_versions

MOVERS = 4
STEPS = 60  # per mover: far more than a three-seat game of High Card takes


class ForgetfulCache(MatchCache):
    """A cache under memory pressure: right after each call of its method ``after`` it forgets every game and
    every token it held."""

    def __init__(self, store, after: str):
        super().__init__(store)
        self._after = after

    def current(self, game_id, version):
        return self._then_forget("current", super().current(game_id, version))

    def take(self, game_id, version):
        return self._then_forget("take", super().take(game_id, version))

    def remember(self, game_id, match, shared=False):
        self._then_forget("remember", super().remember(game_id, match, shared))

    def facts(self, game_id):
        return self._then_forget("facts", super().facts(game_id))

    def learn(self, game_id, readers, seed, seat_count, as_of):
        self._then_forget("learn", super().learn(game_id, readers, seed, seat_count, as_of))

    def _then_forget(self, method: str, answer):
        if method == self._after:
            with self._lock:
                self._matches.clear()
                self._shared.clear()
                self._facts.clear()
        return answer


def move_at_once(base: str, created: dict) -> list[int]:
    """``MOVERS`` clients playing one game at once until it ends, each on a connection of its own. Each reads
    whom the game waits for and that seat's moves, then submits one of them against the version they were
    listed at, with the seat's token or as the organiser; now and then a move the rules refuse instead, and
    now and then twice with the same Idempotency-Key. Every answer's status, in no particular order."""
    game_id, organiser = created["game_id"], created["organiser_token"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    statuses: list[int] = []
    start = threading.Barrier(MOVERS)

    def mover(index: int) -> None:
        api, chooser = Api(base), random.Random(index)
        start.wait()
        for _step in range(STEPS):
            game = api.get(f"/games/{game_id}", organiser).json()
            if game["status"] != "active":
                return
            seat = game["waiting_for"][0]
            listed = api.get(f"/games/{game_id}/legal-moves", organiser, params={"seat": seat}).json()
            if not listed["moves"]:
                continue  # the game moved on between the two reads
            move = chooser.choice(listed["moves"]) if chooser.random() < 0.8 else {"type": "swap", "card": "card-0"}
            token, body = (tokens[seat], move) if chooser.random() < 0.5 else (organiser, {**move, "seat": seat})
            headers = {"If-Match": f'"{listed["version"]}"', "Idempotency-Key": uuid.uuid4().hex}
            for _send in range(chooser.choice((1, 2))):
                statuses.append(api.post(f"/games/{game_id}/moves", token, json=body, headers=headers).status_code)

    threads = [threading.Thread(target=mover, args=(index,)) for index in range(MOVERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def move_one_by_one(api: Api, created: dict) -> None:
    """A refusal by the rules, a stale version, a move and its retry: each answered as the contract says."""
    game_id, version = created["game_id"], created["version"]
    p1 = created["seats"][0]["token"]

    def send(body: dict, at: int, key: str | None = None):
        headers = {"If-Match": f'"{at}"', **({"Idempotency-Key": key} if key else {})}
        return api.post(f"/games/{game_id}/moves", p1, json=body, headers=headers)

    refused = send({"type": "swap", "card": "card-0"}, version)
    assert (refused.status_code, refused.json()["rule_id"]) == (422, "HC-2")
    stale = send({"type": "keep"}, version - 1)
    assert (stale.status_code, stale.json()["current_version"]) == (409, version)
    moved = send({"type": "keep"}, version, key="keep-once")
    assert moved.status_code == 201, moved.text
    retried = send({"type": "keep"}, version, key="keep-once")
    assert retried.status_code == 201 and retried.headers["Idempotent-Replayed"] == "true"
    assert retried.json() == moved.json()


@pytest.mark.parametrize("after", ["facts", "learn", "take", "remember", "current"])
def test_moves_meeting_evictions_at_every_step_are_answered_as_without_them(api_config, redis_client, after):
    app = create_app(api_config)
    services = app.extensions["cairn"]
    services.matches = ForgetfulCache(services.store, after)
    for base in serve_app(app):
        api = Api(base)
        for number in range(3):
            created = api.create("high-card", 3, seed=f"evictions-{after}-{number}")
            move_one_by_one(api, created)
            statuses = move_at_once(base, created)
            assert set(statuses) <= {201, 409, 422}, statuses
            game = api.get(f"/games/{created['game_id']}").json()
            assert game["status"] == "ended"
            assert stream_versions(redis_client, created["game_id"]) == list(range(1, game["version"] + 1))
            assert api.get(f"/games/{created['game_id']}/integrity").json()["ok"] is True
