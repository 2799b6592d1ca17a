"""Re-deciding a history: replay every batch through today's rules and compare with what was recorded.

Three checks share one fold of the events, so a 100,000-event audit folds once:

* *chance*: once the seed is known, every ``chance_resolved`` outcome of a
  server-mode game must equal ``derive_outcome(seed, version, node)`` for the
  node the state held just before it (docs/replay-format.md);
* *adjudication*: the first envelope of each batch carries the ``command``
  that produced it; submitting that command to the match as it stood before
  the batch must produce the same events (the game's opening is re-created
  the same way);
* *score*: the recorded ``game_scored`` sheet must be the one the rules
  compute from the folded state.

Envelopes arrive one at a time in version order and are grouped into batches
by ``command_id``, so memory stays bounded by the largest batch.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.canonical import canonical_json, sha256_hex
from domain.core.chance import SERVER, derive_outcome
from domain.core.errors import IllegalMove
from domain.core.events import ORGANISER, Event, JsonObject, full_data, seat_of
from domain.core.match import RESOLVE_CHANCE, Match, apply_event, create, replaying, start, submit
from domain.core.rules import Rules
from domain.core.table import score_sheet
from domain.core.upcasting import UndeclaredEvent
from service.store.envelope import Envelope
from workers.findings import Finding

RulesFor = Callable[[str], Rules[Any]]


def event_core(event: Event) -> JsonObject:
    """The parts of an event the rules decide; envelope bookkeeping (hashes, times, ids) left out."""
    core: JsonObject = {"type": event["type"], "seat": event.get("seat"), "data": event.get("data", {})}
    if "secret" in event:
        core["secret"] = event["secret"]
        core["secret_to"] = list(event.get("secret_to") or [])
    return core


def actor_and_command(recorded: JsonObject, first: Event) -> tuple[str, JsonObject]:
    """Who submitted a recorded command, and the command as the engine got it.

    The API records the actor as the command's ``seat`` (the token's seat, the
    seat the organiser acted for, or ``organiser``); without it, a chance
    outcome is the organiser's and any other move is its first event's seat.
    """
    command = {key: value for key, value in recorded.items() if key != "seat"}
    actor = recorded.get("seat") or (ORGANISER if command.get("type") == RESOLVE_CHANCE else seat_of(first))
    return actor, command


class HistoryCheck:
    """Fold envelopes and report, for each kind of check, the first chance outcome or decision that differs.

    ``seed`` is the revealed seed (or, inside the service, the private one);
    without it server-mode draws are neither re-derived nor re-decided. The
    score sheet is always computed again by the rules (``score_sheet``);
    ``adjudicate`` also decides every recorded command again. After a finding
    the fold goes on with the recorded events, so a later finding of another
    kind (a forged score after a forged move) is reported too, while a kind
    already reported is not checked again (its later differences follow from
    the first).
    """

    def __init__(self, rules_for: RulesFor, seed: str | None, adjudicate: bool) -> None:
        self.rules_for = rules_for
        self.seed = seed
        self.adjudicate = adjudicate
        self.match: Match | None = None
        # Every envelope folded so far: an accepted takeback's fold re-folds a prefix of them.
        self.folded: list[Envelope] = []
        self.earlier = replaying(self.folded, rules_for)
        self.batch: list[Envelope] = []
        self.findings: list[Finding] = []
        self.notes: list[str] = []
        self.incomplete = False
        self.draws_checked = 0
        self.commands_checked = 0
        self.score_sheet: JsonObject | None = None

    @property
    def finding(self) -> Finding | None:
        """The first finding, by version."""
        return min(self.findings, key=lambda finding: finding.version) if self.findings else None

    def feed(self, envelope: Envelope) -> Finding | None:
        if self.incomplete:
            return self.finding
        if self.batch and ("command" in envelope or envelope.get("command_id") != self.batch[0].get("command_id")):
            self._close_batch()
        self.batch.append(envelope)
        return self.finding

    def finish(self) -> Finding | None:
        if self.batch and not self.incomplete:
            self._close_batch()
        return self.finding

    def _report(self, finding: Finding | None) -> None:
        if finding is not None and self._checking(finding.check):
            self.findings.append(finding)

    def _checking(self, check: str) -> bool:
        return all(finding.check != check for finding in self.findings)

    def _close_batch(self) -> None:
        batch, self.batch = self.batch, []
        if any("redacted" in envelope for envelope in batch):
            self.incomplete = True
            self.notes.append(f"version {batch[0]['version']} is redacted for this reader: later events not re-derived")
            return
        try:
            self._check_batch(batch)
        except UndeclaredEvent as error:
            self.incomplete = True
            self._report(Finding(error.version or batch[0]["version"], "event_type", str(error)))
            self.notes.append(f"the history cannot be folded past version {batch[0]['version']}")
        except Exception as error:  # the rules fold what they decided; an edited event can break them any way
            self.incomplete = True
            self._report(Finding(batch[0]["version"], "adjudication",
                                 f"the batch cannot be replayed: {type(error).__name__}: {error}"))
            self.notes.append(f"the history cannot be folded past version {batch[0]['version']}")

    def _check_batch(self, batch: list[Envelope]) -> None:
        """Decide the batch again on the state before it, then fold it, checking each draw on the way."""
        decided = self._adjudicate(batch) if self.adjudicate and self._checking("adjudication") else None
        scored = self._check_score(batch[0])
        try:
            for envelope in batch:
                self._report(self._check_draw(envelope) if self._checking("chance") else None)
                self._report(self._apply(envelope))
        finally:
            self._report(decided)
        self._report(scored)

    def _check_score(self, first: Envelope) -> Finding | None:
        if first["type"] != "game_scored" or self.match is None:
            return None
        self.score_sheet = score_sheet(self.match)
        recorded = first["data"].get("score_sheet")
        if canonical_json(recorded) != canonical_json(self.score_sheet):
            return Finding(first["version"], "score", "the recorded score sheet is not the one the rules compute",
                           recorded, self.score_sheet)
        return None

    def _apply(self, envelope: Envelope) -> Finding | None:
        self.folded.append(envelope)
        if envelope["type"] == "game_created":
            self.match = start(self.rules_for(envelope["data"]["game"]), envelope)
            return self._check_seed_hash(envelope)
        if self.match is None:
            raise ValueError("a history starts with game_created")
        apply_event(self.match, envelope, self.earlier)
        return None

    def _check_seed_hash(self, created: Envelope) -> Finding | None:
        seed_hash = created["data"].get("seed_hash")
        if self.seed is not None and seed_hash is not None and sha256_hex(self.seed) != seed_hash:
            return Finding(1, "seed", "the seed does not match the seed hash published in game_created")
        return None

    def _check_draw(self, envelope: Envelope) -> Finding | None:
        match = self.match
        if envelope["type"] != "chance_resolved" or match is None or match.chance_mode != SERVER or self.seed is None:
            return None
        node = match.rules.chance_node(match.state)
        if node is None:
            return Finding(envelope["version"], "chance", "a chance outcome was recorded where no chance was pending")
        recorded = full_data(envelope).get("outcome")
        derived = derive_outcome(self.seed, envelope["version"], node)
        if recorded != derived:
            return Finding(envelope["version"], "chance", f"the outcome of {node.key} is not the one the seed draws",
                           recorded, derived)
        self.draws_checked += 1
        return None

    def _adjudicate(self, batch: list[Envelope]) -> Finding | None:
        first = batch[0]
        if first["type"] == "game_created":
            if first["data"]["chance_mode"] == SERVER and self.seed is None:
                return None
            expected = self._opening(first)
        elif "command" in first and self.match is not None:
            if self.match.chance_mode == SERVER and self.seed is None:
                return None
            try:
                expected = submit(self.match, *actor_and_command(first["command"], first), self.seed, self.earlier,
                                  now=first.get("time"))
            except IllegalMove as refusal:
                return Finding(first["version"], "adjudication",
                               f"the rules now refuse this command ({refusal.code}: {refusal.message})")
        else:
            return None
        self.commands_checked += 1
        return compare_batch([self._in_todays_shape(envelope) for envelope in batch], expected)

    def _in_todays_shape(self, envelope: Envelope) -> Envelope:
        """A recorded event upcast as the rules read it, so an old shape compares equal to what they write now."""
        if self.match is None:
            return envelope
        return self.match.rules.declared_events.upcast(envelope, envelope.get("version"))

    def _opening(self, created: Envelope) -> list[Event]:
        data = created["data"]
        rules = self.rules_for(data["game"])
        if data["rules_version"] != rules.rules_version or data["data_versions"] != rules.data_versions():
            self.notes.append("the game was recorded under other rules or data versions than today's")
        names = [seat["name"] for seat in data["seats"]]
        _, events = create(rules, data["options"], names, data["chance_mode"], self.seed)
        events[0] = {**events[0], "data": data}
        return events


def compare_batch(batch: list[Envelope], expected: list[Event]) -> Finding | None:
    """The first event of ``batch`` that differs from what the rules produce now."""
    for envelope, event in zip(batch, expected, strict=False):
        recorded, decided = event_core(envelope), event_core(event)
        if canonical_json(recorded) != canonical_json(decided):
            return Finding(envelope["version"], "adjudication", f"the rules now produce a {decided['type']} event "
                           f"that differs from the recorded {recorded['type']}", recorded, decided)
    if len(batch) != len(expected):
        version = batch[0]["version"] + min(len(batch), len(expected))
        return Finding(version, "adjudication",
                       f"the rules now produce {len(expected)} events for this batch, {len(batch)} were recorded")
    return None
