"""When a request is sent again, and how long the client waits before it does.

A request is repeated only when repeating it cannot do a thing twice: reads
always, a move because its ``Idempotency-Key`` makes the service answer a
repeat with the first answer, exports and audits because their jobs are one
per task. A request that is not safe to repeat (creating a game, retrying a
job) is repeated only after an answer that says the service did nothing
(429, 503) or a connection that was never made.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

# Statuses that mean "nothing was done, ask again later".
RETRY_STATUSES = frozenset({429, 503})
# A 500 or a gateway failure may have happened after the work: only an idempotent request is sent again.
RETRY_STATUSES_IF_IDEMPOTENT = frozenset({500, 502, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries: at most ``attempts`` sends within ``total_seconds``.

    Without a ``Retry-After`` the wait doubles from ``first_wait`` up to ``max_wait``, with jitter so
    that many clients refused at once do not come back at once. A ``Retry-After`` is honoured as given;
    when it would end past ``total_seconds`` the client gives up at once instead of waiting for nothing.
    """

    attempts: int = 6
    total_seconds: float = 30.0
    first_wait: float = 0.2
    max_wait: float = 5.0
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def backoff(self, attempt: int) -> float:
        """The wait after failed attempt number ``attempt`` (1-based) when the service named none."""
        ceiling = min(self.max_wait, self.first_wait * 2 ** (attempt - 1))
        return ceiling / 2 + self.rng.uniform(0, ceiling / 2)


NO_RETRIES = RetryPolicy(attempts=1)


class Budget:
    """One request's attempts and time under a policy."""

    def __init__(self, policy: RetryPolicy):
        self.policy = policy
        self.attempt = 0
        self.deadline = time.monotonic() + policy.total_seconds

    def start(self) -> None:
        self.attempt += 1

    def wait(self, retry_after: float | None) -> bool:
        """Sleep before the next attempt and say True, or say False when the policy allows no more."""
        if self.attempt >= self.policy.attempts:
            return False
        pause = retry_after if retry_after is not None else self.policy.backoff(self.attempt)
        if time.monotonic() + pause > self.deadline:
            return False
        time.sleep(pause)
        return True


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header; Cairn sends whole seconds, never a date."""
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None
