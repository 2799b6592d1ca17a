"""One game in progress: a game's rules plus what every game has in common.

The engine owns four event types of its own, the same for every game:

* ``game_created``: game name, rules and data versions, options, seats,
  chance mode and the hash of the committed seed; always version 1;
* ``chance_resolved``: the outcome of the pending chance node;
* ``game_ended``: appended as soon as the rules say the game is over; it
  reveals the seed, so anyone can re-derive every chance outcome;
* ``game_scored``: the final score sheet (appended by the scoring worker);
* the table's events (``seat_resigned``, ``game_abandoned``, ``seat_joined``, ``token_rotated``), decided by
  :mod:`domain.core.table` for every game alike, and ``timeout_claimed``, decided by :mod:`domain.core.clock`
  for a game created with a clock, which the match folds from its events' times (``Match.clock``);
* the takeback's events (``takeback_requested``, ``takeback_accepted``, ``takeback_declined`` and
  ``moves_taken_back``, :mod:`domain.core.takeback`): folding ``moves_taken_back`` needs the state at an
  earlier version, which :func:`apply_event` is given as ``earlier``.

Everything else is the game's own. State is only ever the fold of the events;
:func:`submit` decides and folds on a copy, so a refused command changes
nothing.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from math import perm
from typing import Any, Generic

from domain.core.canonical import sha256_hex
from domain.core.chance import CHANCE_MODES, SERVER, TABLE, ChanceNode, check_outcome, derive_outcome
from domain.core.clock import CLAIM_TIMEOUT, Clock, check_clock, decide_claim, refuse_out_of_time
from domain.core.errors import IllegalMove
from domain.core.events import ORGANISER, Event, JsonObject, make_event, redact_event
from domain.core.move_types import CHANCE_MOVE, ORGANISER_MOVES
from domain.core.rules import Rules, StateT
from domain.core.table import TABLE_COMMANDS, TABLE_EVENTS, Table, refuse_resigned, refuse_until_seated, seats_view
from domain.core.table import decide as decide_table
from domain.core.takeback import (
    MOVES_TAKEN_BACK,
    SEATS,
    TAKEBACK_EVENTS,
    Earlier,
    Takeback,
    checked_mode,
    mode_of,
    rewind,
)
from domain.core.upcasting import SCHEMA_VERSION

RESOLVE_CHANCE = CHANCE_MOVE.type
# The most outcomes a chance decision's legal moves list one by one; beyond it they are one template.
MAX_LISTED_OUTCOMES = 20


@dataclass
class Match(Generic[StateT]):
    """A game's folded history. ``version`` is the number of events folded."""

    rules: Rules[StateT]
    created: JsonObject
    state: StateT
    version: int = 1
    ended: bool = False
    seed: str | None = None
    score: JsonObject | None = None
    table: Table = field(default_factory=Table)
    takeback: Takeback = field(default_factory=Takeback)
    # The game's time control (domain.core.clock), None for a game created without one.
    clock: Clock | None = None

    @property
    def seats(self) -> list[str]:
        return [seat["seat"] for seat in self.created["seats"]]

    @property
    def chance_mode(self) -> str:
        mode: str = self.created["chance_mode"]
        return mode

    @property
    def status(self) -> str:
        if self.score is not None:
            return "scored"
        return "ended" if self.ended else "active"

    def copy(self) -> Match[StateT]:
        return Match(
            self.rules, self.created, self.rules.copy_state(self.state), self.version, self.ended, self.seed,
            self.score, self.table.copy(), self.takeback.copy(),
            self.clock.copy() if self.clock is not None else None,
        )


def seat_ids(count: int) -> list[str]:
    """Seats are ``p1`` .. ``pN`` in seating order."""
    return [f"p{index}" for index in range(1, count + 1)]


