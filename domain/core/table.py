"""What every online table needs, the same for every game, recorded as events like any other move.

A table's commands are decided by the engine, not by a game's rules, and nothing they record is ever
taken back out of a history:

* ``resign`` (a seat): ``seat_resigned``, and the game ends at once (TABLE-RESIGN-1); its score sheet ranks
  the resigning seat last and the others as the game's own scoring ranks them then (TABLE-RESIGN-2);
* ``abandon`` (the organiser): ``game_abandoned``, and the game ends, scored as abandoned: nobody is ranked
  (TABLE-ABANDON-1);
* ``claim_timeout`` (a seat or the organiser, in a game with a clock): ``timeout_claimed``, decided by
  :mod:`domain.core.clock` against the server's time, and the game ends, scored as the flagged seat's
  resignation (TABLE-CLOCK-3, TABLE-CLOCK-4);
* ``join_seat`` (whoever takes an open seat, through ``POST /games/{id}/seats/{seat}/join``):
  ``seat_joined`` with the name of the player who took it (TABLE-SEAT-2);
* ``rotate_token`` (the organiser, or a reader for its own token, through
  ``POST /games/{id}/seats/{seat}/token``): ``token_rotated``, naming the reader whose token changed and
  nothing of either token (TABLE-TOKEN-1);
* ``request_takeback``, ``accept_takeback`` and ``decline_takeback``: asking to take back one's last
  commands and answering (TABLE-TAKEBACK-*, :mod:`domain.core.takeback`); what a takeback rewinds is the
  game's state, never the table.

A game created with open seats refuses every seat's game move until each seat is taken (TABLE-SEAT-1): a
game of two cannot be played by one. The organiser's draws are taken meanwhile, as the server makes its
own at creation: the cards are dealt before everyone sits down.

``resign``, ``abandon``, ``claim_timeout`` and the takeback's three are posted to the moves endpoint like any
move, with its version and idempotency discipline; ``join_seat`` and ``rotate_token`` change who holds a token,
so only their own endpoints take them,
where the service stores the new token's hash in the same step as the event.
The rules are written out in docs/api.md ("Table rules"), and each game's page says how it scores.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.core.clock import CLAIM_TIMEOUT, TIMEOUT_CLAIMED
from domain.core.errors import IllegalMove
from domain.core.events import ORGANISER, Event, JsonObject, make_event
from domain.core.move_types import Field, MoveType, MoveTypes
from domain.core.takeback import TAKEBACK_EVENTS, TAKEBACK_MOVES, Takeback
from domain.core.takeback import decide as decide_takeback

RESIGN = MoveType(
    "resign",
    "A seat gives up: the game ends at once, and the score sheet ranks this seat last. Any seat, at any time "
    "before the end, whoever's turn it is; never the organiser (who abandons instead).",
    "TABLE-RESIGN-1",
)
ABANDON = MoveType(
    "abandon",
    "The organiser ends a game that will not be finished: it ends at once, scored as abandoned (nobody is ranked).",
    "TABLE-ABANDON-1",
    (Field("reason", "string", "why the game was abandoned, for the record", required=False),),
)
JOIN_SEAT = MoveType(
    "join_seat",
    "Take an open seat (POST /games/{id}/seats/{seat}/join only).",
    "TABLE-SEAT-2",
    (Field("name", "string", "the name of the player taking the seat", required=False),),
)
ROTATE_TOKEN = MoveType(
    "rotate_token",
    "Replace a reader's token (POST /games/{id}/seats/{seat}/token only).",
    "TABLE-TOKEN-1",
    (Field("reader", "string", "the seat, or organiser, whose token is replaced"),),
)
# Posted to the moves endpoint, by any game's seats or organiser.
TABLE_MOVES = MoveTypes((RESIGN, ABANDON, CLAIM_TIMEOUT), tuple(TAKEBACK_MOVES.values()))
# Only the seat endpoints submit these: each changes who holds a token, which the service stores with the event.
SEAT_COMMANDS = MoveTypes((JOIN_SEAT, ROTATE_TOKEN))
TABLE_COMMANDS = frozenset({*TABLE_MOVES, *SEAT_COMMANDS})
TABLE_EVENTS = (frozenset({"seat_resigned", "game_abandoned", "seat_joined", "token_rotated", TIMEOUT_CLAIMED})
                | TAKEBACK_EVENTS)
RESIGNED = "resigned"
ABANDONED = "abandoned"
TIMEOUT = "timeout"


@dataclass
class Table:
    """The table around a game, folded from the events: which seats are still open and who took the others,
    who resigned, whether the organiser abandoned the game, and the version of the last change of who holds
    a token (a process that knows tokens from before it must read them again)."""

    open_seats: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    resigned: list[str] = field(default_factory=list)
    abandoned: bool = False
    reason: str | None = None
    tokens_changed_at: int = 1
    # The seat whose clock ran out, once a claim was granted (TABLE-CLOCK-3).
    timed_out: str | None = None

    @classmethod
    def at_creation(cls, created: JsonObject) -> Table:
        return cls(open_seats=[seat["seat"] for seat in created["seats"] if seat.get("open")])

    @property
    def over(self) -> bool:
        """The table has ended the game, whatever its rules say of the position."""
        return self.abandoned or bool(self.resigned) or self.timed_out is not None

    def ended_by(self) -> JsonObject | None:
        """``{"reason": "resigned" | "timeout", "seat"}`` or ``{"reason": "abandoned", "detail"}``, ``None`` for a
        rules end."""
        if self.timed_out is not None:
            return {"reason": TIMEOUT, "seat": self.timed_out}
        if self.resigned:
            return {"reason": RESIGNED, "seat": self.resigned[0]}
        if self.abandoned:
            return {"reason": ABANDONED, "detail": self.reason}
        return None

    def copy(self) -> Table:
        return Table(list(self.open_seats), dict(self.names), list(self.resigned), self.abandoned, self.reason,
                     self.tokens_changed_at, self.timed_out)

    def to_json(self) -> JsonObject:
        return {"open_seats": self.open_seats, "names": self.names, "resigned": self.resigned,
                "abandoned": self.abandoned, "reason": self.reason, "tokens_changed_at": self.tokens_changed_at,
                **({"timed_out": self.timed_out} if self.timed_out is not None else {})}

    @classmethod
    def from_json(cls, value: JsonObject | None, created: JsonObject) -> Table:
        """A snapshot written before tables existed has no table: nothing had happened at it then."""
        if value is None:
            return cls.at_creation(created)
        return cls(list(value["open_seats"]), dict(value["names"]), list(value["resigned"]), value["abandoned"],
                   value["reason"], value["tokens_changed_at"], value.get("timed_out"))

    def apply(self, event: Event, version: int) -> None:
        """Fold one table event, the ``version``-th of the game."""
        kind, seat = event["type"], event["seat"]
        if kind == "seat_resigned" and seat is not None:
            self.resigned.append(seat)
        elif kind == "game_abandoned":
            self.abandoned, self.reason = True, event["data"].get("reason")
        elif kind == "seat_joined" and seat is not None:
            self.open_seats = [open_seat for open_seat in self.open_seats if open_seat != seat]
            if event["data"].get("name"):
                self.names[seat] = event["data"]["name"]
            self.tokens_changed_at = version
        elif kind == "token_rotated":
            self.tokens_changed_at = version
        elif kind == TIMEOUT_CLAIMED:
            self.timed_out = event["data"]["flagged"]


class AtTable(Protocol):
    """What the table reads of a :class:`~domain.core.match.Match` (named so, since the match imports this
    module): its table, its creation, its seats and its rules and state for the score, its version and
    takeback bookkeeping for a takeback."""

    table: Table
    created: JsonObject
    rules: Any
    state: Any
    version: int
    takeback: Takeback

    @property
    def seats(self) -> list[str]: ...


def decide(match: AtTable, actor: str, command: JsonObject) -> list[Event]:
    """The events of a table command (its type is in :data:`TABLE_COMMANDS`), or :class:`IllegalMove`."""
    kind = command["type"]
    declared = TABLE_MOVES if kind in TABLE_MOVES else SEAT_COMMANDS
    declared.check(command)
    if kind in TAKEBACK_MOVES:
        return decide_takeback(match, actor, command, match.table.resigned)
    if kind == "resign":
        if actor == ORGANISER:
            raise IllegalMove("organiser_cannot_resign", "the organiser has no seat to resign: it abandons the game "
                              "instead ({\"type\": \"abandon\"})", rule_id="TABLE-RESIGN-3")
        if actor in match.table.open_seats:
            raise IllegalMove("seat_open", f"{actor} is open: nobody has taken it to resign", rule_id="TABLE-SEAT-2",
                              field="seat")
        return [make_event("seat_resigned", {}, seat=actor)]
    if kind == "abandon":
        if actor != ORGANISER:
            raise IllegalMove("not_organiser", "only the organiser abandons a game; a seat resigns",
                              rule_id="TABLE-ABANDON-1")
        return [make_event("game_abandoned", {"reason": command.get("reason")}, seat=ORGANISER)]
    if kind == "join_seat":
        if actor not in match.table.open_seats:
            raise IllegalMove("seat_taken", f"{actor} is not open: someone holds its token", rule_id="TABLE-SEAT-2",
                              field="seat")
        return [make_event("seat_joined", {"name": command.get("name")}, seat=actor)]
    reader = command["reader"]
    if reader != ORGANISER and reader not in match.seats:
        raise IllegalMove("unknown_seat", f"this game has seats {', '.join(match.seats)} and the organiser",
                          field="reader")
    if actor not in (ORGANISER, reader):
        raise IllegalMove("wrong_seat", f"a {actor} token rotates its own token only", rule_id="TABLE-TOKEN-1",
                          field="reader")
    if reader in match.table.open_seats:
        raise IllegalMove("seat_open", f"{reader} is open and has no token; it gets one when it is taken",
                          rule_id="TABLE-SEAT-2", field="reader")
    return [make_event("token_rotated", {"reader": reader}, seat=actor)]


def refuse_until_seated(match: AtTable) -> None:
    """TABLE-SEAT-1: no game move while a seat is open."""
    if match.table.open_seats:
        raise IllegalMove("seats_open", f"the game starts once every seat is taken; open: "
                          f"{', '.join(match.table.open_seats)}", rule_id="TABLE-SEAT-1")


def refuse_resigned(match: AtTable, actor: str) -> None:
    """TABLE-RESIGN-1: a seat that resigned has left the game."""
    if actor in match.table.resigned:
        raise IllegalMove("seat_resigned", f"{actor} resigned at the end of this game and moves no more",
                          rule_id="TABLE-RESIGN-1")


def seats_view(match: AtTable) -> list[JsonObject]:
    """The seats as a view shows them: the name of whoever took an open seat, and ``open`` while none has."""
    table = match.table
    return [{**seat, "name": table.names.get(seat["seat"], seat["name"]), "open": seat["seat"] in table.open_seats}
            for seat in match.created["seats"]]


def score_sheet(match: AtTable) -> JsonObject:
    """The final score sheet of an ended game: the rules' own, unless the table ended it (TABLE-RESIGN-2,
    TABLE-ABANDON-1, TABLE-CLOCK-4). The scoring worker and every audit use this one function."""
    table = match.table
    if not table.over:
        sheet: JsonObject = match.rules.final_score(match.state)
        return sheet
    standing: JsonObject = match.rules.standing(match.state)
    if table.timed_out is not None:  # TABLE-CLOCK-4: scored as the flagged seat's resignation
        return {"outcome": TIMEOUT, "rule": "TABLE-CLOCK-4", "flagged": table.timed_out,
                "lines": standing.get("lines", []), "totals": standing.get("totals", {}),
                "ranking": resigned_last(standing.get("ranking", []), match.seats, [table.timed_out]),
                "tie_breaks": standing.get("tie_breaks", [])}
    if table.abandoned and not table.resigned:
        return {"outcome": ABANDONED, "rule": "TABLE-ABANDON-1", "detail": table.reason,
                "lines": standing.get("lines", []), "totals": standing.get("totals", {}), "ranking": [],
                "tie_breaks": [], "standing": standing.get("ranking", [])}
    return {"outcome": RESIGNED, "rule": "TABLE-RESIGN-2", "resigned": list(table.resigned),
            "lines": standing.get("lines", []), "totals": standing.get("totals", {}),
            "ranking": resigned_last(standing.get("ranking", []), match.seats, table.resigned),
            "tie_breaks": standing.get("tie_breaks", [])}


def resigned_last(ranking: list[JsonObject], seats: list[str], resigned: list[str]) -> list[JsonObject]:
    """The standing's ranking with the resigned seats taken out and put last, sharing the last rank; ranks
    count the seats ahead, as the games' own sheets do (two tied first, then third). A seat the standing
    does not rank (a game with no standing yet) comes after the ranked ones, before the resigned."""
    ranked = [[seat for seat in entry["seats"] if seat not in resigned] for entry in ranking]
    groups = [group for group in ranked if group]
    placed = {seat for group in groups for seat in group}
    rest = [seat for seat in seats if seat not in placed and seat not in resigned]
    groups += [rest] if rest else []
    groups.append([seat for seat in seats if seat in resigned])
    result: list[JsonObject] = []
    for group in groups:
        result.append({"rank": 1 + sum(len(entry["seats"]) for entry in result), "seats": group})
    return result
