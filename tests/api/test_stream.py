"""The live stream over real HTTP: kept alive, ended with a reason, refused beyond the head, and held open by
the hundred under the server ``cairn serve`` runs."""
from __future__ import annotations

import json
import logging
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import astuple
from pathlib import Path

import pytest
import requests

from service.redis_server import RedisServer, free_port
from service.store import EventStore
from service.store.keys import game_keys
from tests.api.conftest import FAST, Api, read_stream, serve
from tests.processes import wait_for
from workers.scoring import score_game

pytestmark = pytest.mark.cluster

served = contextmanager(serve)


class Follower(threading.Thread):
    """One client reading a stream line by line, noting each message and keep-alive comment as it arrives."""

    def __init__(self, base: str, path: str, headers: dict | None = None):
        super().__init__(daemon=True)
        self.url, self.headers = base + path, headers or {}
        self.status: int | None = None
        self.versions: list[int] = []
        self.types: list[str] = []
        self.keepalives: list[float] = []
        self.end: dict | None = None
        self.opened, self.finished, self.stop = threading.Event(), threading.Event(), threading.Event()

    def run(self) -> None:
        session = requests.Session()
        session.trust_env = False
        try:
            with session.get(self.url, headers=self.headers, stream=True, timeout=30) as response:
                self.status = response.status_code
                self.opened.set()
                if response.status_code == 200:
                    self._read(response)
        finally:
            self.opened.set()
            self.finished.set()
            session.close()

    def _read(self, response: requests.Response) -> None:
        message: dict = {}
        for raw in response.iter_lines():
            line = raw.decode()
            if line.startswith(":"):
                self.keepalives.append(time.monotonic())
            elif line:
                name, _, value = line.partition(":")
                message[name] = value.removeprefix(" ")
            elif "data" in message:
                self._take(message)
                message = {}
            if self.stop.is_set() or self.end is not None:
                return

    def _take(self, message: dict) -> None:
        if message.get("event") == "end":
            self.end = json.loads(message["data"])
            return
        envelope = json.loads(message["data"])
        assert int(message["id"]) == envelope["version"]
        self.versions.append(envelope["version"])
        self.types.append(envelope["type"])

    def close(self) -> None:
        """Stop reading at the next line (a keep-alive comment at the latest) and hang up."""
        self.stop.set()
        self.join(timeout=30)


def follow(base: str, path: str, headers: dict | None = None) -> Follower:
    follower = Follower(base, path, headers)
    follower.start()
    assert follower.opened.wait(30)
    return follower


def play_to_the_end(api: Api, created: dict) -> int:
    """Every seat moves until the high-card game is over; the game's last version."""
    game_id = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    while (view := api.get(f"/games/{game_id}").json())["waiting_for"]:
        seat = view["waiting_for"][0]
        move = api.get(f"/games/{game_id}/legal-moves", tokens[seat]).json()["moves"][0]
        response = api.post(f"/games/{game_id}/moves", tokens[seat], json={**move, "expected_version": view["version"]})
        assert response.status_code == 201, response.text
    return view["version"]


def timed_move(api: Api, game_id: str, tokens: dict[str, str]) -> tuple[int, float]:
    """The first legal move of the seat to play; the game's version after it and the seconds the move took."""
    view = api.get(f"/games/{game_id}").json()
    seat = view["waiting_for"][0]
    move = api.get(f"/games/{game_id}/legal-moves", tokens[seat]).json()["moves"][0]
    sent = time.monotonic()
    moved = api.post(f"/games/{game_id}/moves", tokens[seat], json={**move, "expected_version": view["version"]})
    took = time.monotonic() - sent
    assert moved.status_code == 201, moved.text
    return moved.json()["version"], took


def wait_until(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true in time"
        time.sleep(0.05)


@contextmanager
def cairn_serve(tmp_path: Path, redis_url: str, settings: dict[str, str]) -> Iterator[tuple[str, Path]]:
    """``cairn serve --no-worker`` (gunicorn with its shipped workers and threads) on a test Redis;
    its base URL and the file its log goes to."""
    port = free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "REDIS_URL": redis_url, **{f"CAIRN_{key}": value for key, value in settings.items()}}
    with log.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "--data-dir", str(tmp_path / "var"), "serve", "--no-worker",
             "--port", str(port)],
            env=env, stdout=subprocess.DEVNULL, stderr=sink,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/rules", process, why=lambda: log.read_text())
        yield base, log
    finally:
        process.terminate()
        process.wait(timeout=60)


