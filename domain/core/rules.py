"""The interface every game's rules implement.

A game *decides* (:meth:`Rules.decide`: a command in, events out) and
*applies* (:meth:`Rules.apply`: an event in, the state out); nothing outside
the game's package knows its rules. The engine in
:mod:`domain.core.match` wraps a game with what is common to all of them:
versions, chance decisions, the end of the game, redaction.
"""
from __future__ import annotations

import marshal
from abc import ABC, abstractmethod
from functools import cached_property
from typing import ClassVar, Generic, TypeVar, cast

import jsonschema

from domain.core.chance import ChanceNode
from domain.core.errors import IllegalMove
from domain.core.events import Event, JsonObject
from domain.core.move_types import MoveTypes
from domain.core.upcasting import EventSchema

StateT = TypeVar("StateT")
"""A game's state, as its own package names it (``BorealisState``)."""


class Rules(ABC, Generic[StateT]):
    """One game's rules over its state type. Stateless: every method takes the state it works on."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options_schema: JsonObject = {"type": "object", "properties": {}, "additionalProperties": False}

    def data_versions(self) -> dict[str, str]:
        """Version (content hash) of each data file the rules loaded, recorded in the first event."""
        return {}

    @cached_property
    def _options_validator(self) -> jsonschema.protocols.Validator:
        """The options schema, checked and compiled once: ``jsonschema.validate`` checks the schema itself
        again on every call, which cost game creation more than the rest of its validation."""
        validator_class = jsonschema.validators.validator_for(self.options_schema)
        validator_class.check_schema(self.options_schema)
        return validator_class(self.options_schema)

    def validate_options(self, options: JsonObject, seat_count: int) -> JsonObject:
        """Check options against ``options_schema`` and fill in defaults."""
        if seat_count not in self.player_counts:
            raise IllegalMove(
                "invalid_player_count",
                f"{self.title} is played by {', '.join(map(str, self.player_counts))} players, not {seat_count}",
                field="seats",
            )
        error = jsonschema.exceptions.best_match(self._options_validator.iter_errors(options))
        if error is not None:
            path = ".".join(str(part) for part in error.absolute_path)
            raise IllegalMove("invalid_option", error.message, field=f"options.{path}" if path else "options")
        properties = self.options_schema.get("properties", {})
        filled = {key: spec["default"] for key, spec in properties.items() if "default" in spec}
        filled.update(options)
        return filled

    @abstractmethod
    def event_types(self) -> frozenset[str]:
        """Every event type :meth:`apply` folds (the engine's own, such as ``chance_resolved``, need not be named).

        A history holding any other type is refused when read, by name and version, instead of folding into
        nothing.
        """

    def event_schema(self) -> EventSchema:
        """The declared types with their schema versions and upcasters; a game whose events changed shape
        overrides this with its versions and one upcaster per version step."""
        return EventSchema(self.name, self.event_types())

    @cached_property
    def declared_events(self) -> EventSchema:
        """:meth:`event_schema`, built once: every fold consults it."""
        return self.event_schema()

    @abstractmethod
    def setup(self, created: JsonObject) -> StateT:
        """The state right after ``game_created``, from its data (options, seats, data versions).

        Deterministic: everything random at setup is a chance node the new
        state holds (dealing, first player, shuffled boards).
        """

    @abstractmethod
    def apply(self, state: StateT, event: Event) -> StateT:
        """Fold one event into the state. May mutate ``state``; total, no validation, no randomness.

        ``chance_resolved`` events carry the outcome of the node the state
        held (``domain.core.events.full_data(event)["outcome"]``).
        """

    @abstractmethod
    def decide(self, state: StateT, seat: str, command: JsonObject) -> list[Event]:
        """Events for a seat's command, or raise :class:`IllegalMove`. Must not mutate ``state``."""

    def decide_offered(self, state: StateT, seat: str, move: JsonObject) -> list[Event]:
        """The events of ``move``, which the caller took unchanged from ``legal_moves(state, seat)``.

        A search plays out thousands of moves it took from that list, and a game whose :meth:`decide` checks a
        command by listing every legal move again pays twice for each: such a game overrides this to build
        the events without the check. The conformance suite holds both to the same events.
        """
        return self.decide(state, seat, move)

    @abstractmethod
    def chance_node(self, state: StateT) -> ChanceNode | None:
        """The random outcome the game waits for, if any: it comes before any seat may act."""

    @abstractmethod
    def to_act(self, state: StateT) -> list[str]:
        """Seats whose command the game waits for: the active seat and seats with pending decisions."""

    # Move types a seat may submit whether or not the game waits for it (a claim open to anyone at any
    # time): the engine leaves their turn to :meth:`decide`, which names the rule when it refuses one.
    out_of_turn_moves: ClassVar[frozenset[str]] = frozenset()

    def may_act(self, state: StateT) -> list[str]:
        """Seats the game does not wait for that may act now all the same, with :attr:`out_of_turn_moves`."""
        return []

    def out_of_turn(self, state: StateT, seat: str) -> IllegalMove:
        """The refusal of a move by a seat the game does not wait for; a game whose rules say whose turn it
        is names that rule here."""
        return IllegalMove("not_your_turn", f"the game is not waiting for {seat}")

    # Every move a seat may submit, declared once (domain/<game>/move_types.py): the engine refuses a command
    # that does not fit its declaration before :meth:`decide` sees it.
    declared_moves: ClassVar[MoveTypes] = MoveTypes()

    def move_types(self) -> list[JsonObject]:
        """:attr:`declared_moves` for people and client authors, in the order a player meets them: ``{"type",
        "description", "rule_id", "fields": {name: {"description", "type", "required", ...}}}`` each."""
        return [move.to_json() for move in self.declared_moves.values()]

    @abstractmethod
    def legal_moves(self, state: StateT, seat: str) -> list[JsonObject]:
        """Every command ``seat`` may submit now, each complete and accepted as it stands by ``decide``."""

    @abstractmethod
    def view(self, state: StateT, reader: str | None) -> JsonObject:
        """What ``reader`` may see: a seat, ``ORGANISER`` (everything) or ``None`` (the public)."""

    @abstractmethod
    def secrets(self, state: StateT) -> dict[str, set[str]]:
        """Per seat, the unique tokens (card instance ids, ...) only that seat may see now.

        The conformance suite searches every other reader's payloads for them.
        """

    @abstractmethod
    def is_over(self, state: StateT) -> bool:
        """True once the game has ended, by its normal end or a catastrophe."""

    @abstractmethod
    def final_score(self, state: StateT) -> JsonObject:
        """The score sheet of an ended game.

        ``{"outcome": "ranked" | "all_lost" | ..., "lines": [{"seat", "rule", "label", "points"}],
        "totals": {seat: points}, "ranking": [{"rank", "seats"}], "tie_breaks": [{"rule", "detail"}]}``
        and any game-specific extras (e.g. achievements).
        """

    def standing(self, state: StateT) -> JsonObject:
        """The score sheet the game's own scoring makes of the position now, before its end: what a resignation
        or an abandoned game records (:func:`domain.core.table.score_sheet`). A game whose scoring needs an
        ended state overrides this."""
        return self.final_score(state)

    def state_to_json(self, state: StateT) -> JsonObject:
        """A JSON value that :meth:`state_from_json` turns back into an equal state.

        By default the state is a JSON object already; a game whose state holds anything else overrides
        both."""
        return cast(JsonObject, state)

    def state_from_json(self, value: JsonObject) -> StateT:
        return cast(StateT, value)

    def copy_state(self, state: StateT) -> StateT:
        """An independent copy, so ``apply`` may mutate it.

        Through :mod:`marshal`, the fastest faithful copy of plain JSON data (a search copies a state for
        every playout, and some games copy one to decide); the conformance suite holds every state to a
        JSON round trip, so nothing but JSON data is ever in one."""
        return self.state_from_json(marshal.loads(marshal.dumps(self.state_to_json(state))))
