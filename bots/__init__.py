"""Bots that play Cairn's games from what one seat may see: uniform random play and an information-set search.

``policy(strength, seed)`` gives an object with ``choose(seat, events, legal_moves) -> move``, where
``events`` is the game's event log as the seat's token reads it (other seats' secrets redacted) and
``legal_moves`` is what the service offers the seat. The levels are in :data:`LEVELS` (a
:class:`~bots.level.Level` each: a search budget, how often it errs, its playouts, its settings per game);
docs/bots.md gives their measured time per move and strength.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from bots.determinise import LogEntry
from bots.level import Level
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


WEAK = Budget(iterations=16, rollout_depth=10)
MEDIUM = Budget(iterations=48, rollout_depth=16)

# The weak level errs on about a third of its turns, so that medium's lead does not rest on search alone where
# a game's rollout policy plays well. Not in Through Ice and Snow, where one careless move can sink the whole
# expedition (fleets out of fuel against random play): there half its turns are hasty instead, the rollout
# policy's move without a search. Not in Northwest Passage, where its errors left its ship short of the
# Northwest in a quarter of its games against random play, and medium leads without them. In Borealis the
# medium level errs on a tenth of its turns: a search four times as large found little more there (strong won
# 55 % of its games against an unerring medium), and the strong level's lead needs a medium that can slip
# (docs/bots.md, "Levels and measured strength").
LEVELS: dict[str, Level | None] = {
    "random": None,
    "weak": Level(WEAK, errors=0.35, games={"through-ice-and-snow": Level(WEAK, hasty=0.5),
                                            "northwest-passage": Level(WEAK, hasty=0.5)}),
    "medium": Level(MEDIUM, games={"borealis": Level(MEDIUM, errors=0.1)}),
    "strong": Level(Budget(iterations=200, rollout_depth=30, seconds=5.0)),
}


def policy(strength: str, seed: int) -> Policy:
    """The bot at ``strength`` (a key of :data:`LEVELS`), its choices reproducible from ``seed``."""
    if strength not in LEVELS:
        raise ValueError(f"unknown strength {strength!r}; expected one of {', '.join(LEVELS)}")
    level = LEVELS[strength]
    return RandomPolicy(seed) if level is None else SearchPolicy(level, seed)


__all__ = ["LEVELS", "Level", "Policy", "RandomPolicy", "SearchPolicy", "policy"]
