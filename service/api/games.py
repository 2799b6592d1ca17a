"""The games resource: create, list, read (view, past states, events, integrity) and move.

Every read is shaped for its reader: the public (no token), a seat, or the
organiser. Moves are decided by the engine against the state at the version
the client says it saw, then appended only if the game is still there.
"""
from __future__ import annotations

import json
import secrets
import uuid

from flask import Blueprint, current_app, request, url_for

from domain.core.canonical import canonical_json
from domain.core.chance import SERVER
from domain.core.errors import IllegalMove
from domain.core.events import ORGANISER
from domain.core.match import Match, create, legal_moves, submit_and_fold, view, waiting_for
from domain.registry import get_rules
from service.api import context
from service.api.auth import new_tokens, reader_for
from service.api.context import (
    current_match,
    game_meta,
    is_revealed,
    json_body,
    prelude_for,
    reader_name,
)
from service.api.errors import ApiError
from service.api.schemas import (
    CreateGameSchema,
    EventsQuery,
    LegalMovesQuery,
    ListGamesQuery,
    MoveSchema,
    StateQuery,
    load,
)
from service.api.versions import etag, expected_version
from service.store import IdempotencyMismatch, VersionConflict
from service.store.envelope import redact_envelope
from service.store.keys import game_keys

# One instance serves every request: building a marshmallow schema costs more than loading a move with it.
MOVE_SCHEMA = MoveSchema()
blueprint = Blueprint("games", __name__)

IDEMPOTENCY_KEY_MAX = 200


@blueprint.post("/games")
def create_game():
    body = load(CreateGameSchema(), json_body())
    try:
        rules = get_rules(body["game"])
    except KeyError:
        raise ApiError(422, "unknown_game_name", "Unknown game", f"no game is called {body['game']!r}; see GET /rules",
                       field="game") from None
    # The seed stays in the store's private hash until the game_ended event reveals it.
    seed = (body.get("seed") or secrets.token_hex(32)) if body["chance_mode"] == SERVER else None
    try:
        match, events = create(rules, body["options"], body["players"], body["chance_mode"], seed)
    except IllegalMove as refusal:
        # The engine counts seats; the request names them as players.
        refusal.field = "players" if refusal.field == "seats" else refusal.field
        raise
    game_id = secrets.token_hex(8)
    tokens = new_tokens(match.seats)
    result = context.store().create(game_id, events, seed=seed, tokens=tokens, players=body["players"])
    response = {
        "game_id": game_id,
        "game": rules.name,
        "version": result.last_version,
        "chance_mode": match.chance_mode,
        "seats": [{"seat": seat["seat"], "name": seat["name"], "token": tokens[seat["seat"]]}
                  for seat in match.created["seats"]],
        "organiser_token": tokens[ORGANISER],
    }
    headers = {"Location": url_for("games.get_game", game_id=game_id), "ETag": etag(result.last_version)}
    return response, 201, headers


@blueprint.get("/games")
def list_games():
    query = load(ListGamesQuery(), request.args.to_dict(), where="query")
    limit = min(query.pop("limit"), current_app.config["PAGE_SIZE_MAX"])
    offset = query.pop("offset")
    metas, total = context.store().list_games(**query, offset=offset, limit=limit)
    following = offset + len(metas)
    return {
        "games": [public_meta(meta) for meta in metas],
        "total": total,
        "offset": offset,
        "limit": limit,
        "next_offset": following if following < total else None,
    }


def public_meta(meta: dict) -> dict:
    """An index entry: what anyone may know about a game (never its seed or tokens)."""
    keys = ("game_id", "game", "status", "version", "chance_mode", "players", "created_at", "updated_at")
    return {key: meta.get(key) for key in keys}


@blueprint.get("/games/<game_id>")
def get_game(game_id: str):
    meta = game_meta(game_id)
    reader = reader_for(context.store(), game_id, required=False)
    match = current_match(game_id, meta)
    tag = etag(match.version)
    if request.if_none_match.contains(str(match.version)):
        return "", 304, {"ETag": tag}
    return {"game_id": game_id, "reader": reader_name(reader), **view(match, reader)}, 200, {"ETag": tag}


@blueprint.get("/games/<game_id>/legal-moves")
def get_legal_moves(game_id: str):
    meta = game_meta(game_id)
    reader = reader_for(context.store(), game_id, required=True)
    query = load(LegalMovesQuery(), request.args.to_dict(), where="query")
    match = current_match(game_id, meta)
    seat = query.get("seat", reader)
    if seat != reader:
        if reader != ORGANISER:
            raise ApiError(403, "wrong_seat", "Not your seat", f"a {reader} token cannot read {seat}'s moves",
                           field="seat")
        _check_seat(match.seats, seat)
    return {"game_id": game_id, "version": match.version, "seat": seat, "moves": legal_moves(match, seat)}, 200, {
        "ETag": etag(match.version)
    }


