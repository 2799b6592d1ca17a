"""One round trip to Redis before each request: its rate-limit bucket and what it will read of its game.

Asked one at a time, a move's bucket, the game's meta, the token's reader,
the seed and the idempotency record are five round trips; queued on one
pipeline they are one. Views read them through
:func:`service.api.context.prelude_for` and fall back to the store for
anything not fetched here.
"""
from __future__ import annotations

import json

from flask import g, request

from domain.core.canonical import sha256_hex
from service.api.auth import presented_token
from service.api.context import GAME_ID_PATTERN, Prelude, services
from service.api.errors import ApiError
from service.api.ratelimit import RateLimiter
from service.store.keys import game_keys

MOVE_ENDPOINT = "games.post_move"
STREAM_ENDPOINT = "stream.follow"


def before_request() -> None:
    """Take one request from the client's bucket (429 when empty) and fetch the game's records with it."""
    found = services()
    try:
        token = presented_token(allow_query=request.endpoint == STREAM_ENDPOINT)
    except ApiError:
        token = None
    game_id = (request.view_args or {}).get("game_id")
    moving = request.endpoint == MOVE_ENDPOINT
    key = request.headers.get("Idempotency-Key") if moving else None
    pipe = found.client.pipeline(transaction=False)
    call = found.limiter.take(pipe, token, request.remote_addr)
    fetched: list[str] = []
    if game_id is not None and GAME_ID_PATTERN.match(game_id):
        keys = game_keys(game_id)
        pipe.hgetall(keys.meta)
        fetched.append("meta")
        if token:
            pipe.hget(keys.private, f"token:{sha256_hex(token)}")
            fetched.append("reader")
        if moving:
            pipe.hget(keys.private, "seed")
            fetched.append("seed")
        if key:
            pipe.hget(keys.idem, key)
            fetched.append("recorded")
    replies = pipe.execute(raise_on_error=False)
    for reply in replies[1:]:
        if isinstance(reply, Exception):
            raise reply
    wait = found.limiter.wait(replies[0], call)
    if wait:
        limiter = found.limiter
        raise ApiError(429, "rate_limited", "Too many requests",
                       f"this token may make {limiter.rate:g} requests per second (bursts of {limiter.burst})",
                       headers={"Retry-After": RateLimiter.retry_after(wait)}, retry_after=wait)
    if fetched:
        got = dict(zip(fetched, replies[1:], strict=True))
        recorded = got.get("recorded")
        g.prelude = Prelude(
            game_id=game_id,
            meta=got["meta"],
            token=token if "reader" in got else None,
            reader=got.get("reader"),
            seed=got.get("seed"),
            idempotency_key=key if "recorded" in got else None,
            recorded=json.loads(recorded) if recorded else None,
        )