def create(
    rules: Rules[StateT], options: JsonObject, player_names: list[str], chance_mode: str, seed: str | None,
    open_seats: Sequence[str] = (), takebacks: str | None = None, clock: JsonObject | None = None,
    now: str | None = None,
) -> tuple[Match[StateT], list[Event]]:
    """The opening events of a new game: ``game_created`` and, in server mode, the opening draws.

    ``open_seats`` are seats nobody holds yet (TABLE-SEAT-1): their names are placeholders until
    someone takes them, and no game move is taken before every seat is. ``takebacks`` says who answers a
    takeback request (TABLE-TAKEBACK-2); recorded only when it is not the default, so a game created
    without it records what it always did. A ``clock`` (TABLE-CLOCK-1) starts at ``now``, the time the
    store gives the opening events."""
    if chance_mode not in CHANCE_MODES:
        raise IllegalMove("invalid_field", f"chance_mode must be one of {', '.join(CHANCE_MODES)}", field="chance_mode")
    if chance_mode == SERVER and not seed:
        raise IllegalMove("invalid_field", "server mode needs a seed", field="seed")
    mode = checked_mode(takebacks)
    options = rules.validate_options(dict(options or {}), len(player_names))
    seats = seat_ids(len(player_names))
    unknown = sorted(set(open_seats) - set(seats))
    if unknown:
        raise IllegalMove("unknown_seat", f"{unknown[0]} is not a seat of a game of {len(seats)}", field="open_seats")
    # Recorded only when given, so a game without a clock records what it did before clocks existed.
    timed = {"clock": check_clock(clock)} if clock is not None else {}
    created = make_event(
        "game_created",
        {
            "game": rules.name,
            "rules_version": rules.rules_version,
            "data_versions": rules.data_versions(),
            "options": options,
            "seats": [{"seat": seat, "name": name, **({"open": True} if seat in open_seats else {})}
                      for seat, name in zip(seats, player_names, strict=True)],
            "chance_mode": chance_mode,
            "seed_hash": sha256_hex(seed) if seed and chance_mode == SERVER else None,
            **({"takebacks": mode} if mode != SEATS else {}),
            **timed,
        },
    )
    match = start(rules, created, now)
    events = [created] + _follow_up(match, seed, now)
    return match, events


def match_to_json(match: Match[Any]) -> JsonObject:
    """Everything a snapshot needs to stand in for the fold of the first ``version`` events."""
    return {
        "created": match.created,
        "state": match.rules.state_to_json(match.state),
        "version": match.version,
        "ended": match.ended,
        "seed": match.seed,
        "score": match.score,
        # Only a table that has changed since the creation is written, so a snapshot of a game without table
        # events is the one written before tables existed, and those still check out as the fold.
        **({"table": match.table.to_json()} if match.table != Table.at_creation(match.created) else {}),
        # Always written: the bookkeeping changes with the first game event, so a snapshot without it is one
        # an older release wrote, which loads refuse (and rebuild from the events) rather than fold on wrongly.
        "takeback": match.takeback.to_json(),
        **({"clock": match.clock.to_json()} if match.clock is not None else {}),
    }


def match_from_json(value: JsonObject, rules: Rules[StateT]) -> Match[StateT]:
    return Match(
        rules=rules,
        created=value["created"],
        state=rules.state_from_json(value["state"]),
        version=value["version"],
        ended=value["ended"],
        seed=value["seed"],
        score=value["score"],
        table=Table.from_json(value.get("table"), value["created"]),
        takeback=Takeback.from_json(value["takeback"]),
        clock=Clock.from_json(value["clock"], value["created"]) if "clock" in value["created"] else None,
    )


def start(rules: Rules[StateT], created: Event, time: str | None = None) -> Match[StateT]:
    """The match right after its ``game_created`` event, stored at its ``time`` or about to be at ``time``."""
    data = created["data"]
    match = Match(rules=rules, created=data, state=rules.setup(data), table=Table.at_creation(data),
                  clock=Clock.at_creation(data, event_time(created) or time))
    if match.clock is not None:
        match.clock.settle(match)
    return match


