"""A soak across processes on a real Redis Cluster: three API processes, two workers, bots playing every game.

Starts a local Redis Cluster (three masters with a replica each) and a plain
Redis for the job queue, then three ``cairn serve --no-worker`` processes and
two ``cairn worker`` processes on them. Bots (``tests/bot.py``) play random
legal moves of every game at once, spread over the three API processes, for
``--seconds``; then every game is waited for (scored when ended) and audited
through the API, and every acknowledged move is looked for in its stream.

Targets: zero lost or duplicated moves, zero chain failures, zero
re-adjudication divergences, zero 5xx.

Run from the repository root: ``python -m bench.soak [--seconds 60] [--bots 12]``.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import requests
from redis.cluster import RedisCluster

from service.redis_cluster import LocalCluster
from service.redis_server import RedisServer, free_port
from service.store.keys import game_keys
from tests.bot import GAMES, Bot, Tally

API_PROCESSES = 3
WORKERS = 2
SETTLE_SECONDS = 120.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--bots", type=int, default=12)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cairn-soak-") as folder:
        root = Path(folder)
        cluster = LocalCluster(root / "cluster").start()
        queue = RedisServer(root / "queue").start()
        processes: list[subprocess.Popen] = []
        try:
            env = {**os.environ, "REDIS_CLUSTER_URL": cluster.url, "CAIRN_QUEUE_URL": queue.url,
                   "CAIRN_DATA_DIR": str(root / "data"), "CAIRN_SNAPSHOT_SECRET": "soak",
                   "CAIRN_RATE_LIMIT": "100000", "CAIRN_RATE_BURST": "100000"}
            env.pop("REDIS_URL", None)
            ports = [free_port() for _ in range(API_PROCESSES)]
            for port in ports:
                processes.append(_start([sys.executable, "-m", "service.cli", "serve", "--no-worker", "--port",
                                         str(port), "--workers", "1", "--threads", "32"], env))
                _wait_for(f"http://127.0.0.1:{port}/health")
            processes += [_start([sys.executable, "-m", "service.cli", "worker"], env) for _ in range(WORKERS)]
            return _soak(cluster, ports, args.seconds, args.bots)
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
            queue.stop()
            cluster.stop()


def _start(argv: list[str], env: dict) -> subprocess.Popen:
    return subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_for(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.ConnectionError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s")


def _soak(cluster: LocalCluster, ports: list[int], seconds: float, bot_count: int) -> int:
    tally = Tally()
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    bots = [Bot(bases[n % len(bases)], tally, GAMES, seed=n) for n in range(bot_count)]
    started = time.monotonic()
    threads = [threading.Thread(target=bot.play_until, args=(started + seconds,)) for bot in bots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    played = time.monotonic() - started
    events = tally.moves - sum(1 for versions in tally.acknowledged.values() for h in versions.values() if h is None)
    moves = tally.statuses[201] - len(tally.games)
    print(f"soak: {len(bots)} bots over {len(ports)} API processes and {WORKERS} workers for {played:.0f} s: "
          f"{len(tally.games)} games ({dict(Counter(tally.games.values()))}), {moves} moves acknowledged "
          f"({moves / played:.1f}/s), {events} events")
    print(f"answers during play: {dict(sorted(tally.statuses.items()))}")
    lost, duplicated = _check_streams(cluster, tally)
    audits = _audit_all(bases[0], tally)
    failures = Counter(audit["first_failure"]["check"] for audit in audits.values()
                       if audit and audit["first_failure"])
    chain_failures = sum(1 for game_id in tally.games if not _intact(bases[0], game_id))
    server_errors = sum(count for status, count in tally.statuses.items() if status >= 500)
    print(f"after: {lost} acknowledged moves lost, {duplicated} duplicated, {chain_failures} chain failures, "
          f"{len(audits)} audits ({sum(1 for a in audits.values() if a is None)} unfinished, "
          f"{sum(a['commands_redecided'] for a in audits.values() if a)} commands decided again), failures by check "
          f"{dict(failures)}, {server_errors} answers 5xx")
    ok = not (lost or duplicated or chain_failures or failures or server_errors
              or any(audit is None for audit in audits.values()))
    print("target met" if ok else "TARGET MISSED")
    return 0 if ok else 1


def _check_streams(cluster: LocalCluster, tally: Tally) -> tuple[int, int]:
    """Acknowledged versions missing or stored with another hash; versions stored more than once or out of
    order (a duplicated move would show as both)."""
    lost = duplicated = 0
    with RedisCluster.from_url(cluster.url, decode_responses=True) as client:
        for game_id, versions in tally.acknowledged.items():
            entries = client.xrange(game_keys(game_id).events)
            numbers = [int(entry_id.split("-")[0]) for entry_id, _fields in entries]
            duplicated += len(numbers) - len(set(numbers)) + (numbers != list(range(1, len(numbers) + 1)))
            stored = {int(entry_id.split("-")[0]): fields["e"] for entry_id, fields in entries}
            lost += sum(1 for version, hash_ in versions.items()
                        if version not in stored or (hash_ and f'"hash":"{hash_}"' not in stored[version]))
    return lost, duplicated


def _intact(base: str, game_id: str) -> bool:
    return requests.get(f"{base}/games/{game_id}/integrity", timeout=30).json()["ok"]


def _audit_all(base: str, tally: Tally) -> dict[str, dict | None]:
    """Each game's audit report (``None`` if its job did not finish in time), once ended games are scored."""
    deadline = time.monotonic() + SETTLE_SECONDS
    session = requests.Session()
    for game_id in tally.games:
        while time.monotonic() < deadline and session.get(f"{base}/games/{game_id}").json()["status"] == "ended":
            time.sleep(0.2)
    pending = {}
    for game_id, token in tally.organisers.items():
        answer = session.post(f"{base}/games/{game_id}/audits", headers={"Authorization": f"Bearer {token}"})
        pending[game_id] = (token, answer.json().get("version") or session.get(f"{base}/games/{game_id}").json()[
            "version"])
    reports: dict[str, dict | None] = dict.fromkeys(pending)
    while time.monotonic() < deadline and any(report is None for report in reports.values()):
        for game_id, (token, version) in pending.items():
            if reports[game_id] is None:
                answer = session.get(f"{base}/games/{game_id}/audits/{version}",
                                     headers={"Authorization": f"Bearer {token}"})
                if answer.status_code == 200:
                    reports[game_id] = answer.json()
        time.sleep(0.5)
    return reports


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
