"""``cairn serve`` under SIGKILL: each process it supervises comes back, and no acknowledged move is lost."""
from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import pytest
import requests

from tests.api.conftest import Api
from tests.faults.serving import Served, cairn_serve

RECOVERY_BOUND = 30.0


class ServerError(Exception):
    """A 5xx answer: the request may be repeated (moves carry an Idempotency-Key)."""


@pytest.fixture
def served(tmp_path):
    with cairn_serve(tmp_path) as running:
        yield running
    assert running.process.returncode == 0, running.log()


def create(api: Api) -> dict:
    created = api.create("borealis", 2)
    return {"game_id": created["game_id"], "version": created["version"],
            "tokens": {seat["seat"]: seat["token"] for seat in created["seats"]},
            "organiser": created["organiser_token"]}


def play(api: Api, game: dict, moves: int) -> None:
    for _ in range(moves):
        view = api.get(f"/games/{game['game_id']}").json()
        seat = view["waiting_for"][0]
        move = api.get(f"/games/{game['game_id']}/legal-moves", game["tokens"][seat]).json()["moves"][0]
        moved = api.post(f"/games/{game['game_id']}/moves", game["tokens"][seat],
                         json={**move, "expected_version": view["version"]})
        assert moved.status_code == 201, moved.text


def export_finishes(api: Api, game: dict, timeout: float = 60) -> None:
    """An export job is taken by a worker and finished within ``timeout`` seconds."""
    started = api.post(f"/games/{game['game_id']}/exports", game["organiser"], json={"format": "json"})
    assert started.status_code == 202, started.text
    deadline = time.monotonic() + timeout
    while (job := api.get(f"/jobs/{started.json()['job_id']}", game["organiser"]).json())["status"] != "finished":
        assert job["status"] in ("queued", "started", "scheduled", "deferred"), job
        assert time.monotonic() < deadline, f"the export job is still {job['status']} after {timeout} s"
        time.sleep(0.2)


def test_a_killed_worker_is_restarted_and_takes_jobs_again(served: Served):
    game = create(served.api)
    play(served.api, game, 4)
    worker = served.child("worker")
    assert worker is not None, served.log()
    worker.kill()
    replacement = served.replaced("worker", worker.pid)
    export_finishes(served.api, game)
    assert replacement.is_running()
    assert "worker exited (signal SIGKILL)" in served.log()
    assert "received" not in served.log(), "no signal came to cairn serve itself"


def test_a_killed_api_master_is_restarted(served: Served):
    game = create(served.api)
    master = served.child("api")
    master.kill()
    served.replaced("api", master.pid)
    deadline = time.monotonic() + RECOVERY_BOUND
    while True:
        try:
            play(served.api, game, 2)
            break
        except requests.ConnectionError:
            assert time.monotonic() < deadline, f"the API did not come back within {RECOVERY_BOUND} s"
            time.sleep(0.2)
    assert "API exited (signal SIGKILL)" in served.log()


@dataclass(eq=False)
class Mover(threading.Thread):
    """A client that plays moves as fast as it can, retrying each with its Idempotency-Key until acknowledged.

    Every request's outcome (a status code, or the exception a connection failure raised) is kept
    with its time, for the outage report.
    """

    api: Api
    games: list[dict] = field(default_factory=list)
    acknowledged: dict[str, list[dict]] = field(default_factory=dict)
    outcomes: list[tuple[float, str]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        super().__init__(daemon=True)

    def run(self) -> None:
        while not self.stopping.is_set():
            if not self.games or not self.acknowledge(self.games[-1]):
                self.games.append(self.settled(lambda: create(self.api)))

    def acknowledge(self, game: dict) -> bool:
        """One move in ``game``, retried until a 201; False when the game is waiting for no one."""
        path = f"/games/{game['game_id']}"
        view = self.settled(lambda: self.ok(self.api.get(path)).json())
        if not view["waiting_for"]:
            return False
        seat = view["waiting_for"][0]
        token = game["tokens"][seat]
        move = self.settled(lambda: self.ok(self.api.get(f"{path}/legal-moves", token)).json()["moves"][0])
        key = uuid.uuid4().hex
        moved = self.settled(lambda: self.ok(self.api.post(
            f"{path}/moves", token, json={**move, "expected_version": view["version"]},
            headers={"Idempotency-Key": key})))
        assert moved.status_code == 201, moved.text
        self.acknowledged.setdefault(game["game_id"], []).append(moved.json())
        return True

    def ok(self, response: requests.Response) -> requests.Response:
        self.outcomes.append((time.monotonic(), str(response.status_code)))
        if response.status_code >= 500:
            raise ServerError(response.status_code)
        return response

    def settled(self, attempt):
        """``attempt()`` again after each server error or connection failure, for at most the recovery bound."""
        deadline = time.monotonic() + 2 * RECOVERY_BOUND
        while True:
            try:
                return attempt()
            except requests.RequestException as error:
                self.outcomes.append((time.monotonic(), type(error).__name__))
            except ServerError:
                pass
            assert time.monotonic() < deadline, "the service did not recover"
            time.sleep(0.05)


def history(api: Api, game: dict) -> list[dict]:
    events, start = [], 1
    while start is not None:
        page = api.get(f"/games/{game['game_id']}/events", game["organiser"], params={"from": start, "limit": 500})
        assert page.status_code == 200, page.text
        events += page.json()["events"]
        start = page.json()["next_from"]
    return events


def test_a_killed_redis_is_restarted_under_load_and_no_acknowledged_move_is_lost(served: Served, record_property):
    mover = Mover(served.api)
    mover.start()
    time.sleep(2)
    redis_process = served.child("redis")
    killed_at = time.monotonic()
    redis_process.kill()
    served.replaced("redis", redis_process.pid)
    deadline = killed_at + RECOVERY_BOUND
    while not any(when > killed_at and outcome == "201" for when, outcome in mover.outcomes):
        assert mover.is_alive(), "the client failed"
        assert time.monotonic() < deadline, f"no move acknowledged within {RECOVERY_BOUND} s of the kill"
        time.sleep(0.05)
    recovered_at = next(when for when, outcome in mover.outcomes if when > killed_at and outcome == "201")
    time.sleep(1)
    mover.stopping.set()
    mover.join(timeout=2 * RECOVERY_BOUND)
    assert not mover.is_alive()

    during = Counter(outcome for when, outcome in mover.outcomes if killed_at < when <= recovered_at)
    report = f"Redis SIGKILL: recovered in {recovered_at - killed_at:.2f} s; the client saw {dict(during)}"
    print(f"\n{report}")
    record_property("redis_outage", report)

    acknowledged = sum(len(results) for results in mover.acknowledged.values())
    assert acknowledged > 0
    for game in mover.games:
        events = history(served.api, game)
        assert [event["version"] for event in events] == list(range(1, len(events) + 1))
        by_version = {event["version"]: event for event in events}
        results = mover.acknowledged.get(game["game_id"], [])
        for result in results:
            for event in result["events"]:
                assert by_version[event["version"]]["hash"] == event["hash"], "an acknowledged move is lost"
        acknowledged_versions = sorted(event["version"] for result in results for event in result["events"])
        appended = [event["version"] for event in events
                    if event["version"] > game["version"] and event["type"] != "game_scored"]
        assert acknowledged_versions == appended, "a move was applied twice, or one nobody acknowledged"
        integrity = served.api.get(f"/games/{game['game_id']}/integrity").json()
        assert integrity["ok"] is True, integrity
    export_finishes(served.api, mover.games[0])
    assert "embedded Redis exited (signal SIGKILL)" in served.log()