def test_an_idle_stream_is_kept_alive_and_then_ended_without_a_traceback(tmp_path, redis_server, redis_client):
    settings = {"STREAM_IDLE_SECONDS": "3", "STREAM_KEEPALIVE_SECONDS": "1"}
    with cairn_serve(tmp_path, redis_server.url, settings) as (base, log):
        api = Api(base)
        created = api.create("borealis", 2)
        follower = follow(base, f"/games/{created['game_id']}/stream")
        assert follower.finished.wait(30)
    assert follower.status == 200
    assert follower.end == {"reason": "idle", "version": created["version"]}
    assert follower.versions == []
    assert len(follower.keepalives) >= 2, "a comment at each quiet second before the end at 3 s"
    assert "Traceback" not in log.read_text()


def test_a_keepalive_interval_longer_than_the_usual_redis_read_timeout_still_waits(api_config, caplog):
    """The ordinary Redis clients give up on a reply after 5 s; a stream blocking longer must not."""
    config = {**api_config, "STREAM_KEEPALIVE_SECONDS": 5.5, "STREAM_IDLE_SECONDS": 6.0}
    with served(config) as base:
        created = Api(base).create("high-card", 2)
        follower = follow(base, f"/games/{created['game_id']}/stream")
        assert follower.finished.wait(30)
    assert len(follower.keepalives) == 1
    assert follower.end == {"reason": "idle", "version": created["version"]}
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


def test_a_stream_of_an_ended_game_ends_once_its_score_is_delivered(api_config, redis_client):
    config = {**api_config, "STREAM_IDLE_SECONDS": 60.0, "STREAM_KEEPALIVE_SECONDS": 0.5}
    with served(config) as base:
        api = Api(base)
        created = api.create("high-card", 2)
        game_id = created["game_id"]
        ended = play_to_the_end(api, created)
        follower = follow(base, f"/games/{game_id}/stream?from=1")
        wait_until(lambda: ended in follower.versions)
        assert follower.end is None, "an ended game still expects its score"
        scored = score_game(EventStore(redis_client), game_id)["version"]
        started = time.monotonic()
        assert follower.finished.wait(30)
        assert time.monotonic() - started < 60, "the stream ends at the score, not at the idle time"
        resumed = follow(base, f"/games/{game_id}/stream", {"Last-Event-ID": str(scored)})
        assert resumed.finished.wait(30)
    assert follower.versions == list(range(1, scored + 1))
    assert follower.types[-2:] == ["game_ended", "game_scored"]
    assert follower.end == {"reason": "game_over", "version": scored}
    assert (resumed.versions, resumed.end) == ([], {"reason": "game_over", "version": scored})


def test_an_ended_game_never_scored_ends_as_game_over_after_the_idle_time(api):
    created = api.create("high-card", 2)
    ended = play_to_the_end(api, created)
    follower = follow(api.base, f"/games/{created['game_id']}/stream", {"Last-Event-ID": str(ended)})
    assert follower.finished.wait(30)
    assert (follower.versions, follower.end) == ([], {"reason": "game_over", "version": ended})


def test_a_version_beyond_the_head_is_refused_before_the_stream_starts(api):
    created = api.create("high-card", 2)
    game_id, version = created["game_id"], created["version"]
    path = f"/games/{game_id}/stream"
    for headers, query, field in (({"Last-Event-ID": str(version + 1)}, "", "Last-Event-ID"),
                                  (None, f"?from={version + 2}", "from")):
        refused = api.get(path + query, headers=headers)
        assert refused.status_code == 422
        assert refused.headers["Content-Type"] == "application/problem+json"
        problem = refused.json()
        assert (problem["code"], problem["field"], problem["current_version"]) == (
            "version_out_of_range", field, version)
    waiting = follow(api.base, f"{path}?from={version + 1}")
    assert waiting.finished.wait(30)
    assert (waiting.status, waiting.end) == (200, {"reason": "idle", "version": version}), "the next version waits"


@pytest.mark.parametrize("last_seen", ["²", "-1", "1.0", "99999999999999999999"])
def test_a_last_event_id_that_is_not_a_version_is_refused(api, last_seen):
    created = api.create("high-card", 2)
    refused = api.get(f"/games/{created['game_id']}/stream", headers={"Last-Event-ID": last_seen})
    assert refused.status_code == 400
    assert (refused.json()["code"], refused.json()["field"]) == ("invalid_last_event_id", "Last-Event-ID")


