"""Worlds consistent with what one seat has seen: the seat's redacted log, with every hidden part sampled.

A seat's log (``GET /games/{id}/events`` with its token) holds every event, but with the secrets of other
seats removed (``"redacted"`` names the keys that were there). Folding it needs those parts, so a
determinisation fills them in:

* a redacted chance outcome is drawn from the candidates of the chance node the world holds at that point,
  preferring candidates the log later shows in that seat's own public events (a card drawn in secret and
  played later was in that hand);
* a batch of another seat's events with a redacted part is reproduced by a legal move of that seat whose
  decided events match the recorded public parts, chosen at random among those that do;
* a public event must fold (a card played must be in the sampled hand) and a public chance outcome must be
  among the candidates: otherwise the sample contradicts the log and part of it is drawn again
  (:meth:`Determiniser.sample`). Public batches are folded as recorded, not reproduced by a move: checking
  each against every legal move would cost more than the search itself.

Nothing here reads a secret the seat was not shown: the log is all it gets.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.core import Event, IllegalMove, Rules
from domain.core.canonical import canonical_json
from domain.core.events import strings_in
from domain.core.match import Match, apply_event, legal_moves, start
from domain.core.takeback import MOVES_TAKEN_BACK
from domain.core.upcasting import ENGINE_EVENT_TYPES

REPAIRS = 30
# What the rules raise on a world that contradicts itself (a piece on a tile the world lacks, a card not in
# the hand, an engine's own assertion such as I C E Expedition's dig spread over a tile whose sampled
# history left it -1 archaeologists): the sign of a sample the log did not rule out but the game cannot hold.
FOLD_ERRORS = (KeyError, ValueError, IndexError, TypeError, AttributeError, StopIteration, AssertionError)

LogEntry = Mapping[str, Any]
"""An entry of a seat's log: an envelope as its token reads it (an event with its version, batch, ...)."""


class Inconsistent(Exception):
    """The sampled world contradicts the log."""


