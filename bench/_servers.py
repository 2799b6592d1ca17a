"""The HTTP servers the benchmarks start: ``cairn serve`` itself, and the same apps under other servers.

``cairn serve`` is run as a user runs it (its supervisor, gunicorn ``gthread``
with the access log of :mod:`service.gunicorn_config`, and an RQ worker), on
the benchmark's Redis. The other servers serve the same WSGI apps, so that
a figure beside them differs by the server alone: gunicorn ``sync``,
gunicorn ``gthread`` without the access log, and granian (a Rust HTTP server
with a WSGI interface) with and without its access log. Every server writes
its logs to a file, as a container's logs go to the engine, not to a
terminal.
"""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from service.api.admission import DEFAULT_TURNS
from service.cli import API_APP, api_command
from service.redis_server import free_port

ROOT = Path(__file__).resolve().parents[1]
BASELINE_APP = "bench.http:baseline_app()"
THREADS = 256  # what cairn serve and the image ship
START_SECONDS = 90.0
STOP_SECONDS = 20.0


@dataclass(frozen=True)
class Kind:
    """A way to serve a WSGI app: its name, what it is, and its command line for an app, a port and workers."""

    name: str
    summary: str
    command: Callable[[str, int, int], list[str]]


def _gthread(app: str, port: int, workers: int) -> list[str]:
    return api_command("127.0.0.1", port, workers, THREADS, app)


def _gthread_quiet(app: str, port: int, workers: int) -> list[str]:
    return [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
            "--worker-class", "gthread", "--threads", str(THREADS), app]


def _sync(app: str, port: int, workers: int) -> list[str]:
    return [sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_config", "--bind", f"127.0.0.1:{port}",
            "--workers", str(workers), "--worker-class", "sync", app]


def _granian(access_log: bool) -> Callable[[str, int, int], list[str]]:
    def command(app: str, port: int, workers: int) -> list[str]:
        factory = app.removesuffix("()")
        return [str(Path(sys.executable).with_name("granian")), "--interface", "wsgi", "--host", "127.0.0.1",
                "--port", str(port), "--workers", str(workers), "--blocking-threads", str(THREADS),
                "--access-log" if access_log else "--no-access-log", "--factory", factory]
    return command


KINDS = {
    kind.name: kind for kind in (
        Kind("gthread", f"gunicorn gthread, {THREADS} threads a process, access log (as cairn serve ships)", _gthread),
        Kind("gthread-no-log", f"gunicorn gthread, {THREADS} threads a process, no access log", _gthread_quiet),
        Kind("sync", "gunicorn sync (a process a request), access log", _sync),
        Kind("granian", f"granian WSGI, {THREADS} blocking threads a process, access log", _granian(True)),
        Kind("granian-no-log", f"granian WSGI, {THREADS} blocking threads a process, no access log",
             _granian(False)),
    )
}


@dataclass
class Served:
    """A running server: its port, its process (the root of the tree of processes serving) and its log."""

    port: int
    process: subprocess.Popen
    log: Path

    def pids(self) -> tuple[int, ...]:
        """The process and every process under it (gunicorn's workers, the supervisor's children)."""
        found, todo = [], [self.process.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            with contextlib.suppress(OSError):
                for task in Path(f"/proc/{pid}/task").iterdir():
                    todo.extend(int(child) for child in (task / "children").read_text().split())
        return tuple(found)

    def log_lines(self) -> int:
        return len(self.log.read_bytes().splitlines()) if self.log.exists() else 0


def bench_env(redis_url: str) -> dict[str, str]:
    """The apps' settings: the benchmark's Redis, and the rate limit raised out of the way (it is a policy, not
    a cost; the buckets are still charged on every request)."""
    return {**os.environ, "REDIS_URL": redis_url, "CAIRN_RATE_LIMIT": "1000000", "CAIRN_RATE_BURST": "1000000",
            "PYTHONPATH": str(ROOT)}


@contextlib.contextmanager
def run(argv: list[str], env: dict[str, str], port: int, log: Path) -> Iterator[Served]:
    """Start ``argv`` in a process group of its own; yield once ``port`` answers HTTP; stop the whole group."""
    with log.open("ab") as out:
        process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, process_group=0)
    served = Served(port, process, log)
    try:
        _wait_until_serving(served)
        yield served
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=STOP_SECONDS)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def serve(kind: str, app: str, env: dict[str, str], folder: Path, workers: int = 2,
          ) -> contextlib.AbstractContextManager[Served]:
    """``app`` under the server ``kind`` of :data:`KINDS`."""
    port = free_port()
    return run(KINDS[kind].command(app, port, workers), env, port, folder / f"{kind}-{port}.log")


def cairn_serve(env: dict[str, str], folder: Path, workers: int = 2) -> contextlib.AbstractContextManager[Served]:
    """``cairn serve`` itself, on the Redis at the environment's ``REDIS_URL``, with its RQ worker."""
    port = free_port()
    argv = [sys.executable, "-m", "service.cli", "--data-dir", str(folder / f"data-{port}"), "serve",
            "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    return run(argv, env, port, folder / f"cairn-serve-{port}.log")


def cairn_serve_line(workers: int = 2) -> str:
    """What :func:`cairn_serve` runs, and the API command it starts, for the benchmark's header."""
    gunicorn = " ".join(["gunicorn", *api_command("127.0.0.1", 0, workers, THREADS)[3:-1], repr(API_APP)])
    return (f"cairn serve --workers {workers} (its supervisor, an RQ worker, and: "
            f"{gunicorn.replace('127.0.0.1:0', '127.0.0.1:PORT')}; "
            f"CAIRN_CONCURRENT_REQUESTS={os.environ.get('CAIRN_CONCURRENT_REQUESTS', DEFAULT_TURNS)}, 0 being no "
            "limit)")


class BlockingClient:
    """One keep-alive connection for requests outside the timed runs (it reopens itself when a server closes)."""

    def __init__(self, port: int, timeout: float = 60.0):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None,
             ) -> tuple[int, dict | None, float]:
        """Status, JSON body and seconds from sending the request to reading the whole answer."""
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json", **(headers or {})}
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            raise
        seconds = time.perf_counter() - started
        if response.will_close:
            self.connection.close()
        is_json = "json" in (response.getheader("Content-Type") or "")
        return response.status, json.loads(raw) if raw and is_json else None, seconds


def _wait_until_serving(served: Served) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            BlockingClient(served.port, timeout=10).call("GET", "/bench-ready")
            return
        except (OSError, http.client.HTTPException):
            if served.process.poll() is not None or time.monotonic() > deadline:
                tail = served.log.read_text(errors="replace")[-2000:] if served.log.exists() else ""
                raise RuntimeError(f"the server on port {served.port} did not start:\n{tail}") from None
            time.sleep(0.2)
