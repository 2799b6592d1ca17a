"""Cairn beside real peers: boardgame.io's server over HTTP, the ``eventsourcing`` library's stores.

* boardgame.io (npm ``boardgame.io``, installed by this bench with npm into
  ``~/.cache/cairn-bench/boardgame.io``; skipped, saying why, where node or
  npm is missing or the install fails): its own server (Koa and socket.io,
  one Node process) on a one-seat game whose every move appends a mark
  (``bench/boardgameio/server.js``), kept in memory and, durable, in its
  ``FlatFile`` storage as shipped (files per match through node-persist,
  whose write queue writes them once a second and answers each move then;
  not fsynced); closed-loop clients over socket.io in a Node process of their
  own (``bench/boardgameio/load.js``); ``flatfile-direct`` is the same
  storage with node-persist's once-a-second write queue off, so each move
  writes its files before it is answered. Cairn: ``cairn serve`` as shipped,
  clients keeping their connections alive and submitting scripted Borealis
  moves (a real game's rules, not a trivial one), AOF ``everysec``. 1, 8 and
  32 clients, rounds paired in turn. Target: Cairn's moves/s >= 1.0 x
  boardgame.io's in-memory server at 32 clients (what its users run), every
  Cairn move durable as shipped; the ratio to its durable storages is shown
  beside it.
* eventsourcing (PyPI ``eventsourcing``, the ``bench`` extra): an aggregate
  saved after each command of 1-3 events, as Cairn's store appends a
  command's events (optimistic concurrency in both), one writer; beside
  ``EventStore.append`` of the same commands (``bench.store``), on a Redis of
  comparable durability: SQLite (WAL, ``synchronous=FULL``: an fsync a
  commit) and PostgreSQL with ``synchronous_commit=on`` beside Redis with
  ``appendfsync always``, PostgreSQL with ``synchronous_commit=off`` beside
  ``appendfsync everysec``. PostgreSQL is used where it answers at
  ``CAIRN_BENCH_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``);
  the bench's tables are dropped afterwards. Target: Cairn's store >= 3x
  eventsourcing on PostgreSQL at each durability.

Run from the repository root: ``python -m bench.peers``.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import importlib.util
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import redis

from bench._servers import bench_env, cairn_serve
from bench.http import (
    CONCURRENCY,
    ROUNDS,
    SECONDS,
    cpu_ms,
    cpu_seconds,
    drive,
    machine_line,
    percentile,
    scripted,
    spread,
    submitters,
    verdict,
)
from bench.store import FILLER, SNAPSHOT_EVERY, SNAPSHOT_KEY, TALLY, batches, store_appends, tally_events
from domain import registry
from domain.core.events import Event
from service.redis_server import RedisServer, free_port
from service.store import EventStore

FOLDER = Path(__file__).parent / "boardgameio"
BOARDGAME_IO = "boardgame.io@0.50.2"
NODE_PERSIST = "node-persist@3"  # boardgame.io's FlatFile storage needs it beside it
STORAGES = ("memory", "flatfile", "flatfile-direct")
DURABLE = ("flatfile", "flatfile-direct")
# The headline: boardgame.io in memory, what its users run; its durable storages are shown beside it.
HTTP_TARGET = 1.0
COMPARED = ("memory", *DURABLE)
STORE_TARGET = 3.0
COMMANDS = 600
STORE_ROUNDS = 3
POSTGRES = os.environ.get("CAIRN_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def cache_folder() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "cairn-bench" / "boardgame.io"


def install_boardgame_io() -> tuple[Path | None, str]:
    """boardgame.io's node_modules folder, installed with npm on first use; or ``None`` and why not."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        return None, f"skipped: {'node' if not node else 'npm'} is not on PATH (boardgame.io runs on Node.js)"
    folder = cache_folder()
    modules = folder / "node_modules"
    stamp = folder / f".installed-{BOARDGAME_IO}-{NODE_PERSIST}"
    if stamp.exists():
        return modules, ""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text(json.dumps({"name": "cairn-bench-peer", "private": True}))
    try:
        subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel", "error", BOARDGAME_IO, NODE_PERSIST],
                       cwd=folder, check=True, capture_output=True, text=True, timeout=600)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        output = getattr(error, "stderr", "") or ""
        return None, f"skipped: npm could not install {BOARDGAME_IO} ({output.strip()[-300:] or error})"
    stamp.touch()
    return modules, ""


