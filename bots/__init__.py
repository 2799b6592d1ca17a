"""Bots that play Cairn's games from what one seat may see: uniform random play and an information-set search.

``policy(strength, seed)`` gives an object with ``choose(seat, events, legal_moves) -> move``, where
``events`` is the game's event log as the seat's token reads it (other seats' secrets redacted) and
``legal_moves`` is what the service offers the seat. The levels are in :data:`LEVELS`; docs/bots.md gives
their measured time per move and strength.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from bots.determinise import LogEntry
from bots.search import Budget
from bots.searcher import SearchPolicy


class Policy(Protocol):
    def choose(self, seat: str, events: Sequence[LogEntry], legal_moves: list[dict]) -> dict: ...


class RandomPolicy:
    """Uniform over the offered moves: the baseline every level is measured against."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, seat: str, events: Sequence[LogEntry], legal_moves: list[dict]) -> dict:
        return self.rng.choice(legal_moves)


LEVELS: dict[str, Budget | None] = {
    "random": None,
    "weak": Budget(iterations=16, rollout_depth=10),
    "medium": Budget(iterations=48, rollout_depth=16),
    "strong": Budget(iterations=200, rollout_depth=30, seconds=5.0),
}


def policy(strength: str, seed: int) -> Policy:
    """The bot at ``strength`` (a key of :data:`LEVELS`), its choices reproducible from ``seed``."""
    if strength not in LEVELS:
        raise ValueError(f"unknown strength {strength!r}; expected one of {', '.join(LEVELS)}")
    budget = LEVELS[strength]
    return RandomPolicy(seed) if budget is None else SearchPolicy(budget, seed)


__all__ = ["LEVELS", "Policy", "RandomPolicy", "SearchPolicy", "policy"]