def test_a_redis_outage_during_a_stream_ends_it_as_store_unavailable(tmp_path, caplog):
    server = RedisServer(tmp_path / "redis").start()
    try:
        config = {**FAST, "REDIS_URL": server.url, "STREAM_IDLE_SECONDS": 60.0}
        with served(config) as base:
            created = Api(base).create("high-card", 2)
            follower = follow(base, f"/games/{created['game_id']}/stream")
            wait_until(lambda: follower.keepalives)
            server.kill()
            assert follower.finished.wait(30)
    finally:
        server.stop()
    assert follower.end == {"reason": "store_unavailable", "version": created["version"]}
    assert not [record for record in caplog.records if record.exc_info]


def test_a_game_that_disappears_during_a_stream_ends_it_as_game_not_found(api, redis_client):
    created = api.create("high-card", 2)
    follower = follow(api.base, f"/games/{created['game_id']}/stream")
    wait_until(lambda: follower.keepalives)
    redis_client.delete(*astuple(game_keys(created["game_id"])))
    assert follower.finished.wait(30)
    assert follower.end == {"reason": "game_not_found", "version": created["version"]}


def test_streams_beyond_the_process_cap_are_refused_until_one_closes(api_config):
    config = {**api_config, "STREAM_MAX_OPEN": 2, "STREAM_IDLE_SECONDS": 60.0}
    with served(config) as base:
        api = Api(base)
        path = f"/games/{api.create('high-card', 2)['game_id']}/stream"
        followers = [follow(base, path) for _ in range(2)]
        refused = api.get(path)
        assert refused.status_code == 503
        assert refused.json()["code"] == "too_many_streams"
        assert int(refused.headers["Retry-After"]) >= 1
        assert api.get(f"{path.removesuffix('/stream')}").status_code == 200, "other requests are still answered"
        followers[0].close()
        late: list[Follower] = []

        def admitted() -> bool:
            late.append(follow(base, path))
            return late[-1].status == 200

        wait_until(admitted, timeout=10)
        for follower in [*followers, *late]:
            follower.close()


@pytest.mark.timeout(300)
def test_a_hundred_idle_streams_stay_open_while_moves_are_answered(tmp_path, redis_server, redis_client):
    settings = {"STREAM_IDLE_SECONDS": "120", "STREAM_KEEPALIVE_SECONDS": "1",
                "RATE_LIMIT": "100000", "RATE_BURST": "100000"}
    with cairn_serve(tmp_path, redis_server.url, settings) as (base, log):
        api = Api(base)
        created = api.create("borealis", 3, seed="a-hundred-followers")
        game_id, start = created["game_id"], created["version"]
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
        followers = [follow(base, f"/games/{game_id}/stream") for _ in range(100)]
        assert [follower.status for follower in followers] == [200] * 100
        latencies = []
        for _move in range(50):
            last, took = timed_move(api, game_id, tokens)
            latencies.append(took)
        wait_until(lambda: all(last in follower.versions for follower in followers))
        moved = time.monotonic()
        wait_until(lambda: all(follower.keepalives and follower.keepalives[-1] > moved for follower in followers))
        for follower in followers:
            assert follower.end is None and not follower.finished.is_set()
            assert follower.versions == list(range(start + 1, last + 1))
        for follower in followers:
            follower.stop.set()
        for follower in followers:
            follower.close()
    print(f"\n50 moves beside 100 open streams: median {statistics.median(latencies) * 1000:.0f} ms, "
          f"max {max(latencies) * 1000:.0f} ms ")
    assert max(latencies) < 10, "every move is answered in reasonable time"
    assert "Traceback" not in log.read_text()



def test_a_stream_with_the_view_carries_the_readers_view_after_each_read(api):
    created = api.create("high-card", 2, seed="stream-view-seed")
    game_id, p1 = created["game_id"], created["seats"][0]["token"]
    now = api.get(f"/games/{game_id}", p1).json()
    views = [message for message in read_stream(api, f"/games/{game_id}/stream?view=1", p1,
                                                 enough=lambda got: bool(got))]
    assert views[0]["event"] == "view" and "id" not in views[0]
    assert json.loads(views[0]["data"]) == now, "it starts with the view it follows from"
    moved = api.post(f"/games/{game_id}/moves", p1, json={"type": "keep"}, headers={"If-Match": f'"{now["version"]}"'})
    assert moved.status_code == 201
    messages = read_stream(api, f"/games/{game_id}/stream?from=1&view=1", p1,
                           enough=lambda got: any(m.get("event") == "view" for m in got))
    events = [message for message in messages if "id" in message]
    assert [int(message["id"]) for message in events] == list(range(1, moved.json()["version"] + 1))
    shown = json.loads(next(message for message in messages if message.get("event") == "view")["data"])
    assert shown == api.get(f"/games/{game_id}", p1).json()
    assert "hands" in shown["state"] and shown["state"]["hands"]["p2"] is None, "p2's card stays hidden from p1"