@contextlib.contextmanager
def boardgame_io(modules: Path, storage: str, folder: Path) -> Iterator[tuple[int, int]]:
    """boardgame.io's server with ``storage`` (memory or flatfile); yields its port and pid once it listens."""
    port = free_port()
    env = {**os.environ, "NODE_PATH": str(modules)}
    with (folder / f"boardgameio-{storage}.log").open("ab") as log:
        argv = ["node", str(FOLDER / "server.js"), str(port), storage, str(folder / f"bgio-{port}")]
        process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, process_group=0)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"boardgame.io ({storage}) did not start; see {log.name}")
            time.sleep(0.2)
        yield port, process.pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


@dataclass
class Run:
    moves: int
    seconds: float
    latencies: list[float]
    server_cpu: float = 0.0

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


def drive_boardgame_io(modules: Path, port: int, pid: int, clients: int) -> Run:
    """``clients`` boardgame.io clients for ``SECONDS``; the server's CPU over the whole run, set-up included
    (Node's own load generator sets its clients up inside the run)."""
    before = cpu_seconds((pid,))
    finished = subprocess.run(["node", str(FOLDER / "load.js"), str(port), str(clients), str(SECONDS)],
                              env={**os.environ, "NODE_PATH": str(modules)}, capture_output=True, text=True,
                              timeout=SECONDS + 120)
    if finished.returncode != 0:
        raise RuntimeError(f"boardgame.io's clients failed: {finished.stderr.strip()[-800:]}")
    answer = json.loads(finished.stdout.strip().splitlines()[-1])
    return Run(answer["moves"], answer["seconds"], [ms / 1000 for ms in answer["latencies_ms"]],
               cpu_seconds((pid,)) - before)


@dataclass
class Level:
    concurrency: int
    runs: dict[str, list] = field(default_factory=dict)

    def ratios(self, ours: str, theirs: str) -> list[float]:
        return [mine.rate / base.rate for mine, base in zip(self.runs[ours], self.runs[theirs], strict=True)
                if base.rate]


