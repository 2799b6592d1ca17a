"""Memory of one API process after loading 1,000 games, beside the trivial one-append app of ``bench.http``.

Each app runs as gunicorn with one sync worker on a private Redis; the
worker's resident set (``VmRSS``) and its peak (``VmHWM``) are read from
``/proc``. For Cairn: after booting; after one Borealis game was created and
read (so the code paths and the game's data files are loaded: the
"before"); after creating 1,000 Borealis games (2, 3 and 4 seats in turn)
through the API; after GETting each of them (which folds each game and
keeps the most recent in the process's match cache, which is bounded); after
GETting each once more, to show the process does not keep growing.
The baseline worker is read after booting and after 1,000 appends. Redis's
own ``used_memory`` for the games is shown for scale.

Run from the repository root: ``python -m bench.memory``.
"""
from __future__ import annotations

import inspect
import os
import sys
import tempfile
from pathlib import Path

import redis

from bench._servers import BASELINE_APP, BlockingClient, Served, bench_env, serve
from bench.http import baseline_payload
from service.api.matches import MatchCache
from service.cli import API_APP
from service.redis_server import RedisServer

GAMES = 1_000


def memory_mib(pid: int) -> tuple[float, float]:
    """Resident and peak resident MiB of ``pid``."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def show(label: str, pid: int, start: float | None = None) -> float:
    resident, peak = memory_mib(pid)
    grown = f"  (+{resident - start:6.1f} MiB)" if start is not None else ""
    print(f"  {label:<44} RSS {resident:7.1f} MiB  peak {peak:7.1f} MiB{grown}")
    return resident


def create_game(client: BlockingClient, number: int) -> str:
    players = [f"Player {n}" for n in range(1, 2 + number % 3 + 1)]
    status, created, _ = client.call("POST", "/games", {"game": "borealis", "players": players,
                                                        "seed": f"bench-memory-{number}"})
    if status != 201:
        raise RuntimeError(f"creating a game answered {status}: {created}")
    return created["game_id"]


def read_game(client: BlockingClient, game_id: str) -> None:
    status, shown, _ = client.call("GET", f"/games/{game_id}")
    if status != 200:
        raise RuntimeError(f"reading a game answered {status}: {shown}")


def worker(served: Served) -> int:
    """The one worker of a gunicorn master."""
    _master, pid = served.pids()
    return pid


def bench_cairn(env: dict[str, str], store: redis.Redis, folder: Path) -> None:
    cache_size = inspect.signature(MatchCache).parameters["size"].default
    print(f"Cairn API (service.app:create_app(), gunicorn 1 sync worker; match cache of {cache_size} games)")
    with serve("sync", API_APP, env, folder, workers=1) as served:
        pid, client = worker(served), BlockingClient(served.port)
        client.call("GET", "/rules")
        show("booted, one GET /rules", pid)
        read_game(client, create_game(client, -1))
        before = show("one game created and read (before)", pid)
        redis_before = store.info("memory")["used_memory"]
        game_ids = [create_game(client, number) for number in range(GAMES)]
        show(f"{GAMES:,} games created", pid, before)
        for game_id in game_ids:
            read_game(client, game_id)
        after = show(f"{GAMES:,} games read (GET each)", pid, before)
        for game_id in game_ids:
            read_game(client, game_id)
        again = show(f"{GAMES:,} games read again", pid, before)
        redis_games = store.info("memory")["used_memory"] - redis_before
    cached = min(GAMES, cache_size)
    print(f"  per game: {(after - before) * 1024 / GAMES:.1f} KiB after the first reads, "
          f"{(again - before) * 1024 / GAMES:.1f} KiB after the second; {(again - before) * 1024 / cached:.1f} KiB "
          f"per cached game ({cached} cached); Redis holds {redis_games / GAMES / 1024:.1f} KiB per game")


def bench_baseline(env: dict[str, str], folder: Path) -> None:
    print("baseline (bench.http:baseline_app(), gunicorn 1 sync worker)")
    with serve("sync", BASELINE_APP, env, folder, workers=1) as served:
        pid, client = worker(served), BlockingClient(served.port)
        client.call("POST", "/append/memory", baseline_payload(0))
        before = show("booted, one append", pid)
        for number in range(GAMES):
            client.call("POST", f"/append/memory-{number}", baseline_payload(number))
        show(f"{GAMES:,} appends to {GAMES:,} streams", pid, before)


def main() -> int:
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="cairn-bench-memory-") as folder:
        server = RedisServer(Path(folder) / "redis").start()
        try:
            env = bench_env(server.url)
            store = redis.Redis.from_url(server.url)
            bench_baseline(env, Path(folder))
            bench_cairn(env, store, Path(folder))
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
