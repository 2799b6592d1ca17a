"""The seats of a game: taking an open seat and replacing a token, each a table event (:mod:`domain.core.table`).

``POST /games/{id}/seats/{seat}/join`` takes an open seat and answers with its token, once;
``POST /games/{id}/seats/{reader}/token`` gives a reader (a seat, or ``organiser``) a new token and
stops the old one at once, in every process: the store replaces the token's hash in the same step as it
appends the event (:mod:`service.store.seats`), every request but a known move reads the token's reader
from Redis, and a known move finds the event in the game it is decided on (:mod:`service.api.moves`).

Neither takes an ``Idempotency-Key``: the answer carries a token the store keeps only the hash of, so a
retry could not be given the first answer again, and replaying a join's token to whoever sends the same
key would hand a seat to someone else. A lost answer is mended by a rotation. Both take ``If-Match``: with
it the change is decided against that version only (409 ``stale_version`` if the game moved on); without
it, against the game as it is, decided again if another change lands first.
"""
from __future__ import annotations

import logging

import redis
from flask import Blueprint, request

from domain.core.events import ORGANISER, JsonObject
from domain.core.match import Match, seat_ids, submit_and_fold
from domain.core.table import SEAT_COMMANDS, seats_view
from service.api import context
from service.api.auth import new_token, reader_for
from service.api.context import body_bytes, game_meta, json_body, not_found
from service.api.errors import ApiError
from service.api.versions import etag, expected_version
from service.store import GameNotFound, VersionConflict, index
from service.store import seats as seat_index
from service.store.envelope import redact_envelope
from service.store.store import now_iso

blueprint = Blueprint("seats", __name__)
log = logging.getLogger("cairn.api")
# Without If-Match a change is decided again when another lands first; this many tries, then a 409.
TRIES = 5
NAME_MAX = 64


def refuse_table_misuse(kind: str, reader: str) -> None:
    """A move the moves endpoint refuses for its sender before the rules see it: a seat change, which only
    its own endpoint makes (it stores a token), and a resignation sent with the organiser's token, even for
    a seat it names (TABLE-RESIGN-3: a player resigns, the organiser abandons)."""
    if kind in SEAT_COMMANDS:
        raise ApiError(422, "not_a_move", "Not a move",
                       f"{kind} is made by POST /games/{{id}}/seats/{{seat}}/"
                       f"{'join' if kind == 'join_seat' else 'token'}, which answers with the new token",
                       field="type")
    if kind == "resign" and reader == ORGANISER:
        raise ApiError(403, "organiser_cannot_resign", "The organiser cannot resign",
                       "a seat resigns with its own token; the organiser ends a game with {\"type\": \"abandon\"}",
                       rule_id="TABLE-RESIGN-3", field="type")


@blueprint.post("/games/<game_id>/seats/<seat>/join")
def join_seat(game_id: str, seat: str):
    meta = game_meta(game_id)
    _refuse_idempotency_key()
    name = _joiner_name()
    command: JsonObject = {"type": "join_seat", **({"name": name} if name is not None else {})}
    token = new_token()
    result, after = _change(game_id, meta, seat, command, reader=seat, token=token)
    _file_names(game_id, meta, after)
    body = {**_answer(game_id, result, after, seat), "seat": seat, "name": _name_of(after, seat), "token": token,
            "open_seats": after.table.open_seats}
    return body, 201, _headers(result.last_version)


@blueprint.post("/games/<game_id>/seats/<reader>/token")
def rotate_token(game_id: str, reader: str):
    meta = game_meta(game_id)
    actor = reader_for(context.store(), game_id, required=True)
    _refuse_idempotency_key()
    if reader != actor and actor != ORGANISER:
        raise ApiError(403, "wrong_seat", "Not your seat", f"a {actor} token rotates its own token only",
                       field="reader", rule_id="TABLE-TOKEN-1")
    token = new_token()
    result, after = _change(game_id, meta, actor, {"type": "rotate_token", "reader": reader}, reader=reader,
                            token=token)
    return {**_answer(game_id, result, after, actor), "reader": reader, "token": token}, 201, \
        _headers(result.last_version)


