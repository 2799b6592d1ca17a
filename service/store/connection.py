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

Where the data lives is one of two places (:class:`Locations`): a single Redis
(``REDIS_URL``) that also holds the job queue, or a Redis Cluster
(``REDIS_CLUSTER_URL``, any of its nodes) for the games, their index, the
rate limiter and the live streams, with the job queue on a plain Redis of its
own (``CAIRN_QUEUE_URL``), since RQ's commands span keys no hash tag could
keep in one slot.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.exceptions import ClusterError, RedisClusterException
from redis.retry import Retry

# Seconds for one connect and one read on a request path: an outage is a 503 well within 2 s.
REQUEST_TIMEOUT = 1.0

OUTAGE_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, ClusterError, RedisClusterException)
"""What redis-py raises when Redis is down, paused, too slow or still loading its data
(``BusyLoadingError`` is a ``ConnectionError``), or when a cluster cannot serve a slot: ``CLUSTERDOWN``
while a replica is being promoted, or no node answering when the client learns the layout anew."""


class ClusterUnreachable(redis.exceptions.ConnectionError):
    """No node of the cluster answered, so its layout (which node holds which slot) is unknown."""


@dataclass(frozen=True)
class Locations:
    """The URLs the service's data lives at: the games on ``store`` (a cluster when ``cluster``), the job
    queue on ``queue``."""

    store: str
    cluster: bool
    queue: str

    @classmethod
    def from_settings(cls, redis_url: str | None, cluster_url: str | None, queue_url: str | None) -> Locations:
        """A cluster when ``cluster_url`` is set, whose queue must then be named; else ``redis_url`` holds the
        games and, unless ``queue_url`` says otherwise, the queue."""
        if cluster_url:
            if not queue_url:
                raise ValueError("REDIS_CLUSTER_URL needs CAIRN_QUEUE_URL: the job queue cannot live on a cluster")
            return cls(cluster_url, True, queue_url)
        if not redis_url:
            raise ValueError("set REDIS_URL (one Redis) or REDIS_CLUSTER_URL and CAIRN_QUEUE_URL")
        return cls(redis_url, False, queue_url or redis_url)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Locations:
        """From the app's settings ``REDIS_URL``, ``REDIS_CLUSTER_URL`` and ``QUEUE_URL``."""
        return cls.from_settings(config["REDIS_URL"], config.get("REDIS_CLUSTER_URL"), config.get("QUEUE_URL"))

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ, default_url: str | None = None) -> Locations:
        return cls.from_settings(environ.get("REDIS_URL") or default_url, environ.get("REDIS_CLUSTER_URL"),
                                 environ.get("CAIRN_QUEUE_URL"))

    def connect_store(self, *, read_timeout: float = REQUEST_TIMEOUT, connect_timeout: float = REQUEST_TIMEOUT,
                      decode_responses: bool = True) -> StoreClient:
        """A client of wherever the games live."""
        if self.cluster:
            return connect_cluster(self.store, read_timeout=read_timeout, connect_timeout=connect_timeout,
                                   decode_responses=decode_responses)
        return connect(self.store, read_timeout=read_timeout, connect_timeout=connect_timeout,
                       decode_responses=decode_responses)


def connect(
    url: str,
    *,
    read_timeout: float = REQUEST_TIMEOUT,
    connect_timeout: float = REQUEST_TIMEOUT,
    decode_responses: bool = False,
) -> redis.Redis:
    """A client of the Redis at ``url`` that gives up after ``connect_timeout`` to connect and ``read_timeout``
    to read a reply, and never sends a command twice."""
    return redis.Redis.from_url(url, **_settings(read_timeout, connect_timeout, decode_responses))


def _settings(read_timeout: float, connect_timeout: float, decode_responses: bool) -> dict[str, Any]:
    """What every client of the service is made with: its timeouts, a single try, no health-check PING."""
    return {"decode_responses": decode_responses, "socket_connect_timeout": connect_timeout,
            "socket_timeout": read_timeout, "retry": Retry(NoBackoff(), 0), "retry_on_timeout": False,
            "health_check_interval": 0}


def connect_cluster(
    url: str,
    *,
    read_timeout: float = REQUEST_TIMEOUT,
    connect_timeout: float = REQUEST_TIMEOUT,
    decode_responses: bool = False,
) -> LazyCluster:
    """A client of the Redis Cluster that the node at ``url`` belongs to, with the timeouts and the single try
    of :func:`connect` on every node.

    A redirection (``MOVED``, ``ASK``: the command did not run) is still followed, and a lost node makes the
    client learn the layout again before its next command, so after a failover the next request reaches the
    promoted replica.
    """
    def make() -> RedisCluster:
        return RedisCluster.from_url(url, **_settings(read_timeout, connect_timeout, decode_responses))

    return LazyCluster(make)


class LazyCluster:
    """A :class:`~redis.cluster.RedisCluster` made by its first command rather than at boot.

    redis-py's cluster client asks a node for the layout as it is made, and fails if none answers; the
    service must boot during an outage and answer 503s until the cluster is back, so the client is made
    when first needed, and made again by a later command if that failed (:class:`ClusterUnreachable`, an
    outage like any other).
    """

    def __init__(self, make: Callable[[], RedisCluster]) -> None:
        self._make = make
        self._client: RedisCluster | None = None
        self._lock = threading.Lock()

    @property
    def cluster(self) -> RedisCluster:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    try:
                        self._client = self._make()
                    except RedisClusterException as unreachable:
                        raise ClusterUnreachable(str(unreachable)) from None
        return self._client

    def __getattr__(self, name: str) -> Any:
        """Every other attribute is the cluster client's: redis-py's command methods, typed there."""
        return getattr(self.cluster, name)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()


StoreClient = redis.Redis | LazyCluster
"""A client of wherever the games live: one Redis, or a cluster (see :class:`Locations`)."""


def script_client(client: StoreClient) -> redis.Redis | RedisCluster:
    """redis-py's own client under ``client``: what a :class:`~redis.commands.core.Script` runs on."""
    return client.cluster if isinstance(client, LazyCluster) else client
