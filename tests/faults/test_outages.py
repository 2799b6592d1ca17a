"""Outages of Redis against real processes: a redis-server, the API under gunicorn and an RQ worker, as deployed.

Redis is killed (then started again on its port and data folder) or paused
with SIGSTOP, alone or under load. Every operation that needs Redis must
answer 503 ``store_unavailable`` with ``Retry-After`` once its Redis timeout
runs out, rather than hang, the pages that need no Redis must still be served,
the first request once Redis is back must succeed, and no acknowledged move
may be lost or recorded twice. Each test prints how long the answers took
(``pytest -s`` shows it): a figure, not an assertion, since a loaded machine
stretches it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
import requests
import yaml

from service.redis_server import RedisServer, free_port
from tests.api.conftest import Api
from tests.contract import SPEC_PATH

# A paused Redis holds every operation for the whole Redis timeout: a shorter one than the shipped second
# tests the same answers with fewer seconds of waiting (the replica wait must stay below it).
PAUSED = {"CAIRN_REDIS_TIMEOUT": "0.3", "CAIRN_REPLICA_WAIT_MS": "100"}
STATIC_PATHS = {"/rules", "/openapi.yaml", "/docs"}
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Deployment:
    """Redis, the API (gunicorn) and optionally a worker, each its own process; stopped by :meth:`stop`."""

    redis: RedisServer
    tmp: Path
    api: Api = field(init=False)
    processes: list[subprocess.Popen] = field(default_factory=list)

    def start(self, api_workers: int = 1, worker: bool = True, **env: str) -> Deployment:
        port = free_port()
        environment = {**os.environ, "REDIS_URL": self.redis.url, "CAIRN_RATE_LIMIT": "100000",
                       "CAIRN_RATE_BURST": "100000", "CAIRN_EXPORT_DIR": str(self.tmp / "exports"), **env}
        log = (self.tmp / "api.log").open("w")
        self.processes.append(subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(api_workers),
             "--worker-class", "gthread", "--threads", "8", "service.app:create_app()"],
            cwd=ROOT, env=environment, stdout=log, stderr=log,
        ))
        if worker:
            self.processes.append(subprocess.Popen(
                [sys.executable, "-m", "workers.worker", "--url", self.redis.url,
                 "--export-dir", str(self.tmp / "exports")],
                cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=(self.tmp / "worker.log").open("w"),
            ))
        self.api = Api(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.api.get("/health").status_code == 200:
                    return self
            except requests.ConnectionError:
                pass
            assert self.processes[0].poll() is None, (self.tmp / "api.log").read_text()
            assert time.monotonic() < deadline, "the API did not come up"
            time.sleep(0.1)

    def api_log(self) -> str:
        return (self.tmp / "api.log").read_text()

    def stop(self) -> None:
        """Each process is asked to stop, and killed if it has not within a few seconds: a graceful stop is not
        under test here (tests/api/test_cli.py tests it), and gunicorn's waits up to 30 s for a live stream."""
        for process in self.processes:
            process.terminate()
        deadline = time.monotonic() + 3
        for process in self.processes:
            try:
                process.wait(timeout=max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def deployment(tmp_path) -> Iterator[Deployment]:
    server = RedisServer(tmp_path / "redis").start()
    running = Deployment(server, tmp_path)
    try:
        yield running
    finally:
        running.stop()
        if server.process and server.process.poll() is None:
            os.kill(server.process.pid, signal.SIGCONT)
        server.stop()


def restart(server: RedisServer) -> RedisServer:
    """A new redis-server on the same port and data folder, as after a crash."""
    return RedisServer(server.data_dir, port=server.port, appendfsync=server.appendfsync).start()


def wait_until_ready(api: Api, timeout: float = 30) -> requests.Response:
    deadline = time.monotonic() + timeout
    while (answer := api.get("/ready")).status_code != 200:
        assert time.monotonic() < deadline, answer.text
        time.sleep(0.2)
    return answer


def timed(api: Api, method: str, path: str, **kwargs) -> tuple[requests.Response, float]:
    started = time.monotonic()
    answer = api.request(method, path, **kwargs)
    return answer, time.monotonic() - started


def tokens_of(created: dict) -> dict[str, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}


def next_move(api: Api, game_id: str, tokens: dict[str, str]) -> tuple[str, dict]:
    view = api.get(f"/games/{game_id}").json()
    seat = view["waiting_for"][0]
    move = api.get(f"/games/{game_id}/legal-moves", tokens[seat]).json()["moves"][0]
    return seat, {**move, "expected_version": view["version"]}


def every_operation(game_id: str, tokens: dict[str, str], seat: str, move: dict) -> Iterator[tuple[str, str, dict]]:
    """One request for each operation of the contract, valid as far as the caller can tell."""
    document = yaml.safe_load(SPEC_PATH.read_text())
    values = {"game_id": game_id, "file_name": f"{game_id}-1-public.json", "version": "1", "job_id": "score-x",
              "seat": "p2"}
    bodies = {
        "/games": {"json": {"game": "borealis", "players": ["A", "B"]}},
        "/games/{game_id}/moves": {"json": move, "token": tokens[seat],
                                   "headers": {"Idempotency-Key": uuid.uuid4().hex}},
        "/games/{game_id}/exports": {"json": {"format": "json"}},
        "/games/{game_id}/audits": {"json": {}},
    }
    for path, item in document["paths"].items():
        for method in ("get", "post"):
            if method in item:
                request = {"token": tokens["organiser"], **(bodies.get(path, {}) if method == "post" else {})}
                yield method.upper(), path.format(**values), request


def assert_outage_answers(api: Api, game_id: str, tokens: dict[str, str], seat: str, move: dict) -> dict[str, float]:
    """Every operation during the outage, each checked; the seconds each took to answer."""
    took = {}
    for method, path, request in every_operation(game_id, tokens, seat, move):
        answer, seconds = timed(api, method, path, **request)
        took[f"{method} {path.replace(game_id, '{id}')}"] = seconds
        if path in STATIC_PATHS or path == "/health":
            assert answer.status_code == 200, (path, answer.text)
        elif path == "/ready":
            assert answer.status_code == 503 and answer.json()["failed"] == ["redis"], answer.text
        else:
            assert answer.status_code == 503, (method, path, answer.status_code, answer.text)
            assert answer.json()["code"] == "store_unavailable"
            assert answer.headers["Retry-After"].isdigit()
    return took


def report(title: str, took: dict[str, float]) -> None:
    worst = max(took, key=took.get)
    print(f"\n{title}: {len(took)} operations, worst {took[worst]:.3f} s ({worst}), "
          f"median {sorted(took.values())[len(took) // 2]:.3f} s")


@pytest.mark.parametrize("outage", ["killed", "paused"])
def test_every_operation_answers_an_outage_and_the_next_request_after_it_succeeds(deployment, outage):
    deployment.start(**(PAUSED if outage == "paused" else {}))
    assert wait_until_ready(deployment.api).json()["checks"]["worker"]["ok"] is True
    created = deployment.api.create("borealis", 3, seed="outage-test")
    game_id, tokens = created["game_id"], tokens_of(created)
    seat, move = next_move(deployment.api, game_id, tokens)
    # The API process now knows the seat's token: the move during the outage goes the way that skips the prelude.
    before = deployment.api.get(f"/games/{game_id}", tokens["organiser"]).json()

    if outage == "killed":
        deployment.redis.kill()
    else:
        os.kill(deployment.redis.process.pid, signal.SIGSTOP)
    report(f"Redis {outage}", assert_outage_answers(deployment.api, game_id, tokens, seat, move))

    started = time.monotonic()
    if outage == "killed":
        deployment.redis = restart(deployment.redis)
    else:
        os.kill(deployment.redis.process.pid, signal.SIGCONT)
    back = time.monotonic()
    answer = deployment.api.get(f"/games/{game_id}", tokens["organiser"])
    print(f"Redis back in {back - started:.3f} s; the first request after it answered {answer.status_code} "
          f"in {time.monotonic() - back:.3f} s")
    assert answer.status_code == 200, answer.text
    assert answer.json() == before, "the game is as it was before the outage"
    moved = deployment.api.post(f"/games/{game_id}/moves", tokens[seat], json=move)
    assert moved.status_code == 201, moved.text
    assert wait_until_ready(deployment.api).status_code == 200
    assert "unhandled error" not in deployment.api_log()


def test_an_api_booted_while_redis_is_down_serves_503s_then_works_and_configures_durability(tmp_path):
    server = RedisServer(tmp_path / "redis", port=free_port())
    running = Deployment(server, tmp_path)
    try:
        running.start(worker=False, CAIRN_APPENDFSYNC="always")
        assert running.api.get("/rules").status_code == 200
        down = running.api.get("/games")
        assert down.status_code == 503 and down.json()["code"] == "store_unavailable"
        assert running.api.get("/ready").json()["failed"] == ["redis"]
        server.start()
        assert running.api.get("/games").status_code == 200
        no_worker = running.api.get("/ready")
        assert no_worker.status_code == 503, no_worker.text
        assert (no_worker.json()["failed"], no_worker.json()["queue_depth"]) == (["worker"], 0)
        assert running.api.create("borealis", 2)["version"] >= 1
        settings = redis.Redis.from_url(server.url, decode_responses=True).config_get("append*")
        assert (settings["appendonly"], settings["appendfsync"]) == ("yes", "always")
    finally:
        running.stop()
        server.stop()


@dataclass
class Player:
    """A client thread playing its own games, retrying every 503 with the same Idempotency-Key, as a client must.

    ``acks`` holds every 201 a move received: its key, its version range and the hashes of its events.
    """

    api: Api
    stop: threading.Event
    statuses: Counter = field(default_factory=Counter)
    unavailable_seconds: list[float] = field(default_factory=list)
    acks: list[tuple[str, str, int, int, list[str]]] = field(default_factory=list)
    replayed: int = 0
    games: list[tuple[str, dict[str, str], int]] = field(default_factory=list)
    failure: BaseException | None = None

    def call(self, method: str, path: str, token: str | None = None, **kwargs) -> requests.Response:
        """The answer, after as many 503s as the outage lasts; every status and 503 latency is kept."""
        while True:
            started = time.monotonic()
            answer = self.api.request(method, path, token, **kwargs)
            self.statuses[answer.status_code] += 1
            if answer.status_code != 503:
                return answer
            assert answer.json()["code"] == "store_unavailable" and answer.headers["Retry-After"].isdigit()
            self.unavailable_seconds.append(time.monotonic() - started)
            time.sleep(0.05)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.play_a_game()
        except BaseException as error:  # reported by the test thread
            self.failure = error

    def play_a_game(self) -> None:
        created = self.call("POST", "/games", json={"game": "borealis", "players": ["A", "B", "C"]})
        assert created.status_code == 201, created.text
        body = created.json()
        game_id, tokens = body["game_id"], tokens_of(body)
        self.games.append((game_id, tokens, body["version"]))
        view = self.call("GET", f"/games/{game_id}").json()
        waiting, version = view["waiting_for"], view["version"]
        while waiting and not self.stop.is_set():
            seat = waiting[0]
            moves = self.call("GET", f"/games/{game_id}/legal-moves", tokens[seat]).json()["moves"]
            key = uuid.uuid4().hex
            answer = self.call("POST", f"/games/{game_id}/moves", tokens[seat], json={
                **moves[0], "expected_version": version}, headers={"Idempotency-Key": key})
            assert answer.status_code in (201, 409), answer.text
            if answer.status_code == 409:
                view = self.call("GET", f"/games/{game_id}").json()
                waiting, version = view["waiting_for"], view["version"]
                continue
            result = answer.json()
            self.replayed += answer.headers["Idempotent-Replayed"] == "true"
            self.acks.append((game_id, key, result["first_version"], result["version"],
                              [event["hash"] for event in result["events"]]))
            waiting, version = result["waiting_for"], result["version"]


def wait_for_acks(players: list[Player], each: int, timeout: float = 120) -> None:
    targets = [len(player.acks) + each for player in players]
    deadline = time.monotonic() + timeout
    while any(len(player.acks) < target for player, target in zip(players, targets, strict=True)):
        assert all(player.failure is None for player in players), [player.failure for player in players]
        assert time.monotonic() < deadline, "the players stopped making progress"
        time.sleep(0.05)


def stored_history(api: Api, game_id: str, organiser: str) -> list[dict]:
    events, start = [], 1
    while start is not None:
        page = api.get(f"/games/{game_id}/events", organiser, params={"from": start, "limit": 500}).json()
        events += page["events"]
        start = page["next_from"]
    return events


def test_a_paused_redis_under_load_loses_and_doubles_no_acknowledged_move(deployment):
    deployment.start(api_workers=2, worker=False)
    stop = threading.Event()
    players = [Player(Api(deployment.api.base), stop) for _ in range(4)]
    threads = [threading.Thread(target=player.run, daemon=True) for player in players]
    for thread in threads:
        thread.start()
    wait_for_acks(players, 5)
    before = sum(len(player.acks) for player in players)
    os.kill(deployment.redis.process.pid, signal.SIGSTOP)
    time.sleep(3)
    os.kill(deployment.redis.process.pid, signal.SIGCONT)
    resumed = time.monotonic()
    wait_for_acks(players, 1)
    recovered = time.monotonic() - resumed
    wait_for_acks(players, 5)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    assert all(player.failure is None for player in players), [player.failure for player in players]

    statuses = sum((player.statuses for player in players), Counter())
    unavailable = [seconds for player in players for seconds in player.unavailable_seconds]
    print(f"\npaused 3 s under load: statuses {dict(statuses)}; {before} moves acknowledged before the pause; "
          f"503s answered in at most {max(unavailable):.3f} s; {sum(player.replayed for player in players)} "
          f"retried moves answered as replays; every player moved again {recovered:.3f} s after SIGCONT")
    assert set(statuses) <= {200, 201, 409, 503}, statuses
    assert statuses[503] > 0, "the pause was felt"

    for player in players:
        for game_id, tokens, opening in player.games:
            stored = stored_history(deployment.api, game_id, tokens["organiser"])
            assert [event["version"] for event in stored] == list(range(1, len(stored) + 1))
            by_version = {event["version"]: event["hash"] for event in stored}
            acks = [ack for ack in player.acks if ack[0] == game_id]
            moved = sorted(version for _game, _key, first, last, _hashes in acks for version in range(first, last + 1))
            # Every move after the opening events was acknowledged (each client resolves its key before moving
            # on), exactly once, and holds the events its acknowledgement showed.
            assert moved == list(range(opening + 1, len(stored) + 1)), "a move recorded twice or unacknowledged"
            for _game, _key, first, _last, hashes in acks:
                assert [by_version[first + offset] for offset in range(len(hashes))] == hashes
            assert deployment.api.get(f"/games/{game_id}/integrity").json()["ok"] is True
    assert "unhandled error" not in deployment.api_log()
