"""A token bucket per client in Redis, so every API process shares one budget per token.

The bucket holds up to ``burst`` requests and refills at ``rate`` per second;
one Lua script reads, refills and takes atomically. A request without a token
is counted against its remote address.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import redis
import redis.client

from domain.core.canonical import sha256_hex

_TAKE = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or burst
local at = tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return {allowed, tostring(tokens)}
"""


@dataclass
class RateLimiter:
    client: redis.Redis
    rate: float
    burst: int

    def __post_init__(self) -> None:
        self._take = self.client.register_script(_TAKE)

    def take(self, pipe: redis.client.Pipeline, token: str | None, remote: str | None) -> tuple:
        """Queue taking one request from the client's bucket on ``pipe``; :meth:`wait` reads its reply.

        A plain EVALSHA: redis-py's pipelined scripts would cost a SCRIPT EXISTS round trip each time.
        """
        who = f"token:{sha256_hex(token)}" if token else f"addr:{remote or 'unknown'}"
        call = ([f"cairn:ratelimit:{who}"], [self.rate, self.burst, time.time()])
        pipe.evalsha(self._take.sha, 1, *call[0], *call[1])
        return call

    def wait(self, reply: list | Exception, call: tuple) -> float:
        """0 if the request may go ahead, else the seconds until the bucket holds one request again."""
        if isinstance(reply, redis.exceptions.NoScriptError):
            reply = self._take(keys=call[0], args=call[1])
        allowed, left = reply
        if int(allowed):
            return 0.0
        return max(1.0 - float(left), 0.0) / self.rate

    @staticmethod
    def retry_after(wait: float) -> str:
        return str(max(1, math.ceil(wait)))
