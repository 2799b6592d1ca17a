"""Submitting a move: decided by the engine against the state at the version the client saw, then appended
only if the game is still there.

One way for every move: the game is loaded at the expected version
(:meth:`~service.api.matches.MatchCache.take`: this process's own copy
when it holds one, else the store), the engine decides, and the events are
appended. A move whose token this process knows skipped the prelude's round
trip (:mod:`service.api.prelude`), since its append charges the token's
rate-limit bucket: for a game played through this process that is at most
one read of the events it has not seen, and the append. A move answered
without an append (bad input, a stale version, a refusal by the rules) is
charged by that round trip instead, which fetches the idempotency record
with it: a known Idempotency-Key answers before the version and the rules,
since a retry must not meet a 409 or a refusal for its own success.
"""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from flask import current_app, g, request

from domain.core.canonical import canonical_json
from domain.core.errors import IllegalMove
from domain.core.events import ORGANISER
from domain.core.match import Match, legal_moves, may_act, seat_ids, submit_and_fold, view, waiting_for
from service.api import context, prelude
from service.api.auth import reader_for
from service.api.clocks import with_now
from service.api.context import game_meta, json_body, not_found, prelude_for
from service.api.errors import ApiError
from service.api.schemas import MoveSchema, load
from service.api.seats import refuse_table_misuse
from service.api.versions import etag, expected_version
from service.store import BucketCharge, GameNotFound, IdempotencyMismatch, RateLimited, VersionConflict
from service.store.envelope import Envelope, redact_envelope
from service.store.keys import game_keys
from service.store.store import now_iso

# One instance serves every request: building a marshmallow schema costs more than loading a move with it.
MOVE_SCHEMA = MoveSchema()
IDEMPOTENCY_KEY_MAX = 200
INCLUDABLE = frozenset({"legal_moves", "view"})


def submit(game_id: str):
    """The move's answer: 201 with the events it appended, or the first answer again for a known key."""
    g.include = included()  # refused before anything is decided or appended
    mover = Mover.of(game_id)
    try:
        body = load(MOVE_SCHEMA, json_body())
        expected = expected_version(body.pop("expected_version", None))
        named = body.pop("seat", None)
        actor = _actor(mover.reader, named, mover.seats)
        refuse_table_misuse(body["type"], mover.reader)
        key = _idempotency_key()
    except ApiError:
        mover.settle()
        raise
    matches = context.services().matches
    match = matches.take(game_id, expected)
    if match.table.tokens_changed_at > mover.as_of:
        # A token changed after this process read the game's tokens: read them again before deciding.
        matches.remember(game_id, match)
        mover.relearn()
        actor = _actor(mover.reader, named, mover.seats)
        refuse_table_misuse(body["type"], mover.reader)
        match = matches.take(game_id, expected)
    command = {**body, "seat": actor}
    if match.version != expected:
        matches.remember(game_id, match)
        mover.settle()
        batch = _recorded_batch(game_id, key) if key is not None else None
        if key is not None and batch is not None:
            return _replay(game_id, key, batch, command, mover.reader)
        raise _stale(expected, max(match.version, game_meta(game_id)["version"]))
    # One time for the decision and the events' envelopes: a clock judges the move then, and the fold this
    # process keeps equals the fold of the stored events (TABLE-CLOCK-2).
    now = now_iso()
    try:
        events, after = submit_and_fold(match, actor, body, mover.seed, context.store().earlier(game_id),
                                        in_place=True, now=now)
    except IllegalMove:
        matches.remember(game_id, match)  # a refused command leaves the state as it was
        mover.settle()
        fetched = prelude_for(game_id)
        batch = fetched.recorded if fetched is not None else None
        if key is not None and batch is not None:
            return _replay(game_id, key, batch, command, mover.reader)
        raise
    return _append(game_id, expected, events, command, key, mover, after, now)


