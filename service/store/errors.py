"""What the store refuses, in terms the API maps to HTTP answers."""
from __future__ import annotations


class VersionConflict(Exception):
    """The game is not at the version the caller decided against (HTTP 409)."""

    def __init__(self, game_id: str, expected_version: int, current_version: int) -> None:
        super().__init__(f"game {game_id} is at version {current_version}, not {expected_version}")
        self.expected_version = expected_version
        self.current_version = current_version


class IdempotencyMismatch(Exception):
    """An idempotency key already recorded for a different command."""


class GameNotFound(Exception):
    """No game with that id."""


class RateLimited(Exception):
    """The rate-limit bucket an append was to charge is empty; nothing was appended."""

    def __init__(self, requests_left: float) -> None:
        super().__init__(f"rate limited ({requests_left:g} requests left in the bucket)")
        self.requests_left = requests_left


class NotReplicated(Exception):
    """A write the master applied but no replica confirmed in time: it could be lost with the master, so it
    is not acknowledged (HTTP 503). An append stays applied, and a retry with the same idempotency key is
    safe: it appends nothing twice. A creation is undone first, so a retry creates the game anew."""

    def __init__(self, game_id: str, confirmed: int, wanted: int) -> None:
        super().__init__(f"game {game_id}: {confirmed} of {wanted} replicas confirmed the write in time")
        self.confirmed = confirmed
        self.wanted = wanted
