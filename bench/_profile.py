"""Where a move's time goes in ``cairn serve`` under 32 clients: a py-spy flame graph and a table of shares.

``python -m bench._profile [SECONDS] [play]`` starts ``cairn serve`` as shipped on a private Redis, drives 32
clients keeping their connections (the scripted Borealis submissions of :mod:`bench.http`, or with ``play``
its players, one request a move with ``?include=legal_moves,view``), and samples
every process of the server with py-spy for the whole timed run: ``--subprocesses``, and ``--gil``, only
the thread holding the interpreter, so that a sample is Python CPU (py-spy otherwise counts a thread
blocked in ``recv`` on Redis's reply as busy). It writes ``bench/profiles/move-32.svg`` (the flame graph)
and ``move-32.txt.gz`` (the collapsed stacks, gzipped to keep; ``play-32`` for the players), and
prints, for the parts of a move named in :data:`PARTS`, the share of the server's samples whose stack
passes through them. py-spy needs ptrace (root, or ``CAP_SYS_PTRACE`` in a container); it is not a
dependency of ``./run bench``, only of this script.
"""
from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench._servers import bench_env, cairn_serve
from bench.http import cpu_seconds, drive, machine_line, players, scripted, submitters
from service.redis_server import RedisServer

OUT = Path(__file__).parent / "profiles"
CLIENTS = 32
SAMPLES_A_SECOND = 250
# (label, the frame text a stack passes through): each is a part of a move, most outer first.
PARTS = (
    ("gunicorn: reading the request, writing the answer", "gunicorn/"),
    ("  of it: the WSGI app (Flask)", "wsgi_app (flask/app.py"),
    ("    the before-request hooks (prelude, admission)", "preprocess_request (flask/app.py"),
    ("    the move view (service.api.moves.submit)", "submit (service/api/moves.py"),
    ("      reading and validating the body", "load (service/api/schemas.py"),
    ("      deciding and folding (domain)", "submit_and_fold (domain/core/match.py"),
    ("      the append (EventStore.append)", "append (service/store/store.py"),
    ("        sealing the envelopes", "_seal_batch (service/store/store.py"),
    ("        the Redis call (redis-py)", "__call__ (redis/commands/core.py"),
    ("      the answer's body (_move_response)", "_move_response (service/api/moves.py"),
    ("    the after-request hooks (CORS, compression, headers)", "process_response (flask/app.py"),
    ("    Flask's response (make_response, JSON)", "make_response (flask/app.py"),
    ("  the access log (the request thread's part)", "RedactingLogger.access (service/gunicorn_config.py"),
    ("the access log's writer thread", "LineWriter.run (service/gunicorn_config.py"),
    ("the RQ worker and the supervisor", "rq/"),
)


def shares(collapsed: Path) -> tuple[int, list[tuple[str, float]]]:
    """The busy samples, and each part's share of them (a stack counted once per part it passes through)."""
    total, seen = 0, Counter[str]()
    for line in gzip.decompress(collapsed.read_bytes()).decode().splitlines():
        stack, _, count = line.rpartition(" ")
        samples = int(count)
        total += samples
        for label, frame in PARTS:
            if frame in stack:
                seen[label] += samples
    return total, [(label, 100 * seen[label] / max(1, total)) for label, _frame in PARTS]


def spy_command(spy: str, pid: int, seconds: float, form: str, path: Path) -> list[str]:
    """py-spy sampling ``pid`` and its children's Python CPU a little past a run of ``seconds``."""
    return [spy, "record", "--pid", str(pid), "--subprocesses", "--rate", str(SAMPLES_A_SECOND), "--gil",
            "--duration", str(int(seconds) + 2), "--format", form, "--output", str(path), "--nonblocking"]


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else 20.0
    playing = argv[1:2] == ["play"]
    profile = f"{'play' if playing else 'move'}-{CLIENTS}"
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    OUT.mkdir(exist_ok=True)
    print(machine_line())
    scripts = scripted()
    with tempfile.TemporaryDirectory(prefix="cairn-profile-") as name:
        folder = Path(name)
        server = RedisServer(folder / "redis").start()
        try:
            with cairn_serve(bench_env(server.url), folder) as cairn:
                drive(cairn.port, submitters(scripts), 8, 2.0)
                outputs = {"flamegraph": OUT / f"{profile}.svg", "raw": OUT / f"{profile}.txt"}
                spies = [subprocess.Popen(spy_command(spy, cairn.process.pid, seconds, form, path),
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                         for form, path in outputs.items()]
                redis_cpu = cpu_seconds((server.pid,))
                clients = players(scripts, "profile") if playing else submitters(scripts)
                outcome = drive(cairn.port, clients, CLIENTS, seconds, servers=cairn.pids())
                redis_cpu = cpu_seconds((server.pid,)) - redis_cpu
                for spy_process in spies:
                    spy_process.wait()
                kept = outputs["raw"].with_suffix(".txt.gz")
                kept.write_bytes(gzip.compress(outputs["raw"].read_bytes(), 9))
                outputs["raw"].unlink()
                outputs["raw"] = kept
        finally:
            server.stop()
    latencies = sorted(outcome.latencies)
    p99 = 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else 0.0
    print(f"{CLIENTS} clients, {outcome.steps:,} moves in {outcome.seconds:.1f} s: {outcome.rate:,.0f} moves/s, "
          f"p99 {p99:.1f} ms, server CPU {1000 * outcome.server_cpu / max(1, outcome.steps):.2f} ms a move "
          f"(py-spy's sampling included), Redis CPU {1000 * redis_cpu / max(1, outcome.steps):.2f} ms a move")
    total, parts = shares(outputs["raw"])
    python_ms = 1000 * total / SAMPLES_A_SECOND / max(1, outcome.steps)
    print(f"busy samples of the server's processes: {total:,}, {python_ms:.3f} ms of Python a move; share of them "
          "passing through, and ms a move:")
    for label, share in parts:
        print(f"  {label:<60} {share:5.1f} %  {python_ms * share / 100:.3f} ms")
    print(f"flame graph: {outputs['flamegraph']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