@dataclass
class Mover:
    """Who sends the move and what it needs of the game's secrets. ``uncharged`` is the token's hash while
    the request is still to be charged: a move whose token this process knows (``g.known_move``) was
    neither charged nor had its records fetched by the prelude; its append charges it, and an answer
    without an append calls :meth:`settle` first."""

    game_id: str
    reader: str
    seats: list[str]
    seed: str | None
    uncharged: str | None
    # The game's version at most when its tokens were read: a token event after it makes them stale.
    as_of: int

    @classmethod
    def of(cls, game_id: str) -> Mover:
        known = g.get("known_move")
        if known is not None:
            facts = known.facts
            return cls(game_id, facts.readers[known.token_hash], facts.seats, facts.seed, known.token_hash,
                       facts.as_of)
        meta = game_meta(game_id)
        store = context.store()
        reader = reader_for(store, game_id, required=True)
        fetched = prelude_for(game_id)
        seed = fetched.seed if fetched is not None else store.seed(game_id)
        return cls(game_id, reader, seat_ids(len(meta["players"])), seed, None, meta["version"])

    def relearn(self) -> None:
        """Read the game's tokens again, after the version they were read at (401 if the request's token no
        longer stands for a reader). The prelude's fetch does it, so the process learns them too; a request
        it had charged already is charged once more, on this path that only a change of tokens opens."""
        if self.uncharged is not None:
            self.settle()
        else:
            prelude.fetch()
        self.as_of = game_meta(self.game_id)["version"]
        self.reader = reader_for(context.store(), self.game_id, required=True)

    def charge(self) -> BucketCharge | None:
        """The bucket for the append to charge, ``None`` once the request was charged."""
        if self.uncharged is None:
            return None
        return context.services().limiter.charge(self.uncharged, self.game_id)

    def settle(self) -> None:
        """Charge the request now, for an answer that appends nothing (429 when the bucket is empty), and
        fetch the game's records with it (the idempotency record among them)."""
        if self.uncharged is not None:
            self.uncharged = None
            prelude.fetch()


def _append(
    game_id: str, expected: int, events: list, command: dict, key: str | None, mover: Mover, after: Match, now: str
):
    """Append the move's events and answer: the store's refusals become the API's, and the game after the
    move goes back to the cache once the answer is serialised: the next move there folds into it in place,
    and a view may hold parts of the state. Before that its snapshot is saved when one is due (the end of the
    game, for the scoring job to load, or every ``SNAPSHOT_EVERY`` events)."""
    services = context.services()
    try:
        result = services.store.append(game_id, expected, events, command=command, command_id=str(uuid.uuid4()),
                                       idempotency_key=key, charge=mover.charge(), time=now)
    except RateLimited as limited:
        raise services.limiter.limited(limited.requests_left) from None
    except GameNotFound:
        raise not_found(game_id) from None
    except VersionConflict as conflict:
        raise _stale(expected, conflict.current_version) from None
    except IdempotencyMismatch:
        raise _key_reused(key) from None
    services.limiter.charged(result.requests_left)
    if result.duplicate:
        return _move_response(game_id, result.envelopes, mover.reader, replayed=True)
    answer = current_app.make_response(_move_response(game_id, result.envelopes, mover.reader, replayed=False,
                                                      after=after))
    services.store.keep_snapshot(game_id, after, result.envelopes[-1]["hash"], len(result.envelopes))
    services.matches.remember(game_id, after)
    return answer


def _actor(reader: str, seat: str | None, seats: list[str]) -> str:
    """Who the move is for: the token's seat, or the seat the organiser names (or the organiser itself)."""
    if seat is None or seat == reader:
        return reader
    if reader != ORGANISER:
        raise ApiError(403, "wrong_seat", "Not your seat", f"a {reader} token cannot move for {seat}", field="seat")
    check_seat(seats, seat)
    return seat


