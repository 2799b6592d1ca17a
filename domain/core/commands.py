"""Reading a command's fields with errors that name the field at fault."""
from __future__ import annotations

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
