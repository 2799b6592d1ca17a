"""How a bot chooses its move: a small protocol every bot shares, and the random player.

A policy sees what its seat's token may read (the event log redacted for
that seat, and the seat's legal moves) and nothing more, so a policy cannot
cheat by construction: it is handed no hidden information.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Policy(Protocol):
    def choose(
        self, seat: str, events: Sequence[Mapping[str, Any]], legal_moves: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """One of ``legal_moves`` (or a move built from one) for ``seat``, given the log ``events`` as it sees it."""
        ...


class RandomPolicy:
    """Uniformly random legal play; the same seed makes the same choices from the same positions."""

    def __init__(self, seed: int | str | None = None):
        self.rng = random.Random(seed)

    def choose(
        self, seat: str, events: Sequence[Mapping[str, Any]], legal_moves: list[dict[str, Any]]
    ) -> dict[str, Any]:
        return self.rng.choice(legal_moves)
