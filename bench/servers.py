"""The HTTP server Cairn ships beside the others it could ship: throughput, CPU, access log and live streams.

Every kind of :data:`bench._servers.KINDS` (gunicorn ``gthread`` as ``cairn
serve`` runs it, the same without its access log, gunicorn ``sync``, granian
WSGI with and without its access log) serves both the one-append baseline
app of ``bench.http`` and Cairn, 2 processes each, on one private Redis. All
of them are up at once and the rounds go through the kinds in turn, so the
machine's other load falls on every kind alike: per round the baseline,
then Cairn's scripted submission, at 32 clients keeping their connections
alive; the ratio is per round.

Then each kind's live streams are checked (``GET /games/{id}/stream``, with
keep-alive comments every second): 8 streams are held open for 3.5 s while
a move is made and 10 reads are sent beside them. A kind holds streams when
every stream keeps its keep-alive comments and gets the move's event, and no
read waits more than a second. Last, what an access log line costs: each
logger's CPU per line of a move's request, measured in this process (the
CPU figures of the servers move with the machine's load; this one barely).

Run from the repository root: ``python -m bench.servers``.
"""
from __future__ import annotations

import contextlib
import datetime
import logging
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench._loadgen import Outcome
from bench._servers import BASELINE_APP, KINDS, BlockingClient, Served, bench_env, serve
from bench.http import (
    ROUNDS,
    SECONDS,
    Script,
    appender,
    cpu_ms,
    drive,
    machine_line,
    percentile,
    pooled,
    scripted,
    spread,
    submitters,
    warm_up,
)
from service.cli import API_APP
from service.redis_server import RedisServer

CLIENTS = 32
STREAMS = 8
KEEPALIVE_SECONDS = 1
HELD_SECONDS = 3.5
READS = 10
READ_LIMIT_SECONDS = 1.0
LOG_LINES = 20_000


@dataclass
class Figures:
    """One kind's paired rounds."""

    baseline: list[Outcome] = field(default_factory=list)
    cairn: list[Outcome] = field(default_factory=list)

    def ratios(self) -> list[float]:
        return [ours.rate / base.rate for ours, base in zip(self.cairn, self.baseline, strict=True) if base.rate]


@dataclass
class StreamCheck:
    keepalives: list[int]
    saw_move: list[bool]
    read_seconds: list[float]
    read_failures: int

    @property
    def held(self) -> bool:
        return (all(count >= 2 for count in self.keepalives) and all(self.saw_move) and not self.read_failures
                and max(self.read_seconds, default=0.0) <= READ_LIMIT_SECONDS)

    def summary(self) -> str:
        slowest = f"{max(self.read_seconds) * 1000:.0f} ms" if self.read_seconds else "none answered"
        return (f"{'held' if self.held else 'NOT held'}: keep-alives per stream {min(self.keepalives)}-"
                f"{max(self.keepalives)}, move seen by {sum(self.saw_move)}/{len(self.saw_move)} streams, "
                f"reads beside them: slowest {slowest}, {self.read_failures} failed")


def _follow(port: int, path: str, until: float, seen: dict[str, int | bool]) -> None:
    """Read a stream until ``until``, counting its keep-alive comments and noting an event with an id."""
    with socket.create_connection(("127.0.0.1", port), timeout=1.0) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        received = b""
        while time.monotonic() < until:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                break
            received += chunk
            seen["keepalives"] = received.count(b": keep-alive")
            seen["move"] = b"\nid: " in received or received.startswith(b"id: ")


def check_streams(port: int, plan: Script) -> StreamCheck:
    """Hold ``STREAMS`` streams of one game open, make a move and read beside them."""
    client = BlockingClient(port, timeout=HELD_SECONDS + 5)
    _status, created, _ = client.call("POST", "/games", {"game": "borealis", "players": plan.players,
                                                         "chance_mode": "server", "seed": plan.seed})
    game_id, tokens = created["game_id"], {seat["seat"]: seat["token"] for seat in created["seats"]}
    until = time.monotonic() + HELD_SECONDS
    seen = [{"keepalives": 0, "move": False} for _ in range(STREAMS)]
    followers = [threading.Thread(target=_follow, args=(port, f"/games/{game_id}/stream", until, record), daemon=True)
                 for record in seen]
    for follower in followers:
        follower.start()
    time.sleep(0.5)
    reads, failures = [], 0
    reader = BlockingClient(port, timeout=READ_LIMIT_SECONDS * 3)
    with contextlib.suppress(OSError):
        seat, move, version = plan.moves[0]
        reader.call("POST", f"/games/{game_id}/moves", move, {"Authorization": f"Bearer {tokens[seat]}",
                                                             "If-Match": f'"{version}"',
                                                             "Idempotency-Key": uuid.uuid4().hex})
    for _ in range(READS):
        try:
            status, _body, seconds = reader.call("GET", f"/games/{game_id}")
            if status == 200:
                reads.append(seconds)
            else:
                failures += 1
        except OSError:
            failures += 1
    for follower in followers:
        follower.join(HELD_SECONDS + 5)
    return StreamCheck([int(record["keepalives"]) for record in seen], [bool(record["move"]) for record in seen],
                       reads, failures)


class _Answer:
    status, sent, headers = "201 CREATED", 900, [("Content-Type", "application/json")]


class _Asked:
    headers = [("AUTHORIZATION", "Bearer seat-token-of-the-bench"), ("HOST", "127.0.0.1")]


