"""The real ``cairn serve`` in a temporary data folder, and the processes it supervises, found by psutil."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
import requests

from service.redis_server import free_port
from tests.api.conftest import Api

ROLES: dict[str, Callable[[list[str]], bool]] = {
    "redis": lambda cmdline: bool(cmdline) and "redis-server" in cmdline[0],
    "worker": lambda cmdline: "workers.worker" in cmdline,
    "api": lambda cmdline: "gunicorn" in cmdline,
}


@dataclass
class Served:
    """One running ``cairn serve``: its HTTP client, its process and the files its output goes to."""

    api: Api
    process: subprocess.Popen
    stdout: Path
    stderr: Path

    def child(self, role: str) -> psutil.Process | None:
        """The supervised process playing ``role`` (a direct child of ``cairn serve``), if one runs."""
        for child in psutil.Process(self.process.pid).children():
            try:
                if child.status() != psutil.STATUS_ZOMBIE and ROLES[role](child.cmdline()):
                    return child
            except psutil.NoSuchProcess:
                continue
        return None

    def replaced(self, role: str, old_pid: int, timeout: float = 30) -> psutil.Process:
        """The process that took over ``role`` from ``old_pid``, waited for up to ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.child(role)
            if found is not None and found.pid != old_pid:
                return found
            assert self.process.poll() is None, f"cairn serve exited: {self.log()}"
            assert time.monotonic() < deadline, f"no new {role} process within {timeout} s: {self.log()}"
            time.sleep(0.1)

    def log(self) -> str:
        return self.stderr.read_text()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=90)


def wait_until_serving(served: Served, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if served.api.get("/rules").status_code == 200:
                return
        except requests.ConnectionError:
            pass
        assert served.process.poll() is None, f"cairn serve exited early: {served.log()}"
        assert time.monotonic() < deadline, f"cairn serve did not answer within {timeout} s: {served.log()}"
        time.sleep(0.1)


CAIRN = [sys.executable, "-m", "service.cli"]


def serve_arguments(data_dir: Path, port: int, workers: int = 1) -> list[str]:
    return ["--data-dir", str(data_dir), "--appendfsync", "always", "serve", "--port", str(port),
            "--workers", str(workers)]


def serve_env(**settings: str) -> dict[str, str]:
    """The environment without REDIS_URL (so an embedded Redis starts) and without rate limits in the way."""
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    return {**env, "CAIRN_RATE_LIMIT": "100000", "CAIRN_RATE_BURST": "100000", **settings}


@contextmanager
def cairn_serve(folder: Path, workers: int = 1) -> Iterator[Served]:
    """Start ``cairn serve`` on a free port; on exit stop it, and kill whatever it left behind."""
    port = free_port()
    stdout, stderr = folder / "serve.out", folder / "serve.err"
    with stdout.open("w") as out, stderr.open("w") as err:
        process = subprocess.Popen([*CAIRN, *serve_arguments(folder / "data", port, workers)], env=serve_env(),
                                   stdout=out, stderr=err)
    served = Served(Api(f"http://127.0.0.1:{port}"), process, stdout, stderr)
    try:
        wait_until_serving(served)
        yield served
    finally:
        left = psutil.Process(process.pid).children(recursive=True) if process.poll() is None else []
        if process.poll() is None:
            served.stop()
        for leftover in left:
            if leftover.is_running():
                leftover.kill()
