"""Events as plain JSON values, and how each reader is shown them.

An event is ``{"type", "seat", "data"}`` plus, when part of it is hidden,
``"secret"`` (a dict merged over ``data`` for those allowed to see it) and
``"secret_to"`` (the seats allowed). Keeping the hidden part apart from the
public part is what lets every path out of the service (log, live feed,
export) redact the same way.
"""
from __future__ import annotations

from typing import Any

ORGANISER = "organiser"

# What redaction removes: the secret data and, in a stored envelope, the salt
# of its hash (``secret_hash`` stays, so a redacted history still verifies).
SECRET_KEYS = ("secret", "secret_salt")

Event = dict[str, Any]


def make_event(
    type_: str,
    data: dict | None = None,
    seat: str | None = None,
    secret: dict | None = None,
    secret_to: list[str] | tuple[str, ...] | None = None,
) -> Event:
    """Build an event; ``secret`` with ``secret_to=None`` is seen by the organiser alone."""
    event: Event = {"type": type_, "seat": seat, "data": dict(data or {})}
    if secret is not None:
        event["secret"] = dict(secret)
        event["secret_to"] = list(secret_to or [])
    return event


def full_data(event: Event) -> dict:
    """Public and secret data together: what the rules apply."""
    if "secret" in event:
        return {**event["data"], **event["secret"]}
    return event["data"]


def may_read_secret(event: Event, reader: str | None, revealed: bool) -> bool:
    return "secret" not in event or revealed or reader == ORGANISER or reader in event.get("secret_to", [])


def redact_event(event: Event, reader: str | None, revealed: bool = False) -> Event:
    """The event as ``reader`` may see it (``None`` is the public).

    ``revealed`` is true once the game has ended: from then on every secret
    is public, as the revealed seed lets anyone re-derive it anyway.
    """
    if may_read_secret(event, reader, revealed):
        return event
    shown = {key: value for key, value in event.items() if key not in SECRET_KEYS}
    shown["redacted"] = sorted(event["secret"])
    return shown


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
