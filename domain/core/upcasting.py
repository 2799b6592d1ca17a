"""Event types a game declares, their schema versions, and the upcasters that bring old events up to date.

A stored history outlives the code that wrote it. Every event type a game folds is declared with the
schema version of the shape it writes today; an event records the version it was written at
(``schema_version``, 1 when absent, as in every event stored before versions existed). Reading an older
event runs the game's upcasters one version step at a time, as the ``eventsourcing`` library does, so
the rules only ever see events of today's shape. An event of a type the game does not declare is refused
by name rather than folded as if nothing had happened.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, cast

from domain.core.events import Event, EventT, JsonObject
from domain.core.table import TABLE_EVENTS

SCHEMA_VERSION: Final = "schema_version"
FIRST_VERSION: Final = 1
# Folded by the match engine itself, or made by it for every game (chance outcomes).
# The table's events (resignations, joins, ...) are the engine's too.
ENGINE_EVENT_TYPES = frozenset({"game_created", "game_ended", "game_scored", "chance_resolved"}) | TABLE_EVENTS

# One step: the data of an event at version n, as the same event would carry it at version n + 1.
Upcaster = Callable[[JsonObject], JsonObject]


class UndeclaredEvent(ValueError):
    """A history holds an event its game does not declare (another build of Cairn, or an edit)."""

    def __init__(self, game: str, event_type: str, version: int | None, schema_version: object = None):
        """``schema_version`` as the event records it, which a tampered record may give as any value."""
        self.game, self.event_type, self.version, self.schema_version = game, event_type, version, schema_version
        at = f" at version {version}" if version is not None else ""
        shape = f" of schema version {schema_version}" if schema_version is not None else ""
        super().__init__(f"{game} has no event type {event_type!r}{shape}{at}: this Cairn cannot fold it")


class EventSchema:
    """What one game declares: every event type it folds, and how older shapes are upgraded."""

    def __init__(self, game: str, types: frozenset[str], versions: Mapping[str, int] | None = None,
                 upcasters: Mapping[tuple[str, int], Upcaster] | None = None):
        self.game = game
        self.types = types | ENGINE_EVENT_TYPES
        self.versions = dict(versions or {})
        self.upcasters = dict(upcasters or {})
        for (event_type, step), _ in self.upcasters.items():
            if not FIRST_VERSION <= step < self.current(event_type):
                raise ValueError(f"{game}: an upcaster of {event_type} from version {step} has no version to reach")

    def current(self, event_type: str) -> int:
        """The schema version today's rules write ``event_type`` at."""
        return self.versions.get(event_type, FIRST_VERSION)

    def stamp(self, event: Event) -> Event:
        """A freshly decided event, marked with its schema version where that is not the first."""
        version = self.current(event["type"])
        return event if version == FIRST_VERSION else {**event, SCHEMA_VERSION: version}

    def upcast(self, event: EventT, at: int | None = None) -> EventT:
        """``event`` in today's shape; :class:`UndeclaredEvent` when the game has no such type or version."""
        event_type = event["type"]
        written = event.get(SCHEMA_VERSION, FIRST_VERSION)
        if event_type not in self.types:
            raise UndeclaredEvent(self.game, event_type, at)
        current = self.current(event_type)
        if written == current:
            return event
        if not isinstance(written, int) or not FIRST_VERSION <= written < current:
            raise UndeclaredEvent(self.game, event_type, at, written)
        data = event["data"]
        for step in range(written, current):
            data = self.upcasters[(event_type, step)](data)
        upcast: Event = event.copy()
        upcast["data"], upcast[SCHEMA_VERSION] = data, current
        # ``event`` with two of the keys every event has set anew: of ``event``'s own type still.
        return cast(EventT, upcast)
