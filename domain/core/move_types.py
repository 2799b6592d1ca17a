"""A game's moves, declared once: each move type with its fields, their JSON types and the rule it belongs to.

As python-chess reads a move once into a ``Move``, Cairn holds a command to its declaration before the rules
see it: :meth:`MoveTypes.check` refuses an unknown move type, a field the move does not have, a required field
left out and a value of the wrong JSON type, each naming the field and the move's rule. The rules then decide
only well-formed commands. The same declarations are what people and client authors read: ``GET /docs``, the
move schemas of the OpenAPI contract and the Python client's move module are made from them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.core.commands import unknown_field, unknown_move
from domain.core.errors import IllegalMove

# The JSON types a field may have, and the Python values a parsed JSON document holds for each.
JSON_TYPES: Mapping[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,), "array": (list,),
    "object": (dict,), "null": (type(None),),
}
# Fields of every command that are the service's, not the move's: the organiser names the seat it moves for.
RESERVED_FIELDS = frozenset({"type", "seat"})


def json_type_test(kinds: tuple[str, ...]) -> Callable[[Any], bool]:
    """Whether a value is of one of the JSON types ``kinds``; ``True`` is a boolean, never an integer."""
    python_types = tuple(python for kind in kinds if kind != "boolean" for python in JSON_TYPES[kind])
    takes_booleans = "boolean" in kinds

    def test(value: Any) -> bool:
        if value is True or value is False:
            return takes_booleans
        return isinstance(value, python_types)

    return test


@dataclass(frozen=True)
class Field:
    """One field of a move. ``type`` is a JSON type, or several (``("string", "null")``); ``items`` types the
    entries of an array or the values of an object; ``values`` lists the only values the game allows."""

    name: str
    type: str | tuple[str, ...]
    description: str
    required: bool = True
    items: str | tuple[str, ...] | None = None
    values: tuple[Any, ...] | None = None
    # The tests made once from the above (in __post_init__).
    _is_of_type: Callable[[Any], bool] = field(init=False, repr=False, compare=False)
    _is_item: Callable[[Any], bool] | None = field(init=False, repr=False, compare=False)
    _allowed: frozenset[tuple[object, object]] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for kind in (*self.types, *self.item_types):
            if kind not in JSON_TYPES:
                raise ValueError(f"{self.name}: {kind!r} is not a JSON type")
        if self.values is not None and {"array", "object"} & set(self.types):
            raise ValueError(f"{self.name}: only a field of scalar values lists its values")
        # Every command is held to its declaration, so the tests are made once, here; a value is allowed by its
        # type as well as its value, as JSON tells them apart (``true`` is not ``1``).
        object.__setattr__(self, "_is_of_type", json_type_test(self.types))
        object.__setattr__(self, "_is_item", json_type_test(self.item_types) if self.items is not None else None)
        object.__setattr__(self, "_allowed", None if self.values is None
                           else frozenset((type(value), value) for value in self.values))

    @property
    def types(self) -> tuple[str, ...]:
        return self.type if isinstance(self.type, tuple) else (self.type,)

    @property
    def item_types(self) -> tuple[str, ...]:
        if self.items is None:
            return ()
        return self.items if isinstance(self.items, tuple) else (self.items,)

    def fault(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this field, or ``None``."""
        if not self._is_of_type(value):
            return f"'{self.name}' must be {' or '.join(self.types)}"
        if self._is_item is not None:
            entries = value if isinstance(value, list) else value.values() if isinstance(value, dict) else ()
            if not all(self._is_item(entry) for entry in entries):
                return f"'{self.name}' holds {' or '.join(self.item_types)} values only"
        if self._allowed is not None and (type(value), value) not in self._allowed:
            return f"'{self.name}' must be one of {', '.join(map(repr, self.values or ()))}"
        return None

    def to_json(self) -> dict[str, Any]:
        """The field as ``Rules.move_types`` shows it: description, JSON type(s), required, and items and values
        when declared."""
        shown: dict[str, Any] = {"description": self.description, "type": self.type if isinstance(self.type, str)
                                 else list(self.type), "required": self.required}
        if self.items is not None:
            shown["items"] = self.items if isinstance(self.items, str) else list(self.items)
        if self.values is not None:
            shown["values"] = list(self.values)
        return shown


@dataclass(frozen=True)
class MoveType:
    """A move a player (or the organiser) submits: its ``type``, what it does, the rule it belongs to and its
    fields, in the order people read them."""

    type: str
    description: str
    rule_id: str | None
    fields: tuple[Field, ...] = ()
    # Made once from the fields (in __post_init__).
    _allowed: frozenset[str] = field(init=False, repr=False, compare=False)
    _required: frozenset[str] = field(init=False, repr=False, compare=False)
    _by_name: dict[str, Field] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [field.name for field in self.fields]
        if len(set(names)) != len(names) or RESERVED_FIELDS & set(names):
            raise ValueError(f"{self.type}: fields {names} repeat a name or use a reserved one")
        object.__setattr__(self, "_allowed", RESERVED_FIELDS | frozenset(names))
        object.__setattr__(self, "_required", frozenset(field.name for field in self.fields if field.required))
        object.__setattr__(self, "_by_name", {field.name: field for field in self.fields})

    def check(self, command: Mapping[str, Any]) -> None:
        """Refuse ``command`` (of this type) if it does not fit: a field not declared (``unknown_field``), a
        required one missing (``missing_field``), a value of the wrong type (``invalid_field``)."""
        if not self._allowed.issuperset(command):
            raise unknown_field(command, sorted(set(command) - self._allowed)[0], self.rule_id)
        if not self._required.issubset(command):
            missing = next(field.name for field in self.fields if field.required and field.name not in command)
            raise IllegalMove("missing_field", f"'{missing}' is required", rule_id=self.rule_id, field=missing)
        for name, value in command.items():
            field = self._by_name.get(name)
            fault = None if field is None else field.fault(value)
            if fault is not None:
                raise IllegalMove("invalid_field", fault, rule_id=self.rule_id, field=name)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "description": self.description, "rule_id": self.rule_id,
                "fields": {field.name: field.to_json() for field in self.fields}}


class MoveTypes(Mapping[str, MoveType]):
    """A game's move types by name, in the order a player meets them."""

    def __init__(self, *groups: tuple[MoveType, ...]):
        self._by_type: dict[str, MoveType] = {}
        for move in (move for group in groups for move in group):
            if move.type in self._by_type:
                raise ValueError(f"move type {move.type!r} is declared twice")
            self._by_type[move.type] = move

    def __getitem__(self, kind: str) -> MoveType:
        return self._by_type[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_type)

    def __len__(self) -> int:
        return len(self._by_type)

    def check(self, command: Mapping[str, Any]) -> MoveType:
        """The declaration ``command`` fits, or :class:`IllegalMove` naming the type or field at fault."""
        kind = command.get("type")
        move = self._by_type.get(kind) if isinstance(kind, str) else None
        if move is None:
            raise unknown_move(command, self._by_type)
        move.check(command)
        return move


# The organiser's move in table mode, the same in every game: what was drawn at the pending chance decision.
CHANCE_MOVE = MoveType(
    "resolve_chance",
    "Table mode, the organiser: what was drawn at the pending chance decision, in the order drawn.",
    None,
    (Field("outcome", "array", "the items drawn, as many as the decision draws", items="string"),),
)
ORGANISER_MOVES = MoveTypes((CHANCE_MOVE,))
