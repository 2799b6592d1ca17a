"""Chance decisions: the only door through which randomness enters a game.

A game never rolls dice or shuffles decks itself. When the rules need a random
outcome (the next card of a deck, a die, a tile turned face up) the state
holds a pending :class:`ChanceNode` listing every outcome still possible.
Who resolves it is chosen when the game is created:

* ``server``: the service derives the outcome from the game's committed seed
  and the version the outcome is recorded at (:func:`derive_outcome`), so
  anyone holding the seed after the game can re-derive every draw;
* ``table``: the organiser of a game played with real components submits what
  was actually drawn, and :func:`check_outcome` refuses anything impossible.

Drawing a card when it is needed, rather than shuffling the deck up front, is
the same distribution, lets ``table`` mode record physical play, and means no
hidden deck order exists anywhere to leak.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.core.canonical import sha256_hex
from domain.core.errors import IllegalMove
from domain.core.events import JsonObject

SERVER = "server"
TABLE = "table"
CHANCE_MODES = (SERVER, TABLE)


@dataclass(frozen=True)
class ChanceNode:
    """A random outcome the rules are waiting for.

    ``candidates`` are distinct outcome identifiers (card instance ids, die
    faces as strings, tile ids); ``count`` of them are drawn without
    replacement, in order. ``visible_to`` lists the seats that may learn the
    outcome while the game runs; ``None`` means everyone. The candidates
    themselves are never shown to seats: the remaining deck is the complement
    of the hands, so listing it would reveal them.
    """

    key: str
    candidates: tuple[str, ...]
    count: int = 1
    visible_to: tuple[str, ...] | None = None
    label: str = ""
    details: JsonObject = field(default_factory=dict)

    def public(self) -> JsonObject:
        """What any reader may know about the pending decision."""
        return {"key": self.key, "count": self.count, "label": self.label, "details": self.details}


def derive_outcome(seed: str, version: int, node: ChanceNode) -> list[str]:
    """Draw ``node.count`` candidates from ``seed`` alone.

    Each pick hashes the seed, the version the outcome is recorded at and the
    pick's index; the 256-bit number chooses among the remaining candidates
    (the modulo bias is below 2**-200). Documented in docs/replay-format.md so
    an auditor can re-derive every outcome without Cairn's code.
    """
    remaining = list(node.candidates)
    picked: list[str] = []
    for index in range(node.count):
        number = int(sha256_hex(f"{seed}:{version}:{index}"), 16)
        picked.append(remaining.pop(number % len(remaining)))
    return picked


def check_outcome(node: ChanceNode, outcome: Any) -> list[str]:
    """Refuse an outcome that could not have happened at this point."""
    if not isinstance(outcome, list) or not all(isinstance(item, str) for item in outcome):
        raise IllegalMove("invalid_field", "outcome must be a list of strings", field="outcome")
    if len(outcome) != node.count:
        raise IllegalMove(
            "impossible_outcome",
            f"{node.key} draws exactly {node.count}, not {len(outcome)}",
            field="outcome",
        )
    if len(set(outcome)) != len(outcome):
        raise IllegalMove("impossible_outcome", "the same item cannot be drawn twice", field="outcome")
    possible = set(node.candidates)
    for item in outcome:
        if item not in possible:
            raise IllegalMove("impossible_outcome", f"{item!r} cannot be drawn for {node.key} now", field="outcome")
    return list(outcome)
