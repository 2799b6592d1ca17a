"""Optional game knowledge for the search, one module per game named like the game's package.

A module here may expose ``evaluate(state, seats) -> {seat: reward in [0, 1]}`` (how a position that has not
ended is likely to end, used where a rollout stops), ``rollout(state, seat, moves, rng) -> move`` (a
cheap playout policy better than uniform) and ``prune(state, seat, moves) -> moves`` (the moves worth
searching at all, never none: a small budget spent on a move known to ruin the game is a budget lost, and a
few noisy playouts can rate such a move best). All three read the state of a determinised world, which holds
only what the searching seat saw or sampled. A game without a module is searched with uniform rollouts played
to the end.
"""
from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

Scores = dict[str, float]
Evaluate = Callable[[Any, list[str]], Scores]
Rollout = Callable[[Any, str, list[dict], random.Random], dict]
Prune = Callable[[Any, str, list[dict]], list[dict]]

# The share of rollout moves drawn uniformly: a playout that always takes the move it rates best would
# never try the lines its ratings undervalue.
EXPLORE_SHARE = 0.1
# A rating at or below this marks a move the playout should make only when nothing else is offered.
AVOID = -100.0


@dataclass(frozen=True)
class Knowledge:
    evaluate: Evaluate | None = None
    rollout: Rollout | None = None
    prune: Prune | None = None


@cache
def knowledge_for(game: str) -> Knowledge:
    try:
        module = importlib.import_module(f"bots.games.{game.replace('-', '_')}")
    except ModuleNotFoundError:
        return Knowledge()
    return Knowledge(getattr(module, "evaluate", None), getattr(module, "rollout", None),
                     getattr(module, "prune", None))


def unavoided(moves: list[dict], score: Callable[[dict], float]) -> list[dict]:
    """The ``moves`` rated above :data:`AVOID`, or all of them when every one is: a ``prune`` by ratings."""
    return [move for move in moves if score(move) > AVOID] or moves


def prefer(moves: list[dict], score: Callable[[dict], float], rng: random.Random) -> dict:
    """One of the best-rated ``moves`` (ties drawn at random), or now and then any move."""
    if len(moves) == 1:
        return moves[0]
    rated = [(score(move), rng.random(), index) for index, move in enumerate(moves)]
    if rng.random() < EXPLORE_SHARE:
        allowed = [entry for entry in rated if entry[0] > AVOID]
        if allowed:
            return moves[rng.choice(allowed)[2]]
    return moves[max(rated)[2]]
