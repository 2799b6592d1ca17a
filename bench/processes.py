"""Moves as the API's processes grow from 1 to 2 to 4: what each move costs, and its Redis round trips.

``cairn serve --workers N`` for N = 1, 2 and 4, each beside the baseline
app under the same gunicorn command with N processes, all on one private
Redis and up at once; the rounds go through them in turn (baseline, then
Cairn's scripted submission, 32 clients), with clients keeping their
connections alive and with a new connection per request.

Each API process caches the games it folded. A move that reaches a process
whose copy of the game is behind (the other processes appended since) first
reads the missing events, and only those (``XRANGE`` from its cached
version), then appends: one more round trip. A client that keeps its
connection is served by one process for all its moves, so its game's moves
go to one process and never catch up; with a connection per request the
kernel hands each to any process. Outside the timed rounds, Redis MONITOR
counts the commands of 300 moves of 8 clients at each size.

Run from the repository root: ``python -m bench.processes``.
"""
from __future__ import annotations

import contextlib
import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench._loadgen import Outcome
from bench._servers import BASELINE_APP, Served, bench_env, cairn_serve, serve
from bench.http import (
    ROUNDS,
    SECONDS,
    appender,
    commands_per_move,
    cpu_ms,
    drive,
    machine_line,
    per_request,
    percentile,
    pooled,
    scripted,
    spread,
    submitters,
    warm_up,
)
from service.redis_server import RedisServer

SIZES = (1, 2, 4)
CLIENTS = 32


def main() -> int:
    print(machine_line())
    print(f"processes: cairn serve --workers N beside the baseline under the same gunicorn command, N = "
          f"{', '.join(map(str, SIZES))}; one private Redis; {ROUNDS} rounds of {SECONDS:g} s through the sizes in "
          f"turn, {CLIENTS} clients submitting scripted Borealis moves")
    scripts = scripted()
    runs: dict[tuple[int, bool], tuple[list[Outcome], list[Outcome]]] = {
        (size, kept): ([], []) for size in SIZES for kept in (True, False)}
    sent = {}
    with tempfile.TemporaryDirectory(prefix="cairn-bench-processes-") as name, contextlib.ExitStack() as stack:
        folder = Path(name)
        server = RedisServer(folder / "redis").start()
        stack.callback(server.stop)
        env = bench_env(server.url)
        running: dict[int, tuple[Served, Served]] = {}
        for size in SIZES:
            running[size] = (stack.enter_context(serve("gthread", BASELINE_APP, env, folder, workers=size)),
                             stack.enter_context(cairn_serve(env, folder, workers=size)))
            warm_up(running[size][0].port, running[size][1].port, scripts)
        for _round in range(ROUNDS):
            for kept in (True, False):
                for size, (baseline, cairn) in running.items():
                    base, ours = runs[size, kept]
                    base.append(drive(baseline.port, appender, CLIENTS, SECONDS, (*baseline.pids(),
                                                                                  server.process.pid), kept))
                    ours.append(drive(cairn.port, submitters(scripts), CLIENTS, SECONDS,
                                      (*cairn.pids(), server.process.pid), kept))
        for size, (_baseline, cairn) in running.items():
            for kept in (True, False):
                sent[size, kept] = commands_per_move(server.url, cairn.port, submitters(scripts), 8, kept)
    print(f"load average {' '.join(f'{n:.2f}' for n in os.getloadavg())} at end")
    print(f"  {'API processes':>13} {'connections':<12} | {'baseline req/s':>14} | {'Cairn moves/s':>13} {'p99 ms':>6} "
          f"{'CPU ms':>6} | {'ratio min/med/max':>18} | Redis commands per move (8 clients)")
    for (size, kept), (base, ours) in sorted(runs.items(), key=lambda item: (not item[0][1], item[0][0])):
        counts, moves = sent[size, kept]
        connections = "kept" if kept else "per request"
        print(f"  {size:>13} {connections:<12} | {statistics.median(r.rate for r in base):>14,.0f}"
              f" | {statistics.median(r.rate for r in ours):>13,.0f} {percentile(pooled(ours), 0.99):>6.1f} "
              f"{cpu_ms(ours):>6.2f} | "
              f"{spread([o.rate / b.rate for o, b in zip(ours, base, strict=True) if b.rate]):>18} | "
              f"{per_request(counts, moves)}")
    print("  CPU ms: server CPU (cairn serve's every process + Redis) per move")
    errors = sorted({error for base, ours in runs.values() for run in [*base, *ours] for error in run.errors})
    for error in errors:
        print(f"  error: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
