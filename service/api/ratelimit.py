"""Token buckets in Redis, so every API process shares one budget per client, and the budget on every answer.

A bucket holds up to ``burst`` requests and refills at ``rate`` per second;
one Lua function reads, refills and takes atomically. Requests come in three
kinds, each with a bucket of its own, so reading a game never eats into the
budget for moving in it, nor creating games into either:

- ``write``: moves and the other POSTs about a game (``RATE_LIMIT``, ``RATE_BURST``);
- ``read``: every GET (``READ_RATE_LIMIT``, ``READ_RATE_BURST``);
- ``create``: ``POST /games`` (``CREATE_RATE_LIMIT``, ``CREATE_RATE_BURST``).

Each bucket is one key (one slot of a cluster). A token presented for a
game has its buckets in the game's slot, so a move can be charged inside its
append; a request without a token is counted against its remote address. Each answer tells the client where its bucket
stands: ``RateLimit-Limit`` (the burst), ``RateLimit-Remaining`` (whole
requests left) and ``RateLimit-Reset`` (seconds until the bucket is full again).

A page served without the store (the contract, the docs, the rules) is
charged too, but fails open: when Redis does not answer it goes ahead
uncounted (and without the headers), and for :data:`FAIL_OPEN_SECONDS`
afterwards such pages do not wait on Redis again, so a paused Redis does not
slow them down.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import redis
import redis.client
from flask import Response, g, request

from domain.core.canonical import sha256_hex
from service.api.errors import ApiError
from service.store import BucketCharge
from service.store.connection import OUTAGE_ERRORS, StoreClient
from service.store.keys import token_bucket
from service.store.lua import TAKE

FAIL_OPEN_SECONDS = 5.0
WRITE, READ, CREATE = "write", "read", "create"
CREATE_ENDPOINT = "games.create_game"


@dataclass(frozen=True)
class Budget:
    """One kind of request's allowance: ``burst`` requests at most, refilled at ``rate`` per second."""

    rate: float
    burst: int


@dataclass(frozen=True)
class Standing:
    """Where a request left its bucket: what the ``RateLimit-*`` headers say."""

    budget: Budget
    left: float

    def headers(self) -> dict[str, str]:
        missing = max(self.budget.burst - self.left, 0.0)
        return {
            "RateLimit-Limit": str(self.budget.burst),
            "RateLimit-Remaining": str(max(math.floor(self.left), 0)),
            "RateLimit-Reset": str(math.ceil(missing / self.budget.rate)),
        }


def kind_of_request() -> str:
    if request.endpoint == CREATE_ENDPOINT:
        return CREATE
    return READ if request.method in ("GET", "HEAD") else WRITE


@dataclass
class RateLimiter:
    client: StoreClient
    budgets: dict[str, Budget]
    _unmetered_until: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        self._take = self.client.register_script(TAKE)

    @property
    def moves(self) -> Budget:
        return self.budgets[WRITE]

    def admit(self, token: str | None, remote: str | None) -> None:
        """Take one request for a page that needs nothing from Redis (429 when the bucket is empty); let it go
        ahead uncounted while Redis does not answer."""
        if time.monotonic() < self._unmetered_until:
            return
        kind = kind_of_request()
        budget = self.budgets[kind]
        try:
            allowed, left = self._take(keys=[self._bucket(token, remote, None, kind)],
                                       args=[budget.rate, budget.burst, time.time()])
        except OUTAGE_ERRORS:
            self._unmetered_until = time.monotonic() + FAIL_OPEN_SECONDS
            return
        self._settle(int(allowed), float(left), budget)

    def take(self, pipe: redis.client.Pipeline, token: str | None, remote: str | None, game_id: str | None) -> tuple:
        """Queue taking one request from the client's bucket on ``pipe``; :meth:`settle` reads its reply.

        A plain EVALSHA: redis-py's pipelined scripts would cost a SCRIPT EXISTS round trip each time. Sent as
        a raw command, which a cluster's pipeline routes by its key (its ``evalsha`` method refuses to).
        """
        kind = kind_of_request()
        budget = self.budgets[kind]
        call = ([self._bucket(token, remote, game_id, kind)], [budget.rate, budget.burst, time.time()], budget)
        pipe.execute_command("EVALSHA", self._take.sha, 1, *call[0], *call[1])
        return call

    def settle(self, reply: list | Exception, call: tuple) -> None:
        """Note where the request left its bucket; 429 when it was empty."""
        if isinstance(reply, redis.exceptions.NoScriptError):
            reply = self._take(keys=call[0], args=call[1])
        if isinstance(reply, Exception):
            raise reply
        allowed, left = reply
        self._settle(int(allowed), float(left), call[2])

    def charge(self, token_hash: str, game_id: str) -> BucketCharge:
        """One move of the token with ``token_hash`` in ``game_id``, for the append to take from the bucket
        itself."""
        budget = self.moves
        return BucketCharge(token_bucket(game_id, token_hash), budget.rate, budget.burst, time.time())

    def charged(self, requests_left: float | None) -> None:
        """Note what an append's charge left in the bucket (``None``: the append charged nothing)."""
        if requests_left is not None:
            g.rate_standing = Standing(self.moves, requests_left)

    def limited(self, requests_left: float) -> ApiError:
        """The 429 for a move whose append found its bucket empty."""
        g.rate_standing = Standing(self.moves, requests_left)
        return self.refusal(self.moves, requests_left)

    def _settle(self, allowed: int, left: float, budget: Budget) -> None:
        g.rate_standing = Standing(budget, left)
        if not allowed:
            raise self.refusal(budget, left)

    @staticmethod
    def refusal(budget: Budget, requests_left: float) -> ApiError:
        wait = max(1.0 - requests_left, 0.0) / budget.rate
        return ApiError(429, "rate_limited", "Too many requests",
                        f"this client may make {budget.rate:g} such requests per second (bursts of {budget.burst})",
                        headers={"Retry-After": str(max(1, math.ceil(wait)))}, retry_after=wait)

    @staticmethod
    def _bucket(token: str | None, remote: str | None, game_id: str | None, kind: str) -> str:
        if token and game_id:
            bucket = token_bucket(game_id, sha256_hex(token))
            return bucket if kind == WRITE else f"{bucket}:{kind}"
        if token:
            return f"cairn:ratelimit:token:{sha256_hex(token)}:{kind}"
        return f"cairn:ratelimit:addr:{remote or 'unknown'}:{kind}"


def add_headers(response: Response) -> Response:
    """The ``RateLimit-*`` headers of the bucket the request was counted against, if it was counted."""
    standing = g.get("rate_standing")
    if standing is not None:
        response.headers.update(standing.headers())
    return response