def bench_boardgame_io() -> bool:
    print("HTTP moves: boardgame.io's server (one Node process, socket.io) beside cairn serve (2 processes)")
    modules, why_not = install_boardgame_io()
    if modules is None:
        print(f"  {why_not}")
        return True
    scripts = scripted()
    levels = [Level(concurrency, {storage: [] for storage in (*STORAGES, "cairn")}) for concurrency in CONCURRENCY]
    with tempfile.TemporaryDirectory(prefix="cairn-bench-peers-") as name, contextlib.ExitStack() as stack:
        folder = Path(name)
        redis_server = RedisServer(folder / "redis").start()
        stack.callback(redis_server.stop)
        cairn = stack.enter_context(cairn_serve(bench_env(redis_server.url), folder))
        peers = {storage: stack.enter_context(boardgame_io(modules, storage, folder)) for storage in STORAGES}
        for port, pid in peers.values():
            drive_boardgame_io(modules, port, pid, 8)
        drive(cairn.port, submitters(scripts), 8, 1.0)
        for level in levels:
            for _round in range(ROUNDS):
                for storage, (port, pid) in peers.items():
                    level.runs[storage].append(drive_boardgame_io(modules, port, pid, level.concurrency))
                level.runs["cairn"].append(drive(cairn.port, submitters(scripts), level.concurrency, SECONDS,
                                                 (*cairn.pids(), redis_server.pid)))
    print(f"  {'clients':>7} | " + " | ".join(f"{'bgio ' + storage + ' /s':>22} {'p99':>6}" for storage in STORAGES)
          + f" | {'Cairn moves/s':>13} {'p99':>6} | " + " | ".join(f"{'vs ' + storage:>20}" for storage in COMPARED))
    for level in levels:
        shown = [f"{statistics.median(r.rate for r in level.runs[name]):>22,.0f} "
                 f"{percentile(pooled(level.runs[name]), 0.99):>6.1f}" for name in STORAGES]
        ours = level.runs["cairn"]
        print(f"  {level.concurrency:>7} | " + " | ".join(shown)
              + f" | {statistics.median(r.rate for r in ours):>13,.0f} {percentile(pooled(ours), 0.99):>6.1f} | "
              + " | ".join(f"{spread(level.ratios('cairn', storage)):>20}" for storage in COMPARED))
    print("  bgio: boardgame.io's server; ratios: Cairn's moves/s over boardgame.io's, per round, min / median / max")
    for storage in STORAGES:
        runs = [run for level in levels for run in level.runs[storage]]
        theirs = 1000 * sum(run.server_cpu for run in runs) / max(1, sum(run.moves for run in runs))
        print(f"  server CPU per move, boardgame.io {storage}: {theirs:.2f} ms (its clients' set-up included)")
    print(f"  server CPU per move, Cairn: {cpu_ms([run for level in levels for run in level.runs['cairn']]):.2f} ms "
          "(cairn serve's every process + Redis)")
    top = levels[-1]
    ratio = statistics.median(top.ratios("cairn", "memory"))
    shortfall = f"; boardgame.io does {1 / ratio:.2f} times Cairn's moves" if 0 < ratio < HTTP_TARGET else ""
    print(f"  target Cairn >= {HTTP_TARGET:g} x boardgame.io in memory at {top.concurrency} clients, every Cairn move "
          f"durable as shipped: {verdict(ratio >= HTTP_TARGET)} ({ratio:.2f}{shortfall})")
    durable = min(statistics.median(top.ratios("cairn", storage)) for storage in DURABLE)
    print(f"  beside it: Cairn x boardgame.io durable (the faster of its file storages) at {top.concurrency} clients: "
          f"{durable:.2f}")
    return True


def pooled(runs: list) -> list[float]:
    return [latency for run in runs for latency in run.latencies]


@functools.cache
def tallies() -> tuple[type, type]:
    """The aggregate and the application, made once (the library registers each class by its topic), and only
    where the library is installed."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Tally(Aggregate):
        @event("Started")
        def __init__(self) -> None:
            self.total = 0

        @event("Tallied")
        def tally(self, points: int, note: str) -> None:
            self.total += points

    class CairnBenchTallies(Application):
        pass

    return Tally, CairnBenchTallies


def eventsourcing_rate(env: dict[str, str], commands: list[list[Event]]) -> float:
    """Events per second saving a new aggregate after each command's events."""
    tally_class, application = tallies()
    with _pgoptions(env.get("SYNCHRONOUS_COMMIT")):
        app = application(env=env)
        try:
            tally = tally_class()
            app.save(tally)
            started = time.perf_counter()
            for events in commands:
                for stored in events:
                    tally.tally(stored["data"]["points"], FILLER)
                app.save(tally)
            seconds = time.perf_counter() - started
        finally:
            app.close()
    return sum(len(events) for events in commands) / seconds


@contextlib.contextmanager
def _pgoptions(synchronous_commit: str | None) -> Iterator[None]:
    """libpq's ``PGOPTIONS`` for the connections the library opens meanwhile: the session's durability."""
    if synchronous_commit is None:
        yield
        return
    before = os.environ.get("PGOPTIONS")
    os.environ["PGOPTIONS"] = f"-c synchronous_commit={synchronous_commit}"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PGOPTIONS")
        else:
            os.environ["PGOPTIONS"] = before


