"""The delays between restarts: quick for a rare crash, slow for a crash loop."""
from __future__ import annotations

from service.supervisor import Backoff


def test_a_child_that_keeps_failing_waits_longer_each_time_up_to_the_limit():
    backoff = Backoff()
    assert [backoff.next(ran_for=0.1) for _ in range(9)] == [0.5, 1, 2, 4, 8, 16, 30, 30, 30]


def test_a_child_that_ran_for_a_while_is_restarted_quickly_again():
    backoff = Backoff()
    for _ in range(6):
        backoff.next(ran_for=0.1)
    assert backoff.next(ran_for=backoff.settled) == 0.5
    assert backoff.next(ran_for=0.1) == 1
