"""The event store a job works on: built once per worker process on the job's own Redis connection."""
from __future__ import annotations

import redis
from rq import get_current_job

from service.store import EventStore, snapshot_key

_stores: dict[int, EventStore] = {}


def store_for(connection: redis.Redis) -> EventStore:
    """One store per connection, so its Lua scripts are registered and its head cache kept across jobs; it
    MACs snapshots with the key the API processes of the instance use (same settings, same data folder)."""
    key = id(connection.connection_pool)
    if key not in _stores:
        _stores[key] = EventStore(connection, snapshot_key=snapshot_key.from_environment())
    return _stores[key]


def current_connection() -> redis.Redis:
    job = get_current_job()
    if job is None:
        raise RuntimeError("not running inside an RQ job")
    return job.connection


def current_store() -> EventStore:
    return store_for(current_connection())


def report_progress(done: int, total: int) -> None:
    """Record how far the running job is, for ``GET /jobs/{id}``; a no-op outside a job."""
    job = get_current_job()
    if job is not None:
        job.meta["progress"] = {"done": done, "total": total}
        job.save_meta()
