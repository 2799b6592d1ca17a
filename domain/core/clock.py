"""Clocks: a game's optional time control, folded from the times the server gave its events.

A game created with a ``clock`` (TABLE-CLOCK-1) records it in ``game_created``'s data, as one of

* ``{"initial_seconds": N, "increment_seconds": M}`` (``fischer``): a total per seat, and M seconds more each
  time the seat's turn passes;
* ``{"turn_seconds": N}`` (``turn``): each turn of a seat lasts at most N seconds.

A seat's clock runs while the game waits for that seat, several at once in a simultaneous phase, and never while
a seat is open, while the organiser's draw is pending or after the end (TABLE-CLOCK-2). Time used is the gap
between consecutive events' ``time``, which the server sets when it appends them: nothing a client sends counts.
A claim (``claim_timeout``) is judged by the server's own clock when it decides (TABLE-CLOCK-3); a game ended by a
timeout is scored as the flagged seat's resignation (TABLE-CLOCK-4); a seat whose flag has fallen moves no more,
only a claim ends the game (TABLE-CLOCK-5). The flagged seat may claim against itself: it ends the game as its
resignation would, and spares the others the wait for a claim that can only be granted.

Times are kept in whole microseconds, the precision of the store's timestamps, so a fold from the stored envelopes
and the fold a process made as it decided (with the same ``now``) are equal to the last digit.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from domain.core.errors import IllegalMove
from domain.core.events import Event, JsonObject, make_event
from domain.core.move_types import Field, MoveType

FISCHER = "fischer"
TURN = "turn"
TIMEOUT_CLAIMED = "timeout_claimed"
# A week: far beyond any game's turn, small enough that no arithmetic on it surprises.
MAX_SECONDS = 7 * 24 * 3600
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_SECOND_US = 1_000_000

CLAIM_TIMEOUT = MoveType(
    "claim_timeout",
    "Claim that a seat's clock has run out: granted when the server's clock says so, and the game ends with that "
    "seat ranked last. Any seat, the flagged one included, or the organiser; only in a game with a clock.",
    "TABLE-CLOCK-3",
    (Field("flagged", "string", "the seat whose clock has run out"),),
)


class ClockRunning(IllegalMove):
    """A claim made while the flagged seat has time left: how much, for a client to set its own clock by."""

    def __init__(self, flagged: str, left_us: int):
        super().__init__("clock_running", f"{flagged}'s clock is still running: {_seconds(left_us)} s left",
                         rule_id="TABLE-CLOCK-3", field="flagged")
        self.remaining_ms = left_us // 1000


class OnClock(Protocol):
    """What the clock reads of a :class:`~domain.core.match.Match` to know whose clock runs."""

    rules: Any
    state: Any
    ended: bool
    table: Any
    clock: Clock | None

    @property
    def seats(self) -> list[str]: ...


def check_clock(value: Any) -> JsonObject:
    """TABLE-CLOCK-1: the ``clock`` of a new game, as it is recorded; a bad one names its field."""
    if not isinstance(value, dict):
        raise _bad("clock", "a clock is {\"initial_seconds\", \"increment_seconds\"} or {\"turn_seconds\"}")
    shape = ("turn_seconds",) if "turn_seconds" in value else ("initial_seconds", "increment_seconds")
    unknown = sorted(set(value) - set(shape))
    if unknown:
        raise _bad(f"clock.{unknown[0]}", f"a {'turn' if 'turn_seconds' in value else 'total'} clock has "
                   f"{' and '.join(shape)} only")
    checked: JsonObject = {}
    for name in shape:
        least = 0 if name == "increment_seconds" else 1
        seconds = value.get(name, 0 if name == "increment_seconds" else None)
        if seconds is None:
            raise _bad(f"clock.{name}", f"{name} is required")
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not least <= seconds <= MAX_SECONDS:
            raise _bad(f"clock.{name}", f"{name} is a whole number of seconds from {least} to {MAX_SECONDS}")
        checked[name] = seconds
    return checked


def _bad(field: str, message: str) -> IllegalMove:
    return IllegalMove("invalid_field", message, rule_id="TABLE-CLOCK-1", field=field)


def instant(time: str) -> int:
    """An event's ``time`` (ISO 8601, as the store writes it) in microseconds since the epoch."""
    return (datetime.fromisoformat(time) - _EPOCH) // _MICROSECOND


