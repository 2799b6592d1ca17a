"""A search level: how much it searches, and how it falls short of what that search could play.

A search budget alone makes levels that differ too little where a game's rollout policy is good: the weaker
bot plays the same policy's lines with a third of the search, and its moves are nearly the stronger one's.
A level therefore also says how often it errs or plays without searching, and may hold other settings for a
game where the measured margins called for them (docs/bots.md).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bots.search import Budget


@dataclass(frozen=True)
class Level:
    """``budget`` is the search of one move. ``errors`` is the share of turns played without a search, by a
    move drawn uniformly from those the game's ``prune`` keeps (all offered moves for a game without one): an
    error of judgement, never a move the game's knowledge rules out. ``hasty`` is the share of the other turns
    played, without a search, by the move the game's rollout policy picks (searched as usual in a game without
    one): a move that follows the game's rules of thumb but looks no further, milder than an error where one
    careless move can ruin every seat. ``games`` holds the level to play instead in a game, by the game's
    registry name."""

    budget: Budget
    errors: float = 0.0
    hasty: float = 0.0
    games: Mapping[str, Level] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, share in (("errors", self.errors), ("hasty", self.hasty)):
            if not 0.0 <= share <= 1.0:
                raise ValueError(f"{name} is a share of turns, from 0 to 1: {share!r}")

    def for_game(self, game: str) -> Level:
        """The settings this level plays ``game`` with."""
        return self.games.get(game, self)
