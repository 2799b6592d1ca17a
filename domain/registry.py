"""Finds games by name. A game is a package under ``domain/`` exposing ``RULES``."""
from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path
from typing import Any

from domain.core.rules import Rules

_NOT_GAMES = {"core"}
_registered: dict[str, Rules[Any]] = {}


def game_names() -> list[str]:
    """Names of every game package, in the service's spelling (``through-ice-and-snow``)."""
    return list(_game_names())


@cache
def _game_names() -> tuple[str, ...]:
    """The packages are those installed with the code: listing their folder once is enough, and a listing per
    lookup cost 0.3 ms on every load of a game."""
    folder = Path(__file__).parent
    return tuple(sorted(
        info.name.replace("_", "-")
        for info in pkgutil.iter_modules([str(folder)])
        if info.ispkg and info.name not in _NOT_GAMES
    ))


def register(rules: Rules[Any]) -> None:
    """Make a game that lives outside ``domain/`` available by name (the engine's own test game)."""
    _registered[rules.name] = rules


def get_rules(name: str) -> Rules[Any]:
    """The rules of game ``name``; ``KeyError`` for a name no package has."""
    if name in _registered:
        return _registered[name]
    if name not in _game_names():
        raise KeyError(name)
    return _import(name)


@cache
def _import(name: str) -> Rules[Any]:
    rules: Rules[Any] = importlib.import_module(f"domain.{name.replace('-', '_')}").RULES
    return rules


def all_rules() -> list[Rules[Any]]:
    return [get_rules(name) for name in game_names()]
