"""Keeps the processes ``cairn serve`` and ``cairn worker`` start running until a signal says stop.

A child that exits is started again after a back-off (0.5 s doubling to 30 s,
back to 0.5 s once it has run for a minute), so a crash loop costs one log
line per attempt instead of a busy machine. The others keep running
meanwhile: the API answers what it can while Redis comes back on the same
port and folder, and redis-py and RQ reconnect by themselves.

Children run in their own process groups, so a Ctrl-C at the terminal reaches
only this process, which stops them in reverse order of start: the API and
the worker finish their requests and jobs before the Redis they use goes.
The group also holds what a child forked (gunicorn's workers, RQ's
scheduler): when the child is gone, the rest of its group is killed, since
an orphan would keep the dead child's Redis connections and listening
socket open (a blocked dequeue on such a connection swallows the next job).
"""
from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from service.redis_server import RedisServer

log = logging.getLogger("cairn")

POLL_SECONDS = 0.2
STOP_SECONDS = 30.0


class StartFailure(Exception):
    """A child could not be started; the message names the cause in one line."""


class Child(Protocol):
    name: str
    # Return codes that mean a restart cannot help, each with what it means.
    fatal: dict[int, str]

    def start(self) -> None:
        """Start the process; raise :class:`StartFailure` if it cannot run."""

    def poll(self) -> int | None:
        """``None`` while it runs, else its return code (negative: the signal that ended it)."""

    def stop(self) -> None:
        """Stop it gracefully, by force after a while."""


@dataclass
class Backoff:
    """Delays between restarts: doubling from ``first`` to ``limit``, reset once a child has run ``settled`` s."""

    first: float = 0.5
    limit: float = 30.0
    settled: float = 60.0
    current: float = 0.0

    def next(self, ran_for: float) -> float:
        if ran_for >= self.settled or not self.current:
            self.current = self.first
        else:
            self.current = min(self.current * 2, self.limit)
        return self.current


@dataclass
class Command:
    """A child process from a command line; ``fatal`` return codes mean a restart cannot help."""

    name: str
    argv: list[str]
    env: dict[str, str]
    fatal: dict[int, str] = field(default_factory=dict)
    process: subprocess.Popen | None = None

    def start(self) -> None:
        try:
            self.process = subprocess.Popen(self.argv, env=self.env, process_group=0)
        except OSError as error:
            raise StartFailure(f"cannot run {self.argv[0]}: {error.strerror}") from None

    def poll(self) -> int | None:
        return exited(self.process)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            log.warning("%s did not stop within %.0f s: killing it", self.name, STOP_SECONDS)
            self.process.kill()
            self.process.wait()
        exited(self.process)


@dataclass
class EmbeddedRedis:
    """The embedded Redis, always on the same port and folder, with its URL left in the folder while it runs.

    The URL file lets a second ``cairn worker`` on the same folder join this
    server instead of starting another on the same append-only file.
    """

    server: RedisServer
    marker: Path
    name: str = "embedded Redis"
    fatal: dict[int, str] = field(default_factory=dict)

    def start(self) -> None:
        try:
            self.server.start()
        except (RuntimeError, OSError) as error:
            raise StartFailure(str(error)) from None
        self.marker.write_text(self.server.url)
        log.info("embedded Redis on %s, AOF in %s", self.server.url, self.server.data_dir)

    def poll(self) -> int | None:
        return exited(self.server.process)

    def stop(self) -> None:
        self.marker.unlink(missing_ok=True)
        self.server.stop()
        exited(self.server.process)
        log.info("embedded Redis stopped")


@dataclass
class Supervised:
    child: Child
    backoff: Backoff = field(default_factory=Backoff)
    started_at: float = 0.0
    restart_at: float | None = None


class Supervisor:
    """Starts the children in order, restarts the ones that exit, stops them all on SIGTERM or SIGINT."""

    def __init__(self, children: list[Child]) -> None:
        self.children = [Supervised(child) for child in children]
        self.received: int | None = None

    def run(self) -> int:
        """0 after a stop signal; 1 when a child cannot start at first or fails in a way a restart cannot mend."""
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            failure = self._start_all() or self._watch()
        finally:
            for entry in reversed(self.children):
                entry.child.stop()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if failure:
            log.error("%s", failure)
            return 1
        return 0

    def _on_signal(self, signum: int, _frame) -> None:
        if self.received is None:
            log.info("received %s: stopping", signal.Signals(signum).name)
        self.received = signum

    def _start_all(self) -> str | None:
        for entry in self.children:
            if self.received is not None:
                return None
            try:
                entry.child.start()
            except StartFailure as error:
                return f"cannot start {entry.child.name}: {error}"
            entry.started_at = time.monotonic()
        return None

    def _watch(self) -> str | None:
        while self.received is None:
            for entry in self.children:
                failure = self._tend(entry, time.monotonic())
                if failure:
                    return failure
            time.sleep(POLL_SECONDS)
        return None

    def _tend(self, entry: Supervised, now: float) -> str | None:
        """Notice an exit and schedule a restart, or restart what is due; a fatal exit ends supervision."""
        child = entry.child
        if entry.restart_at is None:
            code = child.poll()
            if code is None:
                return None
            if code in child.fatal:
                return f"{child.name} exited ({child.fatal[code]}); not restarting it"
            entry.restart_at = now + entry.backoff.next(now - entry.started_at)
            log.warning("%s exited (%s) after %.1f s; restarting in %.1f s", child.name, describe(code),
                        now - entry.started_at, entry.restart_at - now)
        elif now >= entry.restart_at and self.received is None:
            try:
                child.start()
            except StartFailure as error:
                entry.restart_at = now + entry.backoff.next(0.0)
                log.warning("%s did not start (%s); retrying in %.1f s", child.name, error, entry.restart_at - now)
                return None
            entry.started_at, entry.restart_at = time.monotonic(), None
        return None


def exited(process: subprocess.Popen | None) -> int | None:
    """The return code of a child that has exited, once the rest of its process group is killed too."""
    if process is None:
        return None
    code = process.poll()
    if code is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    return code


def describe(code: int) -> str:
    """A return code in words: ``status 1`` or ``signal SIGKILL``."""
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"status {code}"

