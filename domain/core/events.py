"""Events as plain JSON values, and how each reader is shown them.

An event is ``{"type", "seat", "data"}`` plus, when part of it is hidden,
``"secret"`` (a dict merged over ``data`` for those allowed to see it) and
``"secret_to"`` (the seats allowed). Keeping the hidden part apart from the
public part is what lets every path out of the service (log, live feed,
export) redact the same way.
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict, TypeVar, cast

ORGANISER = "organiser"

# What redaction removes: the secret data and, in a stored envelope, the salt
# of its hash (``secret_hash`` stays, so a redacted history still verifies).
SECRET_KEYS = ("secret", "secret_salt")

JsonObject = dict[str, Any]
"""A JSON object as Python holds it: a command, a view, an event's data, a score sheet."""


class Event(TypedDict):
    """What the rules decide and apply: a type, the seat it is of (``None`` for the engine's own), its data."""

    type: str
    seat: str | None
    data: JsonObject
    secret: NotRequired[JsonObject]
    secret_to: NotRequired[list[str]]
    # The shape the data was written in, where that is not the first (see domain.core.upcasting).
    schema_version: NotRequired[int]
    # Once redacted for a reader: the keys of the secret they were not shown.
    redacted: NotRequired[list[str]]
    # In a stored envelope, the salt of the secret's hash: redaction removes it with the secret.
    secret_salt: NotRequired[str]


EventT = TypeVar("EventT", bound=Event)


def make_event(
    type_: str,
    data: JsonObject | None = None,
    seat: str | None = None,
    secret: JsonObject | None = None,
    secret_to: list[str] | tuple[str, ...] | None = None,
) -> Event:
    """Build an event; ``secret`` with ``secret_to=None`` is seen by the organiser alone."""
    event: Event = {"type": type_, "seat": seat, "data": dict(data or {})}
    if secret is not None:
        event["secret"] = dict(secret)
        event["secret_to"] = list(secret_to or [])
    return event


def full_data(event: Event) -> JsonObject:
    """Public and secret data together: what the rules apply."""
    if "secret" in event:
        return {**event["data"], **event["secret"]}
    return event["data"]


def seat_of(event: Event) -> str:
    """The seat of an event a seat's command produced: the engine writes the seat into each of them, and only
    its own events (a chance outcome, the end of the game) are of no seat."""
    seat = event["seat"]
    if seat is None:
        raise ValueError(f"a {event['type']} event is of no seat")
    return seat


def may_read_secret(event: Event, reader: str | None, revealed: bool) -> bool:
    return "secret" not in event or revealed or reader == ORGANISER or reader in event.get("secret_to", [])


def redact_event(event: EventT, reader: str | None, revealed: bool = False) -> EventT:
    """The event as ``reader`` may see it (``None`` is the public).

    ``revealed`` is true once the game has ended: from then on every secret
    is public, as the revealed seed lets anyone re-derive it anyway.
    """
    if may_read_secret(event, reader, revealed):
        return event
    shown: Event = event.copy()
    secret = shown.pop("secret")
    shown.pop("secret_salt", None)
    shown["redacted"] = sorted(secret)
    # ``event`` less two keys that every event type leaves optional: of ``event``'s own type still.
    return cast(EventT, shown)


def strings_in(value: object, into: set[str]) -> set[str]:
    """Every string (values and keys) inside a JSON value: what a payload could show of a secret token."""
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            into.add(key)
            strings_in(item, into)
    elif isinstance(value, list | tuple):
        for item in value:
            strings_in(item, into)
    return into