@blueprint.get("/games/<game_id>/state")
def get_state(game_id: str):
    meta = game_meta(game_id)
    reader = reader_for(context.store(), game_id, required=False)
    query = load(StateQuery(), request.args.to_dict(), where="query")
    current = meta["version"]
    at = query.get("at", current)
    if at > current:
        raise ApiError(422, "version_out_of_range", "No such version",
                       f"the game is at version {current}; 'at' must be between 1 and {current}", field="at",
                       current_version=current)
    match = context.store().load(game_id, at=at)
    shown_as = ORGANISER if is_revealed(meta) else reader
    return {"game_id": game_id, "reader": reader_name(reader), "current_version": current, **view(match, shown_as)}


@blueprint.get("/games/<game_id>/events")
def get_events(game_id: str):
    meta = game_meta(game_id)
    reader = reader_for(context.store(), game_id, required=False)
    query = load(EventsQuery(), request.args.to_dict(), where="query")
    limit = min(query["limit"], current_app.config["PAGE_SIZE_MAX"])
    start = query["from_"]
    envelopes = context.store().read(game_id, from_version=start, limit=limit)
    revealed = is_revealed(meta)
    current = meta["version"]
    following = start + len(envelopes)
    return {
        "game_id": game_id,
        "reader": reader_name(reader),
        "version": current,
        "from": start,
        "limit": limit,
        "events": [redact_envelope(envelope, reader, revealed) for envelope in envelopes],
        "next_from": following if envelopes and following <= current else None,
    }


@blueprint.get("/games/<game_id>/integrity")
def get_integrity(game_id: str):
    meta = game_meta(game_id)
    ok, first_bad = context.store().verify_chain(game_id)
    return {"game_id": game_id, "version": meta["version"], "ok": ok, "first_bad_version": first_bad}


@blueprint.post("/games/<game_id>/moves")
def post_move(game_id: str):
    """A known Idempotency-Key answers first (a retry must not meet a 409 for its own success); then the
    version, then the rules on the state at that version; the append refuses if the game moved meanwhile."""
    meta = game_meta(game_id)
    store = context.store()
    reader = reader_for(store, game_id, required=True)
    body = load(MOVE_SCHEMA, json_body())
    expected = expected_version(body.pop("expected_version", None))
    seats = [f"p{n}" for n in range(1, len(meta["players"]) + 1)]
    actor = _actor(reader, body.pop("seat", None), seats)
    command = {**body, "seat": actor}
    key = _idempotency_key()
    prelude = prelude_for(game_id)
    if key is not None:
        fetched = prelude is not None and prelude.idempotency_key == key
        batch = prelude.recorded if fetched else _recorded_batch(game_id, key)
        if batch is not None:
            return _replay(game_id, key, batch, command, reader)
    match = current_match(game_id, meta)
    if match.version != expected:
        # The same key may have moved the game since the look above (a concurrent retry).
        batch = _recorded_batch(game_id, key) if key is not None else None
        if batch is not None:
            return _replay(game_id, key, batch, command, reader)
        raise _stale(expected, match.version)
    seed = None
    if match.chance_mode == SERVER:
        seed = prelude.seed if prelude is not None else store.seed(game_id)
    events, after = submit_and_fold(match, actor, body, seed)
    try:
        result = store.append(game_id, expected, events, command=command, command_id=str(uuid.uuid4()),
                              idempotency_key=key)
    except VersionConflict as conflict:
        raise _stale(expected, conflict.current_version) from None
    except IdempotencyMismatch:
        raise _key_reused(key) from None
    if result.duplicate:
        return _move_response(game_id, result.envelopes, reader, replayed=True)
    context.services().matches.remember(game_id, after)
    return _move_response(game_id, result.envelopes, reader, replayed=False, after=after)


def _actor(reader: str, seat: str | None, seats: list[str]) -> str:
    """Who the move is for: the token's seat, or the seat the organiser names (or the organiser itself)."""
    if seat is None or seat == reader:
        return reader
    if reader != ORGANISER:
        raise ApiError(403, "wrong_seat", "Not your seat", f"a {reader} token cannot move for {seat}", field="seat")
    _check_seat(seats, seat)
    return seat


def _check_seat(seats: list[str], seat: str) -> None:
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


def _move_response(game_id: str, envelopes: list[dict], reader: str, *, replayed: bool, after: Match | None = None):
    """The same body for the first answer and every replay of it: it depends on the batch alone.

    ``after`` is the game right after the batch; a replay loads it again.
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
    headers = {"ETag": etag(last), "Idempotent-Replayed": "true" if replayed else "false"}
    return body, 201, headers


def _stale(expected: int, current: int) -> ApiError:
    return ApiError(409, "stale_version", "Stale version",
                    f"you decided against version {expected}, the game is at version {current}",
                    field="expected_version", current_version=current, headers={"ETag": etag(current)})


def _key_reused(key: str) -> ApiError:
    return ApiError(422, "idempotency_key_reused", "Idempotency-Key reused",
                    f"the key {key!r} was already used for a different move", field="Idempotency-Key")
