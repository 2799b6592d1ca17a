"""Submitting a move: decided by the engine against the state at the version the client saw, then appended
only if the game is still there.

Two ways lead to the same answers. The direct way serves a move whose
token and seed this process holds, and the game too, at its expected
version or a few events short of it (the usual case for a game played
through it): the engine decides at once, or after one read of the events
the process has not seen, and the append, which also charges the token's
rate-limit bucket, is the only other round trip to Redis. Anything else, and any move the direct way cannot
complete before its append, takes the checked way: the request's records
are fetched first (:mod:`service.api.prelude`), a known Idempotency-Key
answers first (a retry must not meet a 409 for its own success), then the
version, then the rules.
"""
from __future__ import annotations

import json
import uuid
from typing import Any

from flask import g, request

from domain.core.canonical import canonical_json
from domain.core.chance import SERVER
from domain.core.errors import IllegalMove
from domain.core.events import ORGANISER
from domain.core.match import Match, legal_moves, may_act, submit_and_fold, view, waiting_for
from service.api import context, prelude
from service.api.auth import reader_for
from service.api.context import current_match, game_meta, json_body, not_found, prelude_for
from service.api.errors import ApiError
from service.api.schemas import MoveSchema, load
from service.api.versions import etag, expected_version
from service.store import BucketCharge, GameNotFound, IdempotencyMismatch, RateLimited, VersionConflict
from service.store.envelope import Envelope, redact_envelope
from service.store.keys import game_keys

# One instance serves every request: building a marshmallow schema costs more than loading a move with it.
MOVE_SCHEMA = MoveSchema()
IDEMPOTENCY_KEY_MAX = 200
INCLUDABLE = frozenset({"legal_moves", "view"})


def submit(game_id: str):
    """The move's answer: 201 with the events it appended, or the first answer again for a known key."""
    g.include = included()  # refused before anything is decided or appended
    known = g.get("known_move")
    if known is not None:
        answer = _direct(*known)
        if answer is not None:
            return answer
        prelude.fetch()
    return _checked(game_id)


def _direct(game_id: str, token_hash: str):
    """The move decided on this process's own copy of the game, or ``None`` to take the checked way.

    ``None`` whenever something is off (a bad body, a state at another
    version, a refusal by the rules): the checked way then answers it,
    refusals and rate limit included. The copy is taken out of the cache
    and folded in place; it goes back only once the events are stored.
    """
    services = context.services()
    facts = services.matches.facts(game_id)
    if facts is None:
        return None
    reader = facts.readers[token_hash]
    try:
        body = load(MOVE_SCHEMA, json_body())
        expected = expected_version(body.pop("expected_version", None))
        key = _idempotency_key()
    except ApiError:
        return None
    try:
        match = services.matches.take(game_id, expected)
    except GameNotFound:
        return None
    if match is None:
        return None
    try:
        actor = _actor(reader, body.pop("seat", None), match.seats)
        events, after = submit_and_fold(match, actor, body, facts.seed, in_place=True)
    except (ApiError, IllegalMove):
        return None
    command = {**body, "seat": actor}
    charge = services.limiter.charge(token_hash, game_id)
    return _append(game_id, expected, events, command, key, reader, after, charge)


def _checked(game_id: str):
    meta = game_meta(game_id)
    store = context.store()
    reader = reader_for(store, game_id, required=True)
    body = load(MOVE_SCHEMA, json_body())
    expected = expected_version(body.pop("expected_version", None))
    seats = [f"p{n}" for n in range(1, len(meta["players"]) + 1)]
    actor = _actor(reader, body.pop("seat", None), seats)
    command = {**body, "seat": actor}
    key = _idempotency_key()
    fetched = prelude_for(game_id)
    if key is not None:
        prefetched = fetched if fetched is not None and fetched.idempotency_key == key else None
        batch = prefetched.recorded if prefetched is not None else _recorded_batch(game_id, key)
        if batch is not None:
            return _replay(game_id, key, batch, command, reader)
    match = current_match(game_id, meta)
    if match.version != expected:
        # The same key may have moved the game since the look above (a concurrent retry).
        batch = _recorded_batch(game_id, key) if key is not None else None
        if key is not None and batch is not None:
            return _replay(game_id, key, batch, command, reader)
        raise _stale(expected, match.version)
    seed = None
    if match.chance_mode == SERVER:
        seed = fetched.seed if fetched is not None else store.seed(game_id)
    events, after = submit_and_fold(match, actor, body, seed)
    return _append(game_id, expected, events, command, key, reader, after)


def _append(game_id: str, expected: int, events: list, command: dict, key: str | None, reader: str, after: Match,
            charge: BucketCharge | None = None):
    """Append the move's events and answer: the store's refusals become the API's, and the game after the
    move goes back to the cache once the answer is built from it."""
    services = context.services()
    try:
        result = services.store.append(game_id, expected, events, command=command, command_id=str(uuid.uuid4()),
                                       idempotency_key=key, charge=charge)
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
        return _move_response(game_id, result.envelopes, reader, replayed=True)
    answer = _move_response(game_id, result.envelopes, reader, replayed=False, after=after)
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
        body["view"] = {"game_id": game_id, "reader": reader, **view(after, reader)}
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
