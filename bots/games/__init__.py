"""Optional game knowledge for the search, one module per game named like the game's package.

A module here may expose ``evaluate(state, seats) -> {seat: reward in [0, 1]}`` (how a position that has not
ended is likely to end, used where a rollout stops) and ``rollout(state, seat, moves, rng) -> move`` (a
cheap playout policy better than uniform). Both read the state of a determinised world, which holds only
what the searching seat saw or sampled. A game without a module is searched with uniform rollouts played
to the end.
"""
from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

Evaluate = Callable[[Any, list[str]], dict[str, float]]
Rollout = Callable[[Any, str, list[dict], random.Random], dict]


@dataclass(frozen=True)
class Knowledge:
    evaluate: Evaluate | None = None
    rollout: Rollout | None = None


@cache
def knowledge_for(game: str) -> Knowledge:
    try:
        module = importlib.import_module(f"bots.games.{game.replace('-', '_')}")
    except ModuleNotFoundError:
        return Knowledge()
    return Knowledge(getattr(module, "evaluate", None), getattr(module, "rollout", None))
