"""Refusals that name the part of a command at fault: a move type, or a field, the command's move does not have.

The engine raises them from the moves' declarations (:mod:`domain.core.move_types`); the rules raise them where
what is open depends on the position: a move type not taken in this phase, a field no offered move has.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.core.errors import IllegalMove


def unknown_move(command: Mapping[str, Any], known: Iterable[str]) -> IllegalMove:
    """The refusal of a move type that is not among ``known``."""
    message = f"unknown move type {command.get('type')!r}; expected one of {sorted(known)}"
    return IllegalMove("unknown_move_type", message, field="type")


def unknown_field(command: Mapping[str, Any], name: str, rule_id: str | None = None) -> IllegalMove:
    """The refusal of a field the command's move does not have."""
    return IllegalMove("unknown_field", f"'{name}' is not a field of a {command.get('type')} move", rule_id=rule_id,
                       field=name)


def unoffered_field(
    command: Mapping[str, Any], moves: Iterable[Mapping[str, Any]], rule_id: str | None = None
) -> IllegalMove | None:
    """The refusal of the first field of ``command`` that no offered move of its type has, if any; ``None`` if
    none is of that type, since the rules then say why the move is not open.

    For the moves whose fields depend on the position (a snow tile's effect, a decision a module extends): the
    declaration admits every field the move may have, and this names the one the offered moves do not.
    """
    offered = [move for move in moves if move.get("type") == command.get("type")]
    extra = sorted(set(command) - set().union(*offered) - {"seat"}) if offered else []
    return unknown_field(command, extra[0], rule_id) if extra else None
