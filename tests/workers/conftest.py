"""A store on the test run's private Redis, an export folder, and an in-process RQ worker."""
from __future__ import annotations

import pytest
from rq import SimpleWorker

from service.store import EventStore
from workers.queues import queue


@pytest.fixture
def store(redis_client):
    return EventStore(redis_client, snapshot_every=50)


@pytest.fixture
def export_dir(tmp_path):
    return tmp_path / "exports"


@pytest.fixture
def drain(redis_client):
    """Run every queued job in this process (RQ's SimpleWorker, burst mode), as a deployed worker would."""

    def run() -> None:
        SimpleWorker([queue(redis_client)], connection=redis_client).work(burst=True, logging_level="WARNING")

    return run
