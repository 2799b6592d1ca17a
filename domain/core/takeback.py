"""Taking back moves, the same for every game (TABLE-TAKEBACK-1 to TABLE-TAKEBACK-5, docs/api.md "Table rules").

A seat asks to take back its own trailing commands (``request_takeback``); the seats that answer (or the
organiser, in a game created with ``"takebacks": "organiser"``) accept or decline. The last acceptance is
followed, in its batch, by the engine's ``moves_taken_back``, whose fold makes the game's state what it was
at ``to_version``. Nothing is removed from the history: the events taken back stay in the log, and the
view lists their versions (``taken_back``), so a replay and the notation show what was played and undone.

The fold does not keep earlier states (copying one at every change of mover would cost more than the move
itself): whoever folds ``moves_taken_back`` passes ``earlier``, the state at an earlier version, and the
fold of an ordinary move keeps only who made the trailing commands, from which version, and whether a
chance outcome or a secret shown to another seat came among them (TABLE-TAKEBACK-4: revealed stays
revealed). Who made a command is read from its events alone, so every fold (stored envelopes, the events
of a submission, a record's) keeps the same bookkeeping: every game's events carry the seat that made the
command (the engine stamps them so, and tests/core/test_takeback.py holds every game to it), and an event
of nobody's is a chance outcome, which in server mode rides in the batch of the command that opened it and
in table mode is the organiser's draw. A command is thus taken back whole or not at all.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.core.errors import IllegalMove
from domain.core.events import ORGANISER, Event, JsonObject, make_event
from domain.core.move_types import MoveType, MoveTypes

REQUEST_TAKEBACK = MoveType(
    "request_takeback",
    "A seat asks to take back its own last commands: those it made since the last command of anyone else. "
    "The other seats (or the organiser, as the game's `takebacks` option says) answer.",
    "TABLE-TAKEBACK-1",
)
ACCEPT_TAKEBACK = MoveType(
    "accept_takeback",
    "Accept the open takeback request; the last acceptance rewinds the game to before the commands taken back.",
    "TABLE-TAKEBACK-2",
)
DECLINE_TAKEBACK = MoveType(
    "decline_takeback",
    "Decline the open takeback request: it closes, and nothing is taken back.",
    "TABLE-TAKEBACK-2",
)
TAKEBACK_MOVES = MoveTypes((REQUEST_TAKEBACK, ACCEPT_TAKEBACK, DECLINE_TAKEBACK))
MOVES_TAKEN_BACK = "moves_taken_back"
TAKEBACK_EVENTS = frozenset({"takeback_requested", "takeback_accepted", "takeback_declined", MOVES_TAKEN_BACK})

# Who answers a request, the game's ``takebacks`` option (TABLE-TAKEBACK-2); "seats" is never recorded.
SEATS, BY_ORGANISER, OFF = "seats", "organiser", "off"
TAKEBACK_MODES = (SEATS, BY_ORGANISER, OFF)

Earlier = Callable[[int], Any]
"""The game's state at an earlier version: what the fold of ``moves_taken_back`` rewinds to."""


def checked_mode(mode: str | None) -> str:
    """The ``takebacks`` option of a new game, ``seats`` when not given."""
    if mode is None:
        return SEATS
    if mode not in TAKEBACK_MODES:
        raise IllegalMove("invalid_field", f"takebacks must be one of {', '.join(TAKEBACK_MODES)}",
                          rule_id="TABLE-TAKEBACK-2", field="takebacks")
    return mode


def mode_of(created: JsonObject) -> str:
    """Who answers this game's requests; a game created without the field has the default."""
    mode: str = created.get("takebacks", SEATS)
    return mode


@dataclass
class Takeback:
    """What the fold keeps for takebacks: who made the trailing commands (``seat``, the organiser for its
    draws in table mode, ``None`` at the start and right after a takeback, TABLE-TAKEBACK-5), the version
    before the first of them (``since``) and of their last event (``last``), the first draw or shown secret
    among them (``draw``), the open request and the version ranges taken back so far."""

    seat: str | None = None
    since: int = 0
    last: int = 0
    draw: str | None = None
    request: JsonObject | None = None
    taken_back: list[list[int]] = field(default_factory=list)

    def copy(self) -> Takeback:
        # The request is replaced, never changed in place, by the fold: sharing it is safe.
        return Takeback(self.seat, self.since, self.last, self.draw, self.request, list(self.taken_back))

    def to_json(self) -> JsonObject:
        return {"seat": self.seat, "since": self.since, "last": self.last, "draw": self.draw,
                "request": self.request, "taken_back": self.taken_back}

    @classmethod
    def from_json(cls, value: JsonObject) -> Takeback:
        return cls(value["seat"], value["since"], value["last"], value["draw"], value["request"],
                   [list(taken) for taken in value["taken_back"]])

    def moved(self, event: Event, version: int, table_mode: bool) -> None:
        """Fold the bookkeeping of a game event (a move's or a chance outcome), the ``version + 1``-th of the
        game. It lapses an open request (TABLE-TAKEBACK-3); made by someone else than the trailing commands,
        it starts them anew."""
        self.request = None
        seat = event["seat"] or (ORGANISER if table_mode else self.seat)
        if seat != self.seat:
            self.seat, self.since, self.draw = seat, version, None
        self.last = version + 1
        if self.draw is None and (event["type"] == "chance_resolved" or _shown_to_another(event, self.seat)):
            self.draw = f"{event['data'].get('key', event['type'])} at version {version + 1}"

    def answered(self, event: Event) -> None:
        """Fold a request, an acceptance or a decline (``moves_taken_back`` is :func:`rewind`'s)."""
        kind, data = event["type"], event["data"]
        if kind == "takeback_requested":
            self.request = {"seat": event["seat"], "from_version": data["from_version"],
                            "to_version": data["to_version"], "waiting_for": list(data["waiting_for"])}
        elif kind == "takeback_accepted" and self.request is not None:
            waiting = [reader for reader in self.request["waiting_for"] if reader != event["seat"]]
            self.request = {**self.request, "waiting_for": waiting}
        elif kind == "takeback_declined":
            self.request = None

    def view(self) -> JsonObject | None:
        """The open request as every reader sees it: who asked, which versions, who is still to answer."""
        return dict(self.request) if self.request is not None else None

    def asker(self, mode: str) -> str | None:
        """The seat whose request would be taken now, so a table shows it the button: the one that made the
        trailing commands, unless takebacks are off, a request is open or a draw came among them."""
        if mode == OFF or self.request is not None or self.draw is not None or self.seat in (None, ORGANISER):
            return None
        return self.seat