def apply_event(
    match: Match[StateT], event: Event, earlier: Earlier | None = None, *, time: str | None = None
) -> Match[StateT]:
    """Fold one event into ``match`` in place (replay's inner loop).

    ``earlier`` gives the game's state at an earlier version, for ``moves_taken_back`` (a
    :class:`ValueError` without it). A stored event carries its ``time``; ``time`` stands in for it in an
    event about to be stored then.
    """
    kind = event["type"]
    if kind == "game_ended":
        match.ended = True
        match.seed = event["data"].get("seed")
    elif kind == "game_scored":
        match.score = event["data"]["score_sheet"]
    elif kind in TABLE_EVENTS:
        if kind not in TAKEBACK_EVENTS:
            match.table.apply(event, match.version + 1)
        elif kind == MOVES_TAKEN_BACK:
            match.state = rewind(match.takeback, event, earlier)
        else:
            match.takeback.answered(event)
    else:
        match.takeback.moved(event, match.version, match.created["chance_mode"] == TABLE)
        rules = match.rules
        schema = rules.declared_events
        # The common case, a declared type written at its first and current schema version, needs no upcast:
        # the same answer as ``schema.upcast`` without its call, in the loop every replay spends its time in.
        if SCHEMA_VERSION in event or kind not in schema.types or kind in schema.versions:
            event = schema.upcast(event, match.version + 1)
        match.state = rules.apply(match.state, event)
    match.version += 1
    if match.clock is not None:
        match.clock.fold(match, event_time(event) or time)
    return match


def event_time(event: Event) -> str | None:
    """A stored event's ``time`` (its envelope's), ``None`` for one not stored yet."""
    time: str | None = event.get("time")  # type: ignore[assignment]  # an envelope's key, not an event's
    return time


def replay(events: Sequence[Event], rules_for: Callable[[str], Rules[Any]]) -> Match[Any]:
    """Rebuild a match from its whole history, first event ``game_created``."""
    first = events[0]
    if first["type"] != "game_created":
        raise ValueError("a history starts with game_created")
    match = start(rules_for(first["data"]["game"]), first)
    earlier = replaying(events, rules_for)
    for event in events[1:]:
        apply_event(match, event, earlier)
    return match


def replaying(events: Sequence[Event], rules_for: Callable[[str], Rules[Any]]) -> Earlier:
    """The state at an earlier version, folded again from ``events``, a history from ``game_created`` that
    the caller keeps (and may go on appending to): the ``earlier`` of a fold that has no store to load from."""
    return lambda version: replay(events[:version], rules_for).state


def submit(
    match: Match[Any], actor: str, command: JsonObject, seed: str | None = None, earlier: Earlier | None = None,
    *, now: str | None = None,
) -> list[Event]:
    """The events one command produces, or :class:`IllegalMove`. ``match`` is left as it was.

    ``actor`` is a seat, or ``ORGANISER`` resolving a chance node in table
    mode. In server mode every chance node the command opens is resolved from
    ``seed`` in the same batch, so a seat never waits on the server.

    Before the rules decide, the command is held to its declaration (the
    game's :attr:`~domain.core.rules.Rules.declared_moves`, or
    :data:`~domain.core.move_types.CHANCE_MOVE`): a field the move does not
    have is refused as ``unknown_field``, since it would be recorded and mean
    nothing, and a missing or mistyped one too, so ``decide`` only ever reads
    well-formed commands.

    ``now`` is the time the events will be stored at: a game's clock judges the command then.
    """
    return submit_and_fold(match, actor, command, seed, earlier, now=now)[0]


