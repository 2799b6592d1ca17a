"""``/integrity`` on live games: never a break that is not there, while moves and the scoring job append."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import redis

from service.store import EventStore, snapshot_key
from tests.api.conftest import Api, serve

ROOT = Path(__file__).resolve().parents[2]
CHECKERS_PER_SERVER = 2


def play(api: list[Api], game_id: str, organiser: str, commands: int | None = None) -> int:
    """Random legal moves (all of them, or ``commands``), sent for the waiting seat by the organiser through
    alternating servers; the version reached."""
    chooser = random.Random(7)
    view = api[0].get(f"/games/{game_id}", organiser).json()
    version, waiting, turn = view["version"], view["waiting_for"], 0
    while waiting and turn != commands:
        server, turn = api[turn % len(api)], turn + 1
        seat = waiting[0]
        moves = server.get(f"/games/{game_id}/legal-moves", organiser, params={"seat": seat}).json()["moves"]
        moved = server.post(f"/games/{game_id}/moves", organiser,
                            json={**chooser.choice(moves), "seat": seat, "expected_version": version})
        assert moved.status_code == 201, moved.text
        version, waiting = moved.json()["version"], moved.json()["waiting_for"]
    return version


def score_in_a_worker_process(redis_url: str, data_dir: str, export_dir: Path) -> None:
    """A real worker (same data folder, so the same snapshot key) drains the queue: the scoring job."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "workers.worker", "--url", redis_url, "--export-dir", str(export_dir), "--burst"],
        cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "CAIRN_DATA_DIR": data_dir},
    )
    try:
        assert worker.wait(timeout=120) == 0
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def test_integrity_checks_during_play_and_scoring_find_no_break(api_config, redis_server, tmp_path):
    api_config["SNAPSHOT_EVERY"] = 5
    servers = [serve(api_config), serve(api_config)]
    api = [Api(next(server)) for server in servers]
    created = api[0].create("borealis", 2, seed="integrity-under-load")
    game_id, organiser = created["game_id"], created["organiser_token"]
    done = threading.Event()
    tally: Counter = Counter()
    versions_seen: set[int] = set()
    wrong: list = []
    lock = threading.Lock()

    def check(server: Api) -> None:
        """``/integrity`` as fast as it answers; a wrong answer is any refusal, break or bad snapshot, or a
        version older than one this thread already saw."""
        client, last = Api(server.base), 0
        while not done.is_set():
            try:
                response = client.get(f"/games/{game_id}/integrity")
                body = response.json()
                bad = (response.status_code != 200 or not body["ok"] or body["first_bad_version"] is not None
                       or (body["snapshot"] is not None and not body["snapshot"]["ok"]) or body["version"] < last)
            except Exception as error:  # noqa: BLE001 - any failure of a check is a wrong answer, counted
                body, bad = {"error": repr(error)}, True
            with lock:
                tally["checks"] += 1
                tally["with a snapshot"] += body.get("snapshot") is not None
                versions_seen.add(body.get("version", 0))
                if bad:
                    wrong.append(body)
            last = body.get("version", last)

    def seen(version: int) -> bool:
        with lock:
            return version in versions_seen

    def load_cold() -> None:
        """A process with no cache, again and again: each load rewrites the snapshot as the game moves on."""
        client = redis.Redis.from_url(redis_server.url, decode_responses=True)
        key = snapshot_key.resolve(None, api_config["DATA_DIR"])
        while not done.is_set():
            EventStore(client, snapshot_every=5, snapshot_key=key).load(game_id)
        client.close()

    threads = [threading.Thread(target=check, args=(server,)) for server in api for _ in range(CHECKERS_PER_SERVER)]
    threads.append(threading.Thread(target=load_cold))
    for thread in threads:
        thread.start()
    try:
        ended = play(api, game_id, organiser)
        score_in_a_worker_process(redis_server.url, api_config["DATA_DIR"], tmp_path / "exports")
        scored = api[0].get(f"/games/{game_id}/score").json()
        deadline = time.monotonic() + 30
        while not seen(scored["version"]) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        done.set()
        for thread in threads:
            thread.join(timeout=60)
        for server in servers:
            server.close()
    assert scored["version"] == ended + 1
    print(f"\nintegrity checks: {tally['checks']}, with a snapshot: {tally['with a snapshot']}, "
          f"versions seen: {len(versions_seen)}, wrong: {len(wrong)}")
    assert wrong == []
    assert {ended, ended + 1} <= versions_seen, "checks ran while the game ended and while it was scored"
    assert len(versions_seen) > 50 and tally["with a snapshot"] > 0
