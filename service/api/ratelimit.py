"""A token bucket per client in Redis, so every API process shares one budget per token.

The bucket holds up to ``burst`` requests and refills at ``rate`` per second;
one Lua function reads, refills and takes atomically, touching its bucket
alone (one key, so one slot of a cluster). A token presented for a game has
its bucket in the game's slot, so a move can be charged inside its append; a
request without a token is counted against its remote address.

A page served without the store (the contract, the docs, the rules) is
charged too, but fails open: when Redis does not answer it goes ahead
uncounted, and for :data:`FAIL_OPEN_SECONDS` afterwards such pages do not
wait on Redis again, so a paused Redis does not slow them down.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import redis
import redis.client

from domain.core.canonical import sha256_hex
from service.api.errors import ApiError
from service.store import BucketCharge
from service.store.connection import OUTAGE_ERRORS
from service.store.keys import token_bucket
from service.store.lua import TAKE

FAIL_OPEN_SECONDS = 5.0


@dataclass
class RateLimiter:
    client: redis.Redis
    rate: float
    burst: int
    _unmetered_until: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        self._take = self.client.register_script(TAKE)

    def admit(self, token: str | None, remote: str | None) -> None:
        """Take one request for a page that needs nothing from Redis (429 when the bucket is empty); let it go
        ahead uncounted while Redis does not answer."""
        if time.monotonic() < self._unmetered_until:
            return
        bucket = self._bucket(token, remote, None)
        try:
            allowed, left = self._take(keys=[bucket], args=[self.rate, self.burst, time.time()])
        except OUTAGE_ERRORS:
            self._unmetered_until = time.monotonic() + FAIL_OPEN_SECONDS
            return
        if not int(allowed):
            raise self.refusal(self.wait_after(float(left)))

    def take(self, pipe: redis.client.Pipeline, token: str | None, remote: str | None, game_id: str | None) -> tuple:
        """Queue taking one request from the client's bucket on ``pipe``; :meth:`wait` reads its reply.

        A plain EVALSHA: redis-py's pipelined scripts would cost a SCRIPT EXISTS round trip each time. Sent as
        a raw command, which a cluster's pipeline routes by its key (its ``evalsha`` method refuses to).
        """
        call = ([self._bucket(token, remote, game_id)], [self.rate, self.burst, time.time()])
        pipe.execute_command("EVALSHA", self._take.sha, 1, *call[0], *call[1])
        return call

    def charge(self, token_hash: str, game_id: str) -> BucketCharge:
        """One request of the token with ``token_hash`` for an append of ``game_id`` to take from the bucket
        itself."""
        return BucketCharge(token_bucket(game_id, token_hash), self.rate, self.burst, time.time())

    def wait(self, reply: list | Exception, call: tuple) -> float:
        """0 if the request may go ahead, else the seconds until the bucket holds one request again."""
        if isinstance(reply, redis.exceptions.NoScriptError):
            reply = self._take(keys=call[0], args=call[1])
        allowed, left = reply
        return 0.0 if int(allowed) else self.wait_after(float(left))

    def wait_after(self, requests_left: float) -> float:
        """Seconds until a bucket holding ``requests_left`` holds one request again."""
        return max(1.0 - requests_left, 0.0) / self.rate

    def refusal(self, wait: float) -> ApiError:
        return ApiError(429, "rate_limited", "Too many requests",
                        f"this token may make {self.rate:g} requests per second (bursts of {self.burst})",
                        headers={"Retry-After": str(max(1, math.ceil(wait)))}, retry_after=wait)

    @staticmethod
    def _bucket(token: str | None, remote: str | None, game_id: str | None) -> str:
        if token and game_id:
            return token_bucket(game_id, sha256_hex(token))
        if token:
            return f"cairn:ratelimit:token:{sha256_hex(token)}"
        return f"cairn:ratelimit:addr:{remote or 'unknown'}"
