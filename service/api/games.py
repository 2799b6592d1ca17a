"""The games resource: create, list, read (view, past states, events, integrity) and move.

Every read is shaped for its reader: the public (no token), a seat, or the
organiser, and says so to caches (:func:`service.api.versions.shaped_for`).
Moves are :mod:`service.api.moves`'s.
"""
from __future__ import annotations

import secrets
from urllib.parse import urlencode

from flask import Blueprint, current_app, request, url_for

from domain.core.canonical import sha256_hex
from domain.core.chance import SERVER
from domain.core.errors import IllegalMove
from domain.core.events import ORGANISER
from domain.core.match import create, legal_moves, view
from domain.registry import get_rules
from service.api import context, moves
from service.api.auth import new_tokens, reader_for
from service.api.clocks import with_now
from service.api.context import (
    current_match,
    game_meta,
    is_revealed,
    json_body,
    reader_name,
)
from service.api.errors import ApiError
from service.api.keys import head_signature
from service.api.moves import check_seat
from service.api.schemas import (
    CreateGameSchema,
    EventsQuery,
    LegalMovesQuery,
    ListGamesQuery,
    StateQuery,
    load,
)
from service.api.versions import etag, not_modified, shaped_for
from service.store.envelope import redact_envelope
from service.store.store import now_iso

blueprint = Blueprint("games", __name__)


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
        now = now_iso()  # the clock, if any, starts at the time the store gives the opening events
        match, events = create(rules, body["options"], body["players"], body["chance_mode"], seed, body["open_seats"],
                               body.get("takebacks"), clock=body.get("clock"), now=now)
    except IllegalMove as refusal:
        # The engine counts seats; the request names them as players.
        refusal.field = "players" if refusal.field == "seats" else refusal.field
        raise
    game_id = secrets.token_hex(8)
    open_seats = match.table.open_seats
    tokens = new_tokens([seat for seat in match.seats if seat not in open_seats])
    result = context.store().create(game_id, events, seed=seed, tokens=tokens, players=body["players"],
                                    open_seats=open_seats, time=now)
    matches = context.services().matches
    matches.learn(game_id, {sha256_hex(token): reader for reader, token in tokens.items()}, seed, len(match.seats),
                  result.last_version)
    response = {
        "game_id": game_id,
        "game": rules.name,
        "version": result.last_version,
        "chance_mode": match.chance_mode,
        # An open seat has no token until someone takes it.
        "seats": [{"seat": seat["seat"], "name": seat["name"], "token": tokens.get(seat["seat"]),
                   "open": seat["seat"] in open_seats} for seat in match.created["seats"]],
        "organiser_token": tokens[ORGANISER],
    }
    matches.remember(game_id, match)
    # The tokens are shown once: no cache may keep them.
    headers = {"Location": url_for("games.get_game", game_id=game_id), "ETag": etag(result.last_version),
               "Cache-Control": "no-store"}
    return response, 201, headers


@blueprint.get("/games")
def list_games():
    query = load(ListGamesQuery(), request.args.to_dict(), where="query")
    limit = min(query.pop("limit"), current_app.config["PAGE_SIZE_MAX"])
    offset = query.pop("offset")
    open_seats = query.pop("open", False)
    if open_seats and set(query) - {"game"}:
        raise ApiError(400, "invalid_query", "Invalid query parameter",
                       "open=true lists the games with a seat to take, by game at most: drop "
                       f"{sorted(set(query) - {'game'})[0]}", field="open")
    metas, total = context.store().list_games(**query, offset=offset, limit=limit, open_seats=open_seats)
    if open_seats:  # a game whose last join could not strike it off the listing
        metas = [meta for meta in metas if meta["open_seats"] and meta["status"] == "active"]
    following = offset + len(metas)
    next_offset = following if following < total else None
    body = {
        "games": [public_meta(meta) for meta in metas],
        "total": total,
        "offset": offset,
        "limit": limit,
        "next_offset": next_offset,
    }
    return body, 200, next_link("offset", next_offset)


def next_link(parameter: str, value: int | None) -> dict[str, str]:
    """``Link: <...>; rel="next"`` (RFC 8288) for a paged answer with a next page: this request's URL with
    ``parameter`` moved on to ``value``, so a client follows pages without building URLs."""
    if value is None:
        return {}
    query = {**request.args.to_dict(), parameter: str(value)}
    return {"Link": f'<{request.path}?{urlencode(query)}>; rel="next"'}


def public_meta(meta: dict) -> dict:
    """An index entry: what anyone may know about a game (never its seed or tokens)."""
    keys = ("game_id", "game", "status", "version", "chance_mode", "players", "created_at", "updated_at")
    return {**{key: meta.get(key) for key in keys}, "open_seats": meta.get("open_seats", [])}


@blueprint.get("/games/<game_id>")
def get_game(game_id: str):
    meta = game_meta(game_id)
    reader = reader_for(context.store(), game_id, required=False)
    match = current_match(game_id, meta)
    headers = {"ETag": etag(match.version, reader), **shaped_for(reader)}
    if not_modified(headers["ETag"]):
        return "", 304, headers
    return {"game_id": game_id, "reader": reader_name(reader), **with_now(view(match, reader))}, 200, headers



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
        check_seat(match.seats, seat)
    headers = {"ETag": etag(match.version, reader), **shaped_for(reader)}
    return {"game_id": game_id, "version": match.version, "seat": seat, "moves": legal_moves(match, seat)}, 200, headers


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
    body = {"game_id": game_id, "reader": reader_name(reader), "current_version": current, **view(match, shown_as)}
    return body, 200, shaped_for(reader)


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
    next_from = following if envelopes and following <= current else None
    return {
        "game_id": game_id,
        "reader": reader_name(reader),
        "version": current,
        "from": start,
        "limit": limit,
        "events": [redact_envelope(envelope, reader, revealed) for envelope in envelopes],
        "next_from": next_from,
    }, 200, {**shaped_for(reader), **next_link("from", next_from)}


@blueprint.get("/games/<game_id>/integrity")
def get_integrity(game_id: str):
    game_meta(game_id)
    checked = context.store().verify_chain(game_id)
    snapshot = checked.snapshot
    return {
        "game_id": game_id,
        "version": checked.version,
        "ok": checked.ok,
        "first_bad_version": checked.first_bad_version,
        "snapshot": None if snapshot is None else
        {"version": snapshot.version, "ok": snapshot.ok, "finding": snapshot.finding},
        **head_signature(game_id, checked.version, checked.head_hash),
    }


@blueprint.post("/games/<game_id>/moves")
def post_move(game_id: str):
    return moves.submit(game_id)