def access_log_cost(folder: Path) -> dict[str, float]:
    """CPU microseconds per access log line of a move's request, each logger writing ``LOG_LINES`` lines to a
    file in this process: gunicorn's logger with the redaction of :mod:`service.gunicorn_config` and without,
    and granian's (its default format, which leaves the query string out)."""
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    from service.gunicorn_config import RedactingLogger

    environ = {"REQUEST_METHOD": "POST", "RAW_URI": "/games/3f2a9c/moves?include=legal_moves,view",
               "PATH_INFO": "/games/3f2a9c/moves", "QUERY_STRING": "include=legal_moves,view",
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "HTTP_USER_AGENT": "bench",
               "HTTP_AUTHORIZATION": "Bearer seat-token-of-the-bench"}
    took = datetime.timedelta(milliseconds=2)
    costs = {}
    for name, logger_class in (("gunicorn, redacted (as shipped)", RedactingLogger), ("gunicorn", Logger)):
        config = Config()
        config.set("accesslog", str(folder / f"{logger_class.__name__}.log"))
        logger = logger_class(config)
        costs[name] = _per_line(lambda logger=logger: logger.access(_Answer(), _Asked(), environ, took))
    with contextlib.suppress(ImportError):
        from granian.log import DEFAULT_ACCESSLOG_FMT, access_logger, log_request_builder

        handler = logging.FileHandler(folder / "granian.log")
        access_logger.addHandler(handler)
        access_logger.setLevel(logging.INFO)
        access_logger.propagate = False
        log = log_request_builder(DEFAULT_ACCESSLOG_FMT)
        asked = {"addr_remote": "127.0.0.1", "path": "/games/3f2a9c/moves", "qs": "include=legal_moves,view",
                 "method": "POST", "scheme": "http", "protocol": "HTTP/1.1"}
        costs["granian"] = _per_line(lambda: log(time.time(), time.perf_counter(), asked, 201))
        access_logger.removeHandler(handler)
        handler.close()
    return costs


def _per_line(write: Callable[[], object]) -> float:
    started = time.process_time()
    for _ in range(LOG_LINES):
        write()
    return (time.process_time() - started) / LOG_LINES * 1e6


def main() -> int:
    print(machine_line())
    print(f"servers: every kind serves the baseline and Cairn, 2 processes each, one private Redis (AOF, everysec); "
          f"{ROUNDS} rounds of {SECONDS:g} s through the kinds in turn, {CLIENTS} clients keeping their "
          "connections alive, Cairn submitting scripted Borealis moves")
    for kind in KINDS.values():
        print(f"  {kind.name:<15} {kind.summary}")
    scripts = scripted()
    figures = {name: Figures() for name in KINDS}
    checks: dict[str, StreamCheck] = {}
    logged: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="cairn-bench-servers-") as name, contextlib.ExitStack() as stack:
        folder = Path(name)
        server = RedisServer(folder / "redis").start()
        stack.callback(server.stop)
        env = {**bench_env(server.url), "CAIRN_STREAM_KEEPALIVE_SECONDS": str(KEEPALIVE_SECONDS)}
        running: dict[str, tuple[Served, Served]] = {}
        for kind in KINDS:
            running[kind] = (stack.enter_context(serve(kind, BASELINE_APP, env, folder)),
                             stack.enter_context(serve(kind, API_APP, env, folder)))
        for baseline, cairn in running.values():
            warm_up(baseline.port, cairn.port, scripts)
        for _round in range(ROUNDS):
            for kind, (baseline, cairn) in running.items():
                before = cairn.log_lines()
                figures[kind].baseline.append(drive(baseline.port, appender, CLIENTS, SECONDS,
                                                    (*baseline.pids(), server.process.pid)))
                figures[kind].cairn.append(drive(cairn.port, submitters(scripts), CLIENTS, SECONDS,
                                                 (*cairn.pids(), server.process.pid)))
                logged[kind] = logged.get(kind, 0) + cairn.log_lines() - before
        for kind, (_baseline, cairn) in running.items():
            checks[kind] = check_streams(cairn.port, scripts[0])
        logging_costs = access_log_cost(folder)
    print(f"load average {' '.join(f'{n:.2f}' for n in os.getloadavg())} at end")
    print(f"  {'server':<15} | {'baseline req/s':>14} {'CPU ms':>6} | {'Cairn moves/s':>13} {'p99 ms':>6} "
          f"{'CPU ms':>6} | {'ratio min/med/max':>18} | {'log lines/move':>14} | live streams")
    for kind, shown in figures.items():
        steps = sum(run.steps for run in shown.cairn)
        print(f"  {kind:<15} | {statistics.median(r.rate for r in shown.baseline):>14,.0f} "
              f"{cpu_ms(shown.baseline):>6.2f} | {statistics.median(r.rate for r in shown.cairn):>13,.0f} "
              f"{percentile(pooled(shown.cairn), 0.99):>6.1f} {cpu_ms(shown.cairn):>6.2f} | "
              f"{spread(shown.ratios()):>18} | {logged.get(kind, 0) / max(1, steps):>14.2f} | {checks[kind].summary()}")
    print("  CPU ms: server CPU (its every process + Redis) per request; log lines per move: the Cairn server's log "
          "file's growth over its timed moves (the access log writes one a request)")
    move_ms = cpu_ms(figures["gthread"].cairn)
    print(f"access log, CPU per line of a move's request in this process ({LOG_LINES:,} lines to a file), and its "
          f"share of a move's server CPU under gthread ({move_ms:.2f} ms):")
    for name, micros in logging_costs.items():
        print(f"  {name:<32} {micros:6.1f} us  {micros / 10 / move_ms:5.1f} %")
    errors = sorted({error for shown in figures.values() for run in [*shown.baseline, *shown.cairn]
                     for error in run.errors})
    for error in errors:
        print(f"  error: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