def ordered_strings(value: object) -> list[str]:
    """The strings inside a JSON value in the order they are written (a hand listed in its order)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [token for key, item in value.items() for token in (key, *ordered_strings(item))]
    if isinstance(value, list | tuple):
        return [token for item in value for token in ordered_strings(item)]
    return []


def batches(events: Sequence[LogEntry]) -> list[list[LogEntry]]:
    """The log cut into the batches one command (or one chance resolution) produced, by ``command_id``."""
    out: list[list[LogEntry]] = []
    previous: object = object()
    for event in events:
        batch_id = event.get("command_id")
        if out and batch_id is not None and batch_id == previous:
            out[-1].append(event)
        else:
            out.append([event])
        previous = batch_id
    return out


def _public(event: LogEntry) -> str:
    """What every reader sees of an event, comparable between a recorded and a reproduced one.

    Lists compare as multisets: a sampled hand holds the right cards in an order of its own, and a move
    listing cards from it lists them in that order.
    """
    return canonical_json([event["type"], event.get("seat"), _unordered(event.get("data") or {})])


def _unordered(value: object) -> object:
    if isinstance(value, dict):
        return {key: _unordered(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return sorted((_unordered(item) for item in value), key=canonical_json)
    return value


def _event(envelope: LogEntry) -> Event:
    """The event an envelope carries, in the shape ``apply_event`` folds."""
    event: Event = {"type": envelope["type"], "seat": envelope.get("seat"), "data": envelope.get("data") or {}}
    if "secret" in envelope:
        event["secret"] = envelope["secret"]
    if "secret_to" in envelope:
        event["secret_to"] = envelope["secret_to"]
    if "schema_version" in envelope:
        event["schema_version"] = envelope["schema_version"]
    return event


class Determiniser:
    """Samples worlds for ``seat`` from its log."""

    def __init__(self, rules: Rules[Any], seat: str, events: Sequence[LogEntry]):
        self.rules = rules
        self.seat = seat
        self.events = events
        self.flat = events[1:]
        self.batches = batches(self.flat)
        self._last_shown: dict[str, int] | None = None
        self._token_memo: list[tuple[set[str] | None, str | None, list[str]]] | None = None
        self._first_memo: dict[tuple[int, tuple[str, ...]], dict[str, tuple[int, int]]] = {}
        # The versions the log's takebacks rewind to, and the sampled world's state at each, kept as the
        # sampling passes them: a takeback rewinds the sampled world, not the one that was played.
        self._rewound_to = {event["data"]["to_version"] for event in events if event["type"] == MOVES_TAKEN_BACK}
        self._states: dict[int, Any] = {}

    def _shown_from(self, at: int, token: str) -> bool:
        """Whether the log shows this seat ``token`` from event ``at`` on (counting after ``game_created``): a
        token named there is accounted for (drawn in the open, played by someone) and is no filler for a hidden
        draw. Each token's last showing is found in one pass over the log, on first use."""
        if self._last_shown is None:
            self._last_shown = {}
            for index, event in enumerate(self.flat):
                for shown in strings_in(event.get("secret"), strings_in(event.get("data"), set())):
                    self._last_shown[shown] = index
        return self._last_shown.get(token, -1) >= at

    def _first_shown(self, at: int, seats: tuple[str, ...]) -> dict[str, tuple[int, int]]:
        """For each string the public events of ``seats`` show from event ``at`` on, where it first shows
        (event, place in it); strings a public chance draw produced before that are left out (a card drawn
        in the open was not in a hand)."""
        memo_key = (at, seats)
        if memo_key in self._first_memo:
            return self._first_memo[memo_key]
        first: dict[str, tuple[int, int]] = {}
        drawn_openly: set[str] = set()
        for later, (drawn, seat, tokens) in enumerate(self._tokens()[at:], start=at):
            if drawn is not None:
                drawn_openly |= drawn
            elif seat in seats:
                for position, token in enumerate(tokens):
                    if token not in drawn_openly:
                        first.setdefault(token, (later, position))
        self._first_memo[memo_key] = first
        return first

    def _tokens(self) -> list[tuple[set[str] | None, str | None, list[str]]]:
        """Each event of the log as :meth:`_first_shown` reads it, worked out once: what a public chance draw
        drew (an empty set for a hidden one), else the event's seat and the strings of its data in order."""
        if self._token_memo is None:
            self._token_memo = []
            for event in self.flat:
                if event["type"] == "chance_resolved":
                    drawn = set() if "redacted" in event else strings_in(event.get("secret"),
                                                                        strings_in(event.get("data"), set()))
                    self._token_memo.append((drawn, None, []))
                else:
                    self._token_memo.append((None, event.get("seat"), ordered_strings(event.get("data"))))
        return self._token_memo

    def sample(self, rng: random.Random, world: Match[Any] | None = None) -> Match[Any]:
        """A world consistent with the log, or :class:`Inconsistent` after ``REPAIRS`` contradictions.

        ``world``, a world sampled from an earlier part of the same log, is extended rather than drawn anew
        (a bot called at each of its turns re-reads only the events since its last call).

        Before each batch with a hidden part the world is kept; when a later event contradicts the world,
        the sampling resumes from one of the kept worlds chosen at random (the contradiction may come from
        any earlier guess, such as a card dealt at setup and shown by a tie many rounds later).
        """
        match = start(self.rules, _event(self.events[0])) if world is None else world
        kept: list[tuple[int, int, Match[Any]]] = []
        index = at = failures = 0
        while world is not None and at < match.version - 1:
            at += len(self.batches[index])
            index += 1
        while index < len(self.batches):
            batch = self.batches[index]
            if any("redacted" in event for event in batch):
                kept.append((index, at, match.copy()))
            if match.version in self._rewound_to:
                self._states[match.version] = self.rules.copy_state(match.state)
            try:
                self._fold_batch(match, at, batch, rng)
            except Inconsistent:
                failures += 1
                if failures > REPAIRS or not kept:
                    raise
                del kept[rng.randrange(len(kept)) + 1:]
                index, at, saved = kept.pop()
                match = saved.copy()
                continue
            index += 1
            at += len(batch)
        return match

    def _fold_batch(self, match: Match[Any], at: int, batch: list[LogEntry], rng: random.Random) -> None:
        """Fold the batch starting at event ``at``."""
        actor = batch[0].get("seat")
        hidden = any("redacted" in event for event in batch if event["type"] not in ENGINE_EVENT_TYPES)
        skip = 0
        if hidden and actor and actor != self.seat and batch[0]["type"] not in ENGINE_EVENT_TYPES:
            decided = [event for event in batch if event["type"] not in ENGINE_EVENT_TYPES]
            self._reproduce(match, actor, decided, rng)
            skip = len(decided)
        for offset, event in enumerate(batch[skip:], start=skip):
            self._fold_event(match, at + offset, event, rng)

    def _reproduce(self, match: Match[Any], actor: str, decided: list[LogEntry], rng: random.Random) -> None:
        """Fold a legal move of ``actor`` whose events match the recorded public parts."""
        recorded = [_public(event) for event in decided]
        types = [event["type"] for event in decided]
        named = strings_in([event.get("data") for event in decided], set())
        moves = legal_moves(match, actor)
        rng.shuffle(moves)
        # A move usually names what its events name: those first, the rest only if none of them matches.
        moves.sort(key=lambda move: not strings_in(move, set()) - {move["type"]} <= named)
        stamp = self.rules.declared_events.stamp
        for move in moves:
            try:
                produced = self.rules.decide_offered(match.state, actor, move)
            except IllegalMove:
                continue
            if [event["type"] for event in produced] != types:
                continue
            produced = [stamp({**event, "seat": event.get("seat") or actor}) for event in produced]
            if [_public(event) for event in produced] == recorded:
                for made, seen in zip(produced, decided, strict=True):
                    self._apply(match, made if "redacted" in seen else _event(seen))
                return
        raise Inconsistent(f"no move of {actor} reproduces its recorded events")

    def _fold_event(self, match: Match[Any], at: int, event: LogEntry, rng: random.Random) -> None:
        if event["type"] != "chance_resolved":
            if "redacted" in event:
                raise Inconsistent("a hidden event outside any batch a move could reproduce")
            self._apply(match, _event(event))
            return
        node = self.rules.chance_node(match.state)
        if node is None or node.key != event["data"].get("key"):
            raise Inconsistent("the world holds another chance decision than the log")
        if "redacted" not in event:
            outcome = {**event["data"], **(event.get("secret") or {})}["outcome"]
            if not set(outcome) <= set(node.candidates):
                raise Inconsistent("a public outcome the sampled world cannot draw")
            self._apply(match, _event(event))
            return
        seen_by = tuple(node.visible_to or ())
        first = self._first_shown(at + 1, seen_by) if seen_by else {}
        preferred = sorted((candidate for candidate in node.candidates if candidate in first), key=first.__getitem__)
        chosen = preferred[: node.count]
        taken = set(chosen)
        free = [candidate for candidate in node.candidates
                if candidate not in taken and not self._shown_from(at + 1, candidate)]
        if len(free) < node.count - len(chosen):
            free = [candidate for candidate in node.candidates if candidate not in chosen]
        chosen += rng.sample(free, node.count - len(chosen))
        sampled: Event = {**_event(event), "secret": {"outcome": chosen}, "secret_to": list(seen_by)}
        self._apply(match, sampled)

    def _apply(self, match: Match[Any], event: Event) -> None:
        try:
            apply_event(match, event, self._earlier)
        except FOLD_ERRORS as error:
            raise Inconsistent(f"folding {event['type']} failed: {error!r}") from None

    def _earlier(self, version: int) -> Any:
        """The sampled world's state at ``version``, which a takeback in the log rewinds to."""
        if version not in self._states:
            raise Inconsistent(f"the world was not sampled through version {version}, which a takeback rewinds to")
        return self.rules.copy_state(self._states[version])