def _shown_to_another(event: Event, mover: str | None) -> bool:
    """TABLE-TAKEBACK-4: the event shows a secret to a seat other than the one that made the command."""
    return "secret_to" in event and any(reader != mover for reader in event["secret_to"])


class WithTakeback(Protocol):
    """What deciding a takeback reads of a :class:`~domain.core.match.Match`."""

    created: JsonObject
    version: int
    takeback: Takeback

    @property
    def seats(self) -> list[str]: ...


def decide(match: WithTakeback, actor: str, command: JsonObject, resigned: list[str]) -> list[Event]:
    """The events of a takeback command, or :class:`IllegalMove`; ``resigned`` are the seats that left."""
    TAKEBACK_MOVES.check(command)
    kind, takeback = command["type"], match.takeback
    if kind == "request_takeback":
        return _request(match, actor, resigned)
    request = takeback.request
    if request is None:
        raise IllegalMove("no_takeback_pending", "no takeback request is open: there is nothing to answer",
                          rule_id="TABLE-TAKEBACK-2")
    if actor not in request["waiting_for"]:
        raise IllegalMove("not_yours_to_answer", _not_yours(actor, request), rule_id="TABLE-TAKEBACK-2")
    if kind == "decline_takeback":
        return [make_event("takeback_declined", {}, seat=actor)]
    accepted = make_event("takeback_accepted", {}, seat=actor)
    if request["waiting_for"] != [actor]:
        return [accepted]
    return [accepted, taken_back(request)]


def _request(match: WithTakeback, actor: str, resigned: list[str]) -> list[Event]:
    takeback = match.takeback
    mode = mode_of(match.created)
    if mode == OFF:
        raise IllegalMove("takebacks_off", "this game was created with takebacks off", rule_id="TABLE-TAKEBACK-2")
    if takeback.request is not None:
        raise IllegalMove("takeback_pending", f"{takeback.request['seat']} has asked for a takeback already; it "
                          "must be answered first", rule_id="TABLE-TAKEBACK-1")
    if actor == ORGANISER:
        raise IllegalMove("nothing_to_take_back", "the organiser makes no moves to take back",
                          rule_id="TABLE-TAKEBACK-1")
    if takeback.seat != actor:
        last = ("no seat has moved since the start or the last takeback" if takeback.seat is None
                else "the last command is the organiser's" if takeback.seat == ORGANISER
                else f"the last command is {takeback.seat}'s")
        raise IllegalMove("nothing_to_take_back", f"{actor} takes back only its own last commands: {last}",
                          rule_id="TABLE-TAKEBACK-1")
    if takeback.draw is not None:
        raise IllegalMove("takeback_past_draw", f"revealed information stays revealed: {takeback.draw} came "
                          "after the first command to take back", rule_id="TABLE-TAKEBACK-4")
    answer = [ORGANISER] if mode == BY_ORGANISER else [
        seat for seat in match.seats if seat != actor and seat not in resigned]
    requested = make_event("takeback_requested", {"from_version": takeback.last, "to_version": takeback.since,
                                                  "waiting_for": answer}, seat=actor)
    # TABLE-TAKEBACK-2: a solo game has nobody to ask.
    return [requested] if answer else [requested, taken_back(requested["data"])]


def taken_back(request: JsonObject) -> Event:
    return make_event(MOVES_TAKEN_BACK, {"from_version": request["from_version"], "to_version": request["to_version"]})


def _not_yours(actor: str, request: JsonObject) -> str:
    if actor == request["seat"]:
        return f"{actor} asked for this takeback: the others answer it"
    return f"this request waits for {', '.join(request['waiting_for'])}, not {actor}"


def rewind(takeback: Takeback, event: Event, earlier: Earlier | None) -> Any:
    """Fold ``moves_taken_back`` (TABLE-TAKEBACK-3): the state at its ``to_version``, from ``earlier``. The
    request closes and nothing is left to take back until a seat moves again (TABLE-TAKEBACK-5)."""
    if earlier is None:
        raise ValueError("folding moves_taken_back needs the state at an earlier version: pass earlier=")
    data = event["data"]
    state = earlier(data["to_version"])
    takeback.taken_back.append([data["to_version"] + 1, data["from_version"]])
    takeback.seat, takeback.draw, takeback.request = None, None, None
    return state