def submit_and_fold(
    match: Match[StateT], actor: str, command: JsonObject, seed: str | None = None, earlier: Earlier | None = None,
    *, in_place: bool = False, now: str | None = None,
) -> tuple[list[Event], Match[StateT]]:
    """:func:`submit`, with the match after the events: deciding folds them anyway, so a caller
    that keeps the new state need not copy and fold again.

    With ``in_place`` the events are folded into ``match`` itself, sparing a copy of the state: for a
    caller that owns ``match`` and drops it if the events are not stored. A refused command still
    leaves ``match`` as it was, since rules decide without touching the state. ``earlier`` is the state at
    an earlier version, for an accepted takeback (see :func:`apply_event`).

    ``now`` is the time the store will give the events (its ``now_iso`` format): the clock judges a claim
    or a late move at that time and the events are folded at it, so this fold is the stored events' fold.
    """
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise IllegalMove("invalid_field", "a command is an object with a string 'type'", field="type")
    refuse_resigned(match, actor)
    if match.ended:
        raise IllegalMove("game_over", "the game has ended")
    if command["type"] == CLAIM_TIMEOUT.type:
        events = decide_claim(match, actor, command, now)
    elif command["type"] in TABLE_COMMANDS:
        events = decide_table(match, actor, command)
    else:
        if command["type"] != RESOLVE_CHANCE:  # the organiser deals before the seats are taken, as the server does
            refuse_until_seated(match)
            if match.clock is not None:
                refuse_out_of_time(match, actor, now)
        events = _decide_move(match, actor, command)
    working = match if in_place else match.copy()
    for event in events:
        apply_event(working, event, earlier, time=now)
    return events + _follow_up(working, seed, now), working


def _decide_move(match: Match[Any], actor: str, command: JsonObject) -> list[Event]:
    """The events of a game move, or of the organiser's draw at a pending chance decision."""
    node = match.rules.chance_node(match.state)
    if command["type"] == RESOLVE_CHANCE:
        if actor != ORGANISER:
            raise IllegalMove("not_organiser", "only the organiser resolves chance decisions")
        if node is None:
            raise IllegalMove("no_chance_pending", "no chance decision is pending")
        refuse_unfilled_template(command, node)
        ORGANISER_MOVES.check(command)
        return [chance_event(node, check_outcome(node, command["outcome"]))]
    if node is not None:
        raise IllegalMove("chance_pending", f"waiting for the organiser to resolve {node.key}")
    rules = match.rules
    if actor not in rules.to_act(match.state) and command["type"] not in rules.out_of_turn_moves:
        raise rules.out_of_turn(match.state, actor)
    rules.declared_moves.check(command)
    decided = rules.decide(match.state, actor, command)
    stamp = rules.declared_events.stamp
    return [stamp({**event, "seat": event.get("seat") or actor}) for event in decided]


def _follow_up(working: Match[Any], seed: str | None, now: str | None = None) -> list[Event]:
    """Server-side chance draws and the end of the game, folded into ``working``."""
    added: list[Event] = []
    while working.chance_mode == SERVER and not working.table.over:
        node = working.rules.chance_node(working.state)
        if node is None:
            break
        event = chance_event(node, derive_outcome(seed or "", working.version + 1, node))
        apply_event(working, event, time=now)
        added.append(event)
    if (working.table.over or working.rules.is_over(working.state)) and not working.ended:
        event = make_event("game_ended", {"seed": seed if working.chance_mode == SERVER else None})
        apply_event(working, event, time=now)
        added.append(event)
    return added


def chance_event(node: ChanceNode, outcome: list[str]) -> Event:
    """Record a chance outcome; hidden from all but ``node.visible_to`` when that is set."""
    data = {"key": node.key, "count": node.count}
    if node.visible_to is None:
        return make_event("chance_resolved", {**data, "outcome": outcome})
    return make_event("chance_resolved", data, secret={"outcome": outcome}, secret_to=node.visible_to)


