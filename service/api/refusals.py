"""The codes the games' rules refuse moves with, read from the games' own code, for the docs page's anchors.

A rule refusal's ``type`` is ``/docs#error-<code>`` like any other, so the
page needs an entry for every code a game can raise. No game lists its
codes apart from the refusals themselves, so they are read where they are
written: every ``IllegalMove("<code>", ..., rule_id="<rule>")`` (and a
game's helpers that take the code first, such as ``refuse("<code>", ...)``)
in each game's package, with the rules they cite.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import domain
from domain.registry import game_names, get_rules

# Calls whose first argument is a refusal's code.
REFUSING_CALLS = frozenset({"IllegalMove", "refuse"})
DOMAIN = Path(domain.__file__).resolve().parent


@dataclass
class Refusal:
    code: str
    games: set[str] = field(default_factory=set)
    rules: set[str] = field(default_factory=set)


@cache
def rule_refusals() -> dict[str, Refusal]:
    """Every code a game's rules (or the engine, as ``core``) can refuse with, by code."""
    found: dict[str, Refusal] = {}
    packages = {_package_of(name): get_rules(name).title for name in game_names()}
    packages["core"] = "every game"
    for folder in sorted(path for path in DOMAIN.iterdir() if path.is_dir() and path.name in packages):
        for source in sorted(folder.glob("*.py")):
            for code, rule in _refusals_in(source.read_text(encoding="utf-8")):
                entry = found.setdefault(code, Refusal(code))
                entry.games.add(packages[folder.name])
                if rule:
                    entry.rules.add(rule)
    return found


def _package_of(name: str) -> str | None:
    """``borealis`` for ``domain.borealis.rules``; ``None`` for a game defined outside :mod:`domain`."""
    parts = type(get_rules(name)).__module__.split(".")
    return parts[1] if parts[0] == "domain" and len(parts) > 2 else None


def _refusals_in(text: str) -> list[tuple[str, str | None]]:
    refusals = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call) or _name(node.func) not in REFUSING_CALLS or not node.args:
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            rule = next((keyword.value.value for keyword in node.keywords if keyword.arg == "rule_id"
                         and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str)), None)
            refusals.append((first.value, rule))
    return refusals


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None
