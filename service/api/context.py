"""What every view needs: the store, the request's JSON body and the game it names."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import redis
from flask import current_app, g, request
from werkzeug.exceptions import RequestEntityTooLarge

from service.api import jsonio
from service.api.errors import ApiError
from service.api.matches import MatchCache
from service.api.ratelimit import RateLimiter
from service.store import Durability, EventStore, GameNotFound
from service.store.connection import StoreClient

GAME_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
ENDED_STATUSES = ("ended", "scored")


@dataclass
class Services:
    """What :func:`service.app.create_app` builds once per app; nothing in it talks to Redis until a request does.

    ``queue_client`` does not decode replies, as RQ needs.
    """

    client: StoreClient
    queue_client: redis.Redis
    store: EventStore
    matches: MatchCache
    limiter: RateLimiter
    durability: Durability
    spec_text: str


@dataclass
class Prelude:
    """What :mod:`service.api.prelude` fetched for the game a request names.

    ``meta`` is the raw meta hash (empty: no such game); ``reader`` is the
    reader of ``token`` (``None``: not a token of this game); ``seed`` is read
    with it, and for every move; ``recorded`` (the idempotency record of
    ``idempotency_key``) only for moves.
    """

    game_id: str
    meta: dict[str, str]
    token: str | None
    reader: str | None
    seed: str | None
    idempotency_key: str | None
    recorded: dict | None


def services() -> Services:
    return current_app.extensions["cairn"]


def prelude_for(game_id: str) -> Prelude | None:
    prelude = g.get("prelude")
    return prelude if prelude is not None and prelude.game_id == game_id else None


def store():
    return services().store


def current_match(game_id: str, meta: dict):
    """The game as of ``meta`` (or later), folded from the process's cache where it can be."""
    return services().matches.current(game_id, meta["version"])


def json_body() -> Any:
    """The parsed JSON body; 415 for another media type, 400 for JSON that does not parse, 413 when too large."""
    if not request.is_json:
        raise ApiError(415, "unsupported_media_type", "Unsupported media type",
                       "send the body as application/json")
    try:
        return jsonio.loads(body_bytes())
    except ValueError as error:
        raise ApiError(400, "malformed_json", "Malformed JSON", f"the body is not valid JSON: {error}") from None


def body_bytes() -> bytes:
    """The whole request body, or 413 when it is longer than ``MAX_CONTENT_LENGTH``, however it was sent.

    Werkzeug refuses a Content-Length over the limit, but a chunked body (no
    Content-Length, a stream the server ends) it cuts at the limit and hands
    over as if it were whole, so a move would be decided on a prefix of what
    was sent. Such a body is read from the server's stream up to one byte
    past the limit, and that byte refuses it. A body of a stated length is
    read straight from the server's stream too: werkzeug's limited stream
    and its cache cost a move more than its JSON parse. Either way it is read
    once a request and kept in ``g``.
    """
    body = g.get("request_body")
    if body is None:
        g.request_body = body = _read_body()
    return body


def _read_body() -> bytes:
    limit = request.max_content_length
    environ = request.environ
    stated = environ.get("CONTENT_LENGTH")
    if stated and stated.isdigit():
        if limit is not None and int(stated) > limit:
            raise RequestEntityTooLarge()
        return _read_at_most(environ["wsgi.input"], int(stated))
    if limit is not None and "wsgi.input_terminated" in environ:
        body = _read_at_most(environ["wsgi.input"], limit + 1)
        if len(body) > limit:
            raise RequestEntityTooLarge()
        return body
    return request.get_data(cache=True)


def _read_at_most(stream, count: int) -> bytes:
    """Up to ``count`` bytes: a server's stream may answer a read with fewer bytes than asked before its end."""
    chunks, size = [], 0
    while size < count and (chunk := stream.read(count - size)):
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def game_meta(game_id: str) -> dict:
    """The game's meta record, or 404 ``game_not_found`` (checked before any token, so ids are not probed by 401s)."""
    if not GAME_ID_PATTERN.match(game_id):
        raise not_found(game_id)
    prelude = prelude_for(game_id)
    if prelude is not None:
        if not prelude.meta:
            raise not_found(game_id)
        return _parsed_meta(game_id, prelude.meta)
    try:
        return store().meta(game_id)
    except GameNotFound:
        raise not_found(game_id) from None


def _parsed_meta(game_id: str, meta: dict[str, str]) -> dict:
    """The raw meta hash in the shape ``EventStore.meta`` returns."""
    return {
        **meta,
        "game_id": game_id,
        "version": int(meta["version"]),
        "players": json.loads(meta["players"]),
        "open_seats": json.loads(meta.get("open_seats") or "[]"),
    }


def not_found(game_id: str) -> ApiError:
    return ApiError(404, "game_not_found", "Game not found", f"there is no game {game_id!r}", field="game_id")


def is_revealed(meta: dict) -> bool:
    """Once a game has ended its seed is public, so every secret of its history is too."""
    return meta.get("status") in ENDED_STATUSES


def reader_name(reader: str | None) -> str:
    return reader or "public"