def postgres_env(synchronous_commit: str) -> dict[str, str]:
    url = urlparse(POSTGRES)
    return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": url.path.lstrip("/"),
            "POSTGRES_HOST": url.hostname or "127.0.0.1", "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": url.username or "postgres", "POSTGRES_PASSWORD": url.password or "",
            "POSTGRES_SCHEMA": "public", "SYNCHRONOUS_COMMIT": synchronous_commit}


def postgres_reachable() -> str:
    """Why PostgreSQL cannot be used, or ``""``."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (./run bench installs the bench extra)"
    try:
        with psycopg.connect(POSTGRES, connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as error:
        return f"PostgreSQL does not answer at {POSTGRES} ({str(error).strip().splitlines()[0]})"
    return ""


def drop_postgres_tables() -> None:
    import psycopg

    with psycopg.connect(POSTGRES, connect_timeout=3, autocommit=True) as connection:
        connection.execute("DROP TABLE IF EXISTS cairnbenchtallies_events")


def cairn_rate(store: EventStore, commands: list[list[Event]]) -> float:
    seconds, _game = store_appends(store, commands)
    return sum(len(events) for events in commands) / seconds


def bench_eventsourcing() -> bool:
    print(f"store: {COMMANDS} commands of 1-3 events, one writer, {STORE_ROUNDS} paired rounds; events/s")
    if importlib.util.find_spec("eventsourcing") is None:
        print("  skipped: the eventsourcing library is not installed (./run bench installs the bench extra)")
        return True
    registry.register(TALLY)
    commands = batches(tally_events(COMMANDS * 2), [1, 2, 3])[:COMMANDS]
    why_not = postgres_reachable()
    pairs = [("SQLite WAL, synchronous=FULL", {"PERSISTENCE_MODULE": "eventsourcing.sqlite"}, "always")]
    if why_not:
        print(f"  PostgreSQL skipped: {why_not}")
    else:
        pairs += [("PostgreSQL, synchronous_commit=on", postgres_env("on"), "always"),
                  ("PostgreSQL, synchronous_commit=off", postgres_env("off"), "everysec")]
    print(f"  eventsourcing {importlib.metadata.version('eventsourcing')}, psycopg where PostgreSQL answers")
    print(f"  {'eventsourcing on':<36} {'events/s':>9} | {'Cairn on Redis':<24} {'events/s':>9} | "
          f"{'ratio min/med/max':>20}")
    met = True
    with tempfile.TemporaryDirectory(prefix="cairn-bench-peers-store-") as name, contextlib.ExitStack() as stack:
        folder = Path(name)
        for label, env, appendfsync in pairs:
            theirs, ours = [], []
            server = RedisServer(folder / f"redis-{label.split()[0]}-{appendfsync}", appendfsync=appendfsync).start()
            stack.callback(server.stop)
            store = EventStore(redis.Redis.from_url(server.url), snapshot_every=SNAPSHOT_EVERY,
                               snapshot_key=SNAPSHOT_KEY)
            for number in range(STORE_ROUNDS):
                if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
                    env = {**env, "SQLITE_DBNAME": str(folder / f"tallies-{number}.sqlite")}
                else:
                    drop_postgres_tables()
                theirs.append(eventsourcing_rate(env, commands))
                ours.append(cairn_rate(store, commands))
            if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
                drop_postgres_tables()
            ratios = [mine / base for mine, base in zip(ours, theirs, strict=True)]
            ratio = statistics.median(ratios)
            judged = "postgres" in env["PERSISTENCE_MODULE"]
            met &= ratio >= STORE_TARGET or not judged
            print(f"  {label:<36} {statistics.median(theirs):>9,.0f} | {'appendfsync ' + appendfsync:<24} "
                  f"{statistics.median(ours):>9,.0f} | {spread(ratios):>20}"
                  + (f"  target >= {STORE_TARGET:g}: {verdict(ratio >= STORE_TARGET)}" if judged else ""))
    return met


def main() -> int:
    print(machine_line())
    bench_boardgame_io()
    bench_eventsourcing()
    print(f"load average {' '.join(f'{n:.2f}' for n in os.getloadavg())} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
