"""Reading a command's fields with errors that name the field at fault, for what the rules check beyond the
move's declaration (:mod:`domain.core.move_types`)."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.core.errors import IllegalMove

_MISSING = object()


def field(command: dict, name: str, kind: type | tuple[type, ...], choices: Any = None, default: Any = _MISSING) -> Any:
    """``command[name]``, checked for presence, type and (optionally) membership of ``choices``."""
    value = command.get(name, default)
    if value is _MISSING:
        raise IllegalMove("missing_field", f"'{name}' is required", field=name)
    if value is default and default is not _MISSING:
        return value
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise IllegalMove("invalid_field", f"'{name}' must be {names}", field=name)
    if choices is not None and value not in choices:
        raise IllegalMove("invalid_field", f"'{name}' must be one of {sorted(choices)}", field=name)
    return value


def unknown_move(command: dict, known: Any) -> IllegalMove:
    message = f"unknown move type {command.get('type')!r}; expected one of {sorted(known)}"
    return IllegalMove("unknown_move_type", message, field="type")


def unknown_field(command: dict, name: str, rule_id: str | None = None) -> IllegalMove:
    """The refusal of a field the command's move does not have."""
    return IllegalMove("unknown_field", f"'{name}' is not a field of a {command.get('type')} move", rule_id=rule_id,
                       field=name)


def unoffered_field(command: dict, moves: Iterable[dict], rule_id: str | None = None) -> IllegalMove | None:
    """The refusal of the first field of ``command`` that no offered move of its type has, if any; ``None`` if
    none is of that type, since the rules then say why the move is not open.

    For the moves whose fields depend on the position (a snow tile's effect, a decision a module extends): the
    declaration admits every field the move may have, and this names the one the offered moves do not.
    """
    offered = [move for move in moves if move.get("type") == command.get("type")]
    extra = sorted(set(command) - set().union(*offered) - {"seat"}) if offered else []
    return unknown_field(command, extra[0], rule_id) if extra else None
