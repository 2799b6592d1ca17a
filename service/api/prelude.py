"""One round trip to Redis before each request: its rate-limit bucket and what it will read of its game.

Asked one at a time, a move's bucket, the game's meta, its secrets (the
readers of its tokens, by hash, and the seed) and the idempotency record
are four round trips; queued on one pipeline they are one. This process
keeps the secrets (:mod:`service.api.matches`), with the version the meta
had when they were read: a token changes only by a table event, so a move
knows them stale when the game it is decided on has such an event after
that version (:mod:`service.api.moves`). Views read them through
:func:`service.api.context.prelude_for` and fall back to the store for
anything not fetched here.

A move whose token this process already knows (see
:mod:`service.api.matches`) skips even that: its append charges the bucket
itself, and it comes back here only if it is answered without an append
(bad input, a stale version, a refusal by the rules).

Pages that need nothing from Redis (the contract, the docs, the rules, and
any path that does not exist) only take from the bucket, failing open, so an
outage of Redis does not take them down; the health probes are not counted.
Every other request first makes sure Redis was configured for durability
(done once, by the first request that reaches it).
"""
from __future__ import annotations

import json

from flask import g, request

from domain.core.canonical import sha256_hex
from service.api.auth import presented_token
from service.api.context import GAME_ID_PATTERN, Prelude, services
from service.api.errors import ApiError
from service.api.matches import KnownMove
from service.store.keys import game_keys

MOVE_ENDPOINT = "games.post_move"
STREAM_ENDPOINT = "stream.follow"
STORELESS_BLUEPRINTS = frozenset({"docs", "rules"})
PROBE_BLUEPRINT = "health"


def before_request() -> None:
    """Take one request from the client's bucket (429 when empty) and fetch the game's records with it;
    a move whose token this process knows is left to its append (``g.known_move``). A preflight
    (``OPTIONS``) touches neither: :mod:`service.api.cors` answers it."""
    if request.method == "OPTIONS" or request.blueprint == PROBE_BLUEPRINT:
        return
    found = services()
    if request.endpoint is None or request.blueprint in STORELESS_BLUEPRINTS:
        found.limiter.admit(_token_or_none(), request.remote_addr)
        return
    found.durability.ensure()
    if request.endpoint == MOVE_ENDPOINT:
        g.known_move = known_move()
        if g.known_move is not None:
            return
    fetch()


def known_move() -> KnownMove | None:
    """The token hash and the game's facts for a move whose reader this process knows, else ``None``."""
    game_id = (request.view_args or {}).get("game_id")
    try:
        token = presented_token()
    except ApiError:
        return None
    if token is None or game_id is None:
        return None
    facts = services().matches.facts(game_id)
    token_hash = sha256_hex(token)
    if facts is None or token_hash not in facts.readers:
        return None
    return KnownMove(token_hash, facts)


def fetch() -> None:
    """The request's bucket and its game's records, in one pipeline; 429 when the bucket is empty."""
    found = services()
    token = _token_or_none(allow_query=request.endpoint == STREAM_ENDPOINT)
    game_id = (request.view_args or {}).get("game_id")
    if game_id is not None and not GAME_ID_PATTERN.match(game_id):
        game_id = None
    moving = request.endpoint == MOVE_ENDPOINT
    key = request.headers.get("Idempotency-Key") if moving else None
    pipe = found.client.pipeline(transaction=False)
    call = found.limiter.take(pipe, token, request.remote_addr, game_id)
    fetched: list[str] = []
    if game_id is not None:
        keys = game_keys(game_id)
        pipe.hgetall(keys.meta)
        fetched.append("meta")
        if token or moving:
            pipe.hgetall(keys.private)
            fetched.append("private")
        if key:
            pipe.hget(keys.idem, key)
            fetched.append("recorded")
    replies = pipe.execute(raise_on_error=False)
    for reply in replies[1:]:
        if isinstance(reply, Exception):
            raise reply
    found.limiter.settle(replies[0], call)
    if fetched and game_id is not None:
        got = dict(zip(fetched, replies[1:], strict=True))
        private = got.get("private") or {}
        reader = private.get(f"token:{sha256_hex(token)}") if token else None
        recorded = got.get("recorded")
        g.prelude = Prelude(
            game_id=game_id,
            meta=got["meta"],
            token=token if "private" in got else None,
            reader=reader,
            seed=private.get("seed"),
            idempotency_key=key if "recorded" in got else None,
            recorded=json.loads(recorded) if recorded else None,
        )
        if private:
            readers = {name.removeprefix("token:"): value for name, value in private.items()
                       if name.startswith("token:")}
            meta = got["meta"]
            if meta:
                found.matches.learn(game_id, readers, private.get("seed"), len(json.loads(meta["players"])),
                                    int(meta["version"]))


def _token_or_none(allow_query: bool = False) -> str | None:
    """The bearer token, or ``None`` for a malformed one (the view refuses it, if it needs a token at all)."""
    try:
        return presented_token(allow_query=allow_query)
    except ApiError:
        return None
