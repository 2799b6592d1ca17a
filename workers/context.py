"""The event store a job works on, built once per worker process.

With one Redis the games live beside the queue, so the store uses the
job's own connection. On a Redis Cluster (``REDIS_CLUSTER_URL``) the games
live there and only the queue is on the job's Redis, so the store has a
cluster client of its own, shared by every job of the process. Either way it
honours the instance's durability (``CAIRN_APPENDFSYNC=replicated`` makes a
score wait for a replica, as a move does).
"""
from __future__ import annotations

import os

import redis
from rq import get_current_job

from service.store import EventStore, Replication, snapshot_key
from service.store.connection import LazyCluster, StoreClient, connect_cluster

_stores: dict[object, EventStore] = {}
_clusters: dict[str, LazyCluster] = {}
DEFAULT_REPLICA_WAIT_MS = 500


def store_for(connection: redis.Redis) -> EventStore:
    """One store per place, so its Lua scripts are registered and its head cache kept across jobs; it MACs
    snapshots with the key the API processes of the instance use (same settings, same data folder)."""
    client = store_client(connection)
    key = id(client) if isinstance(client, LazyCluster) else id(client.connection_pool)
    if key not in _stores:
        _stores[key] = EventStore(client, snapshot_key=snapshot_key.from_environment(),
                                  replication=replication_from_environment())
    return _stores[key]


def store_client(connection: redis.Redis) -> StoreClient:
    """Where the games are: the cluster of ``REDIS_CLUSTER_URL``, else the queue's own Redis."""
    url = os.environ.get("REDIS_CLUSTER_URL")
    if not url:
        return connection
    if url not in _clusters:
        _clusters[url] = connect_cluster(url)
    return _clusters[url]


def replication_from_environment() -> Replication | None:
    if os.environ.get("CAIRN_APPENDFSYNC") != "replicated":
        return None
    return Replication(replicas=1, wait_ms=int(os.environ.get("CAIRN_REPLICA_WAIT_MS", DEFAULT_REPLICA_WAIT_MS)))


def current_connection() -> redis.Redis:
    """The running job's connection: the queue's Redis."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("not running inside an RQ job")
    return job.connection


def current_store() -> EventStore:
    return store_for(current_connection())


def current_store_client() -> StoreClient:
    """Where a job keeps what it makes of a game (an audit report, an export's record): beside the game."""
    return store_client(current_connection())


def report_progress(done: int, total: int) -> None:
    """Record how far the running job is, for ``GET /jobs/{id}``; a no-op outside a job."""
    job = get_current_job()
    if job is not None:
        job.meta["progress"] = {"done": done, "total": total}
        job.save_meta()
