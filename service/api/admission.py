"""At most a few requests run the app at once in a process; the rest wait their turn, first come first served.

A gunicorn ``gthread`` worker runs every request that arrives in a thread
of its own, and on one interpreter lock the threads take the processor in
no particular order: with sixteen clients on a process, a move that lost
the lock a few times in a row answered in three or four times the mean.
Here a request may wait for a turn (``CONCURRENT_REQUESTS`` of them) in a
queue served in order, and a process past its depth sheds load with a 503
instead of answering everyone late. It is off by default
(:data:`DEFAULT_TURNS` is 0) because it bought no latency on the shipped
server: at 32 clients on a quiet machine, 8 turns gave p99 62.8 / 66.0 /
74.9 ms against 64.4 / 64.6 / 66.0 without, at 5 to 10 % fewer moves/s
(each hand-over wakes a thread); 4 turns cost 11 %.

A turn is taken before any other hook of the request and given back when
its context ends, once the answer is made: a live stream's body, a
generator the server iterates afterwards, runs outside it, as does the
writing of any answer to a slow client. A request that waits longer than
``REQUEST_QUEUE_SECONDS`` (1 s) for its turn is refused with a 503
``overloaded`` and ``Retry-After`` before any of it runs; the refusal
goes through the error handlers and the answer's hooks like any other, so
a page on another origin can read it. The probes (``/health``,
``/ready``) never wait: an orchestrator must see a busy process as alive.
"""
from __future__ import annotations

import threading
from collections import deque

from flask import Flask, g, request

from service.api.errors import ApiError
from service.api.prelude import PROBE_BLUEPRINT

DEFAULT_TURNS = 0
DEFAULT_QUEUE_SECONDS = 1.0
RETRY_AFTER_SECONDS = 1


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


def register(app: Flask, count: int, patience: float) -> None:
    """Make every request of ``app`` but the probes wait for one of ``count`` turns; register it first of
    the ``before_request`` hooks, so nothing of a request runs before its turn."""
    turns = Turns(count)

    def take_turn() -> None:
        if request.blueprint == PROBE_BLUEPRINT:
            return
        if not turns.take(patience):
            raise ApiError(503, "overloaded", "Overloaded",
                           "this process has more requests waiting than it can answer in time; retry after "
                           "Retry-After seconds (a move with the same Idempotency-Key)",
                           headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
        g.holds_turn = True

    def give_turn_back(_error: BaseException | None) -> None:
        if g.pop("holds_turn", False):
            turns.give_back()

    app.before_request(take_turn)
    app.teardown_request(give_turn_back)
