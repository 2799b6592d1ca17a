"""What every view needs: the store, the request's JSON body and the game it names."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import redis
from flask import current_app, g, request

from service.api import jsonio
from service.api.errors import ApiError
from service.api.matches import MatchCache
from service.api.ratelimit import RateLimiter
from service.store import Durability, GameNotFound

GAME_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
ENDED_STATUSES = ("ended", "scored")


@dataclass
class Services:
    """What :func:`service.app.create_app` builds once per app; nothing in it talks to Redis until a request does.

    ``queue_client`` does not decode replies, as RQ needs.
    """

    client: redis.Redis
    queue_client: redis.Redis
    store: Any
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
    raw = request.get_data(cache=True)
    try:
        return jsonio.loads(raw)
    except ValueError as error:
        raise ApiError(400, "malformed_json", "Malformed JSON", f"the body is not valid JSON: {error}") from None


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
    }


def not_found(game_id: str) -> ApiError:
    return ApiError(404, "game_not_found", "Game not found", f"there is no game {game_id!r}", field="game_id")


def is_revealed(meta: dict) -> bool:
    """Once a game has ended its seed is public, so every secret of its history is too."""
    return meta.get("status") in ENDED_STATUSES


def reader_name(reader: str | None) -> str:
    return reader or "public"
