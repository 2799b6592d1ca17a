"""Reading a command's fields with errors that name the field at fault."""
from __future__ import annotations

# The view types dict's own keys(), values() and items() return, as typeshed names them.
from _collections_abc import dict_items, dict_keys, dict_values
from collections.abc import Collection, Iterable, Iterator
from typing import Any

from domain.core.errors import IllegalMove
from domain.core.events import JsonObject

_MISSING = object()


def field(
    command: JsonObject, name: str, kind: type | tuple[type, ...], choices: Collection[Any] | None = None,
    default: object = _MISSING,
) -> Any:
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


def unknown_move(command: JsonObject, known: Iterable[str]) -> IllegalMove:
    message = f"unknown move type {command.get('type')!r}; expected one of {sorted(known)}"
    return IllegalMove("unknown_move_type", message, field="type")


class ReadTracked(dict[str, Any]):
    """A command that notes which of its fields the rules read, so the engine can refuse the others.

    A field no rule reads would be recorded in the history and mean nothing; rather than each game
    declaring the fields of each of its moves, :func:`domain.core.match.submit` hands ``decide`` this
    copy of the command and refuses any field left unread (:meth:`unread`). Reading a field by
    ``[]``, ``get`` or ``in`` reads that field; looking at the command as a whole (iterating, copying,
    ``dict(command)``, ``{**command}``, ``==``) reads every field, so code that does so answers for
    the fields itself, as comparing the command with the legal moves does. ``canonical_json`` reads
    a dict without these methods, so comparing that way reads no field: the fields are read again
    when they are used or recorded.
    """

    def __init__(self, command: JsonObject):
        super().__init__(command)
        self.read: set[Any] = set()

    def __getitem__(self, name: str) -> Any:
        self.read.add(name)
        return super().__getitem__(name)

    def get(self, name: str, default: Any = None) -> Any:
        self.read.add(name)
        return super().get(name, default)

    def __contains__(self, name: object) -> bool:
        self.read.add(name)
        return super().__contains__(name)

    def _read_all(self) -> None:
        self.read.update(super().keys())

    def __iter__(self) -> Iterator[str]:
        self._read_all()
        return super().__iter__()

    def keys(self) -> dict_keys[str, Any]:
        self._read_all()
        return super().keys()

    def values(self) -> dict_values[str, Any]:
        self._read_all()
        return super().values()

    def items(self) -> dict_items[str, Any]:
        self._read_all()
        return super().items()

    def copy(self) -> JsonObject:
        self._read_all()
        return dict(super().items())

    def __eq__(self, other: object) -> bool:
        self._read_all()
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        self._read_all()
        return super().__ne__(other)

    def unread(self, exempt: tuple[str, ...] = ()) -> list[str]:
        """The fields no rule read, but those in ``exempt``, in name order."""
        return sorted(super().keys() - self.read - set(exempt))


def unknown_field(command: JsonObject, name: str, rule_id: str | None = None) -> IllegalMove:
    """The refusal of a field the command's move does not have."""
    return IllegalMove("unknown_field", f"'{name}' is not a field of a {command.get('type')} move", rule_id=rule_id,
                       field=name)


def extra_field(command: JsonObject, fields: Collection[str], rule_id: str | None = None) -> IllegalMove | None:
    """The refusal of the first field of ``command`` not among ``fields`` (``seat`` always is), if any.

    For rules that take a command as a whole (checking its set of fields, comparing it with the moves
    they offer): that reads every field, so the engine's own check (:class:`ReadTracked`) leaves an
    unknown field to the rules, and this names it rather than refusing the command as a whole.
    """
    extra = sorted(set(command) - set(fields) - {"seat"})
    return unknown_field(command, extra[0], rule_id) if extra else None


def unoffered_field(command: JsonObject, moves: Iterable[JsonObject], rule_id: str | None = None) -> IllegalMove | None:
    """:func:`extra_field` for the fields of the offered ``moves`` of the command's type; ``None`` if none is
    of that type, since the rules then say why the move is not open."""
    offered = [move for move in moves if move.get("type") == command.get("type")]
    return extra_field(command, set().union(*offered), rule_id) if offered else None
