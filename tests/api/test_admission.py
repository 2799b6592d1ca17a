"""Turns: a process runs a few requests at once and hands the next turn to the request that has waited longest."""
from __future__ import annotations

import threading
import time

from service.api.admission import Turns


def wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.005)


def test_waiting_requests_get_their_turns_in_the_order_they_came():
    turns = Turns(1)
    assert turns.take(patience=1)
    served: list[int] = []

    def request(number: int) -> None:
        assert turns.take(patience=30)
        served.append(number)
        turns.give_back()

    threads = []
    for number in range(6):
        thread = threading.Thread(target=request, args=(number,))
        thread.start()
        threads.append(thread)
        wait_until(lambda queued=number + 1: len(turns._waiting) == queued)  # queued before the next comes
    turns.give_back()
    for thread in threads:
        thread.join(timeout=30)
    assert served == list(range(6))


def test_a_request_that_waits_past_its_patience_is_turned_away_and_takes_no_turn_with_it():
    turns = Turns(2)
    assert turns.take(patience=1) and turns.take(patience=1)
    assert not turns.take(patience=0.05)
    turns.give_back()
    assert turns.take(patience=0.05), "the turn given back goes to the next request, none was lost"
    assert not turns.take(patience=0.05)


def test_a_newcomer_does_not_overtake_a_request_already_waiting():
    turns = Turns(1)
    assert turns.take(patience=1)
    got: list[str] = []
    waiting = threading.Thread(target=lambda: got.append("waiting") if turns.take(patience=30) else None)
    waiting.start()
    wait_until(lambda: len(turns._waiting) == 1)
    turns.give_back()
    waiting.join(timeout=30)
    assert got == ["waiting"]
    assert not turns.take(patience=0.05), "the one turn is the waiting request's until it gives it back"