def _change(game_id: str, meta: dict, actor: str, command: JsonObject, *, reader: str, token: str):
    """Decide the change on the game and store it with the token; decided again on a newer version unless
    the request named one (``If-Match``)."""
    if actor != ORGANISER and actor not in seat_ids(len(meta["players"])):
        raise ApiError(404, "unknown_seat", "Unknown seat", f"this game has seats p1 to p{len(meta['players'])}",
                       field="seat")
    condition = request.headers.get("If-Match", "").strip(" \t")
    asked = expected_version(None) if condition not in ("", "*") else None  # '*': any version of the game
    store, matches = context.store(), context.services().matches
    version = asked if asked is not None else meta["version"]
    for _attempt in range(TRIES):
        match = matches.current(game_id, version)
        if asked is not None and match.version != asked:
            raise _stale(asked, match.version)
        now = now_iso()  # the event's time, at which a clock the join starts is folded
        events, after = submit_and_fold(match, actor, command, now=now)
        try:
            result = store.change_token(
                game_id, match.version, events, command={**command, "seat": actor}, reader=reader, token=token,
                open_seats=after.table.open_seats, players=[seat["name"] for seat in seats_view(after)], time=now,
            )
        except GameNotFound:
            raise not_found(game_id) from None
        except VersionConflict as conflict:
            if asked is not None:
                raise _stale(asked, conflict.current_version) from None
            version = conflict.current_version
            continue
        matches.remember(game_id, after)
        return result, after
    raise _stale(version, store.version(game_id))


def _answer(game_id: str, result, after: Match, reader: str) -> JsonObject:
    return {"game_id": game_id, "version": result.last_version,
            "events": [redact_envelope(envelope, reader, after.ended) for envelope in result.envelopes]}


def _headers(version: int) -> dict[str, str]:
    # The answer holds a token, shown once: no cache may keep it.
    return {"ETag": etag(version), "Cache-Control": "no-store"}


def _name_of(match: Match, seat: str) -> str:
    return next(entry["name"] for entry in seats_view(match) if entry["seat"] == seat)


def _joiner_name() -> str | None:
    """The optional ``{"name": ...}`` of the body; a join may have no body at all."""
    if not body_bytes():
        return None
    body = json_body()
    if not isinstance(body, dict):
        raise ApiError(422, "body_not_object", "Request body is not an object", "the JSON body must be an object")
    unknown = sorted(set(body) - {"name"})
    if unknown:
        raise ApiError(422, "unknown_field", "Unknown field", f"'{unknown[0]}' is not a field of a join",
                       field=unknown[0])
    name = body.get("name")
    if name is not None and (not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX):
        raise ApiError(422, "invalid_field", "Invalid field", f"name: 1 to {NAME_MAX} characters", field="name")
    return name


def _refuse_idempotency_key() -> None:
    if "Idempotency-Key" in request.headers:
        raise ApiError(400, "idempotency_key_not_accepted", "Idempotency-Key not accepted",
                       "a join or a rotation answers with a token shown once, so it cannot be replayed; if the "
                       "answer was lost, the organiser rotates the seat's token", field="Idempotency-Key")


def _stale(expected: int, current: int) -> ApiError:
    return ApiError(409, "stale_version", "Stale version",
                    f"you asked for version {expected}, the game is at version {current}",
                    field="If-Match", current_version=current, headers={"ETag": etag(current)})


def _file_names(game_id: str, meta: dict, after: Match) -> None:
    """The index after a join: the game under its player's name instead of the seat's placeholder, and out of
    the open listing once its last seat is taken. An outage now leaves it to the listing's own check
    (``GET /games?open=true`` skips a game with no open seat) and to a reindex."""
    client = context.services().client
    try:
        index.rename_player(client, game_id, game=meta["game"], status=meta["status"], before=meta["players"],
                            after=[seat["name"] for seat in seats_view(after)], created=index.epoch(meta["created_at"]))
        if not after.table.open_seats:
            seat_index.unlist_open(client, game_id, meta["game"])
    except redis.RedisError as error:
        log.warning("game %s was joined, its index entries left behind: %s", game_id, error)
