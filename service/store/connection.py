"""Every Redis client of the service is made here, so each one has a timeout that bounds what an outage costs.

redis-py's own defaults (5 s per try, three more tries with seconds of
back-off) would hold a request thread for many seconds on a paused or
unreachable Redis and then fail it anyway. A request path instead gets
:data:`REQUEST_TIMEOUT` for each connect and each read, and no retry: the
API answers 503 at once and the client retries. Not retrying here is also
what keeps the answer honest: a command whose reply was lost may have run,
and only the client's Idempotency-Key can make its second try safe.

A caller that asks Redis to block (XREAD BLOCK for the live stream, BLPOP
for a worker's queue) passes a ``read_timeout`` longer than any block it
asks for, or a healthy but idle wait would read as an outage.

No health-check PING is asked for: the pool already replaces a connection
the server closed (it reads as end-of-file when taken from the pool), and a
connection that died silently fails its command within the timeout as a
PING would.
"""
from __future__ import annotations

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

# Seconds for one connect and one read on a request path: an outage is a 503 well within 2 s.
REQUEST_TIMEOUT = 1.0

OUTAGE_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
"""What redis-py raises when Redis is down, paused, too slow or still loading its data
(``BusyLoadingError`` is a ``ConnectionError``)."""


def connect(
    url: str,
    *,
    read_timeout: float = REQUEST_TIMEOUT,
    connect_timeout: float = REQUEST_TIMEOUT,
    decode_responses: bool = False,
) -> redis.Redis:
    """A client of the Redis at ``url`` that gives up after ``connect_timeout`` to connect and ``read_timeout``
    to read a reply, and never sends a command twice."""
    return redis.Redis.from_url(
        url,
        decode_responses=decode_responses,
        socket_connect_timeout=connect_timeout,
        socket_timeout=read_timeout,
        retry=Retry(NoBackoff(), 0),
        retry_on_timeout=False,
        health_check_interval=0,
    )