def check_seat(seats: list[str], seat: str) -> None:
    if seat not in seats:
        raise ApiError(422, "unknown_seat", "Unknown seat", f"this game has seats {', '.join(seats)}", field="seat")


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not key or len(key) > IDEMPOTENCY_KEY_MAX or not key.isprintable():
        raise ApiError(400, "invalid_idempotency_key", "Invalid Idempotency-Key",
                       f"an Idempotency-Key is 1 to {IDEMPOTENCY_KEY_MAX} printable characters",
                       field="Idempotency-Key")
    return key


def _recorded_batch(game_id: str, key: str) -> dict | None:
    """The version range ``key`` produced (``{"first", "last", ...}``), if it was used."""
    recorded = context.services().client.hget(game_keys(game_id).idem, key)
    return json.loads(recorded) if recorded is not None else None


def _replay(game_id: str, key: str, batch: dict, command: dict, reader: str):
    """The first response to ``key`` again, if this is the same move; nothing is decided anew."""
    envelopes = context.store().read(game_id, from_version=batch["first"], to_version=batch["last"])
    if canonical_json(envelopes[0].get("command")) != canonical_json(command):
        raise _key_reused(key)
    return _move_response(game_id, envelopes, reader, replayed=True)


def included() -> frozenset[str]:
    """What the request asks the answer to carry beyond the batch: ``?include=legal_moves,view``."""
    asked = request.args.get("include")
    if asked is None:
        return frozenset()
    names = frozenset(name.strip() for name in asked.split(",") if name.strip())
    unknown = sorted(names - INCLUDABLE)
    if unknown:
        raise ApiError(400, "invalid_query", "Invalid query parameter",
                       f"include: {unknown[0]!r} is not one of {', '.join(sorted(INCLUDABLE))}", field="include")
    return names


def _move_response(
    game_id: str, envelopes: list[Envelope], reader: str, *, replayed: bool, after: Match[Any] | None = None
):
    """The same body for the first answer and every replay of it: it depends on the batch alone.

    ``after`` is the game right after the batch; a replay loads it again. What ``?include=`` asks for is
    added at the end, so a bot plays with one request per move.
    """
    revealed = any(envelope["type"] == "game_ended" for envelope in envelopes)
    last = envelopes[-1]["version"]
    after = after or context.store().load(game_id, at=last)
    body = {
        "game_id": game_id,
        "first_version": envelopes[0]["version"],
        "version": last,
        "status": after.status,
        "waiting_for": waiting_for(after),
        "events": [redact_envelope(envelope, reader, revealed) for envelope in envelopes],
    }
    extra = g.get("include") or frozenset()
    if "legal_moves" in extra:
        body["may_act"] = may_act(after)
        body["legal_moves"] = _next_moves(after, reader)
    if "view" in extra:
        body["view"] = {"game_id": game_id, "reader": reader, **with_now(view(after, reader))}
    headers = {"ETag": etag(last), "Idempotent-Replayed": "true" if replayed else "false"}
    return body, 201, headers


def _next_moves(after: Match, reader: str) -> dict[str, list[dict]]:
    """The legal moves of whoever may act next, as ``reader`` may see them: a seat its own moves (empty when
    it may not act), the organiser those of everyone who may."""
    if reader != ORGANISER:
        return {reader: legal_moves(after, reader)}
    acting = [*waiting_for(after), *may_act(after)]
    return {who: legal_moves(after, who) for who in dict.fromkeys(acting)}


def _stale(expected: int, current: int) -> ApiError:
    return ApiError(409, "stale_version", "Stale version",
                    f"you decided against version {expected}, the game is at version {current}",
                    field="expected_version", current_version=current, headers={"ETag": etag(current)})


def _key_reused(key: str | None) -> ApiError:
    return ApiError(422, "idempotency_key_reused", "Idempotency-Key reused",
                    f"the key {key!r} was already used for a different move", field="Idempotency-Key")