@dataclass
class Clock:
    """The clocks of a game's seats, as of the last event folded (``as_of``, its time): what each has left,
    whose turn it is (``turn_of``) and whose clock runs now (``running``: the same seats unless the game is
    paused for an open seat or the organiser's draw, or over). Left times may go below zero: a flag fallen."""

    settings: JsonObject
    left_us: dict[str, int]
    turn_of: list[str]
    running: list[str]
    as_of: str | None
    as_of_us: int | None

    @classmethod
    def at_creation(cls, created: JsonObject, time: str | None) -> Clock | None:
        settings = created.get("clock")
        if settings is None:
            return None
        budget = settings.get("turn_seconds", settings.get("initial_seconds", 0)) * _SECOND_US
        seats = [seat["seat"] for seat in created["seats"]]
        return cls(settings, dict.fromkeys(seats, budget), [], [], time, instant(time) if time else None)

    @property
    def mode(self) -> str:
        return TURN if "turn_seconds" in self.settings else FISCHER

    def copy(self) -> Clock:
        return Clock(self.settings, dict(self.left_us), list(self.turn_of), list(self.running), self.as_of,
                     self.as_of_us)

    def to_json(self) -> JsonObject:
        return {"left_us": self.left_us, "turn_of": self.turn_of, "running": self.running, "as_of": self.as_of}

    @classmethod
    def from_json(cls, value: JsonObject, created: JsonObject) -> Clock:
        as_of = value["as_of"]
        return cls(created["clock"], dict(value["left_us"]), list(value["turn_of"]), list(value["running"]), as_of,
                   instant(as_of) if as_of else None)

    def left_at(self, seat: str, now: str | None) -> int:
        """Microseconds ``seat`` has left at ``now`` (``None``: as of the last event)."""
        left = self.left_us[seat]
        if seat in self.running and now is not None and self.as_of_us is not None:
            left -= max(0, instant(now) - self.as_of_us)
        return left

    def fold(self, match: OnClock, time: str | None) -> None:
        """The event just folded into ``match`` happened at ``time``: the running clocks used the time since the
        last one (never less than none, should two processes' clocks disagree), then whose clock runs is
        settled on the game after it. An event without a time (a fold outside the service) took none."""
        if time is not None:
            now = instant(time)
            if self.as_of_us is not None:
                elapsed = max(0, now - self.as_of_us)
                for seat in self.running:
                    self.left_us[seat] -= elapsed
            self.as_of, self.as_of_us = time, now
        self.settle(match)

    def settle(self, match: OnClock) -> None:
        """TABLE-CLOCK-2: the clocks of the seats the game waits for run, unless it is over or paused; a seat whose
        turn has passed gains the increment (fischer), a seat whose turn begins gets a full turn (turn)."""
        if match.ended or match.table.over:
            self.running = []
            return
        if match.table.open_seats or match.rules.chance_node(match.state) is not None:
            self.running = []  # paused: the turn is still that seat's when the game goes on
            return
        seats = match.seats
        to_act = [seat for seat in match.rules.to_act(match.state) if seat in seats]
        if to_act != self.turn_of:
            if self.mode == FISCHER:
                increment = self.settings["increment_seconds"] * _SECOND_US
                for seat in self.turn_of:
                    if seat not in to_act:
                        self.left_us[seat] += increment
            else:
                for seat in to_act:
                    if seat not in self.turn_of:
                        self.left_us[seat] = self.settings["turn_seconds"] * _SECOND_US
            self.turn_of = to_act
        self.running = list(to_act)

    def view(self) -> JsonObject:
        """What every reader sees: the settings, and each seat's time left as of ``as_of`` (never below zero),
        with the running ones marked for a client to count down."""
        return {
            "mode": self.mode,
            **self.settings,
            "as_of": self.as_of,
            "seats": {seat: {"remaining_ms": max(0, left // 1000), "running": seat in self.running}
                      for seat, left in self.left_us.items()},
        }


def decide_claim(match: OnClock, actor: str, command: JsonObject, now: str | None) -> list[Event]:
    """TABLE-CLOCK-3: ``timeout_claimed`` if the flagged seat's clock runs and has run out at ``now``."""
    CLAIM_TIMEOUT.check(command)
    flagged = command["flagged"]
    if flagged not in match.seats:
        raise IllegalMove("unknown_seat", f"this game has seats {', '.join(match.seats)}", rule_id="TABLE-CLOCK-3",
                          field="flagged")
    clock = match.clock
    if clock is None:
        raise IllegalMove("not_on_clock", "this game has no clock", rule_id="TABLE-CLOCK-3", field="flagged")
    if flagged not in clock.running:
        raise IllegalMove("not_on_clock", f"the game is not waiting for {flagged}: its clock is stopped",
                          rule_id="TABLE-CLOCK-3", field="flagged")
    left = clock.left_at(flagged, now)
    if left > 0:
        raise ClockRunning(flagged, left)
    return [make_event(TIMEOUT_CLAIMED, {"flagged": flagged}, seat=actor)]


def refuse_out_of_time(match: OnClock, actor: str, now: str | None) -> None:
    """TABLE-CLOCK-5: once a seat's flag has fallen it moves no more; only a claim ends the game."""
    clock = match.clock
    if clock is not None and actor in clock.left_us and clock.left_at(actor, now) <= 0:
        raise IllegalMove("out_of_time", f"{actor}'s clock has run out: the game ends by a claim "
                          f"({{\"type\": \"claim_timeout\", \"flagged\": \"{actor}\"}})", rule_id="TABLE-CLOCK-5")


def _seconds(left_us: int) -> str:
    return f"{left_us / _SECOND_US:.3f}"