def legal_moves(match: Match[Any], reader: str) -> list[JsonObject]:
    """What ``reader`` may submit now, each entry a body accepted as it stands; the organiser is offered
    the pending chance decision in table mode (see :func:`chance_moves`)."""
    if match.ended:
        return []
    node = match.rules.chance_node(match.state)
    if node is not None:
        if reader == ORGANISER and match.chance_mode == TABLE:
            return chance_moves(node)
        return []
    if match.table.open_seats:
        return []
    if reader not in match.rules.to_act(match.state) and reader not in match.rules.may_act(match.state):
        return []
    return match.rules.legal_moves(match.state, reader)


def chance_moves(node: ChanceNode) -> list[JsonObject]:
    """One ``resolve_chance`` per possible outcome while there are at most :data:`MAX_LISTED_OUTCOMES` of
    them (draws are ordered: ``count`` of ``n`` candidates make n!/(n-count)! outcomes); beyond that one
    template, ``{"type", "template": true, "chance", "candidates"}``, whose ``outcome`` the organiser fills
    in with the ``chance.count`` candidates drawn, in order, dropping the rest. ``template`` says so to a
    client that would otherwise take every entry for a complete move."""
    if perm(len(node.candidates), node.count) <= MAX_LISTED_OUTCOMES:
        return [{"type": RESOLVE_CHANCE, "outcome": list(drawn)} for drawn in permutations(node.candidates, node.count)]
    return [{"type": RESOLVE_CHANCE, "template": True, "chance": node.public(), "candidates": list(node.candidates)}]


def refuse_unfilled_template(command: JsonObject, node: ChanceNode) -> None:
    """Refuse a template posted as it was listed, saying how to fill it in: it is the one entry of the legal
    moves that is not a move, and an organiser who posts it needs to be told what to send instead."""
    listed = {"template", "chance", "candidates"} & set(command)
    if not listed or "outcome" in command:
        return
    raise IllegalMove(
        "template_not_filled",
        f"this is the template of the pending draw {node.key}, not a move: post "
        f'{{"type": "{RESOLVE_CHANCE}", "outcome": [...]}} with {node.count} of its candidates, in the order '
        f"drawn, and without {', '.join(sorted(listed))}",
        field="outcome",
    )


def waiting_for(match: Match[Any]) -> list[str]:
    """Whom the game waits for: the organiser while a chance decision is pending, else the seats to act;
    no seat while one is open (its player is awaited, see ``open_seats``)."""
    if match.ended:
        return []
    if match.rules.chance_node(match.state) is not None:
        return [ORGANISER]
    return [] if match.table.open_seats else match.rules.to_act(match.state)


def may_act(match: Match[Any]) -> list[str]:
    """Seats the game does not wait for that may act all the same (a claim open at any time)."""
    if match.ended or match.table.open_seats or match.rules.chance_node(match.state) is not None:
        return []
    return match.rules.may_act(match.state)


def view(match: Match[Any], reader: str | None) -> JsonObject:
    """The match as ``reader`` may see it; after the end every secret is public."""
    node = match.rules.chance_node(match.state)
    return {
        "game": match.rules.name,
        "version": match.version,
        "status": match.status,
        "chance_mode": match.chance_mode,
        "seats": seats_view(match),
        "open_seats": match.table.open_seats,
        "ended_by": match.table.ended_by(),
        "options": match.created["options"],
        "waiting_for": waiting_for(match),
        "may_act": may_act(match),
        "chance_pending": node.public() if node else None,
        "takebacks": mode_of(match.created),
        "takeback": match.takeback.view(),
        "may_take_back": None if match.ended else match.takeback.asker(mode_of(match.created)),
        "taken_back": [list(taken) for taken in match.takeback.taken_back],
        "seed": match.seed,
        "state": match.rules.view(match.state, ORGANISER if match.ended else reader),
        "score": match.score,
        "clock": match.clock.view() if match.clock is not None else None,
    }


def redact(match: Match[Any], event: Event, reader: str | None) -> Event:
    return redact_event(event, reader, revealed=match.ended)
