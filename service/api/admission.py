"""At most a few requests run the app at once in a process; the rest wait their turn, first come first served.

A gunicorn ``gthread`` worker runs every request that arrives in a thread
of its own, and on one interpreter lock the threads take the processor in
no particular order: with sixteen clients on a process, a move that lost
the lock a few times in a row answered in three or four times the mean.
Here a request waits for a turn (:data:`DEFAULT_TURNS` of them) in a queue
served in order, so answers take more nearly the same time each. Fewer
turns cost more than they gave: with 4 a process spent more CPU per move
handing turns over (each hand-over wakes a thread) and served 11 % fewer
moves; with 8, in paired runs at 32 clients, it served as many or more and
its p99 fell by a fifth.

Only the app's own call holds a turn. A live stream's body, a generator
the server iterates afterwards, runs outside it, as does the writing of
any answer to a slow client. A request that waits longer than
``REQUEST_QUEUE_SECONDS`` (1 s) for its turn gets a 503 ``overloaded``
with ``Retry-After`` instead, and the app never sees it. The probes
(``/health``, ``/ready``) never wait: an orchestrator must see a busy
process as alive.
"""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from flask import Response

from service.api.errors import ApiError, problem

DEFAULT_TURNS = 8
DEFAULT_QUEUE_SECONDS = 1.0
PROBES = frozenset({"/health", "/ready"})
RETRY_AFTER_SECONDS = 1

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class Turns:
    """``count`` turns handed out in the order they were asked for."""

    def __init__(self, count: int):
        self._free = count
        self._lock = threading.Lock()
        self._waiting: deque[threading.Lock] = deque()

    def take(self, patience: float) -> bool:
        """Wait for a turn; ``False`` if none came within ``patience`` seconds."""
        with self._lock:
            if self._free and not self._waiting:
                self._free -= 1
                return True
            waiter = threading.Lock()
            waiter.acquire()
            self._waiting.append(waiter)
        if waiter.acquire(timeout=patience):
            return True
        with self._lock:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
                return False
        return True  # handed a turn just as the wait ended

    def give_back(self) -> None:
        with self._lock:
            if self._waiting:
                self._waiting.popleft().release()  # the turn passes straight to the longest waiter
            else:
                self._free += 1


class Admission:
    """WSGI middleware: the app is called only with a turn."""

    def __init__(self, app: WsgiApp, turns: int, patience: float):
        self.app, self.turns, self.patience = app, Turns(turns), patience

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") in PROBES:
            return self.app(environ, start_response)
        if not self.turns.take(self.patience):
            return _overloaded()(environ, start_response)
        try:
            return self.app(environ, start_response)
        finally:
            self.turns.give_back()


def _overloaded() -> Response:
    return problem(ApiError(503, "overloaded", "Overloaded",
                            "this process has more requests waiting than it can answer in time; retry after "
                            "Retry-After seconds (a move with the same Idempotency-Key)",
                            headers={"Retry-After": str(RETRY_AFTER_SECONDS)}))
