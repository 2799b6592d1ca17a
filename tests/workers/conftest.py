"""A store on the test run's private Redis, an export folder, and an in-process RQ worker."""
from __future__ import annotations

import pytest

from service.signing import keyring_from_environment
from service.store import EventStore
from tests.burst import drain as drain_queue


@pytest.fixture
def store(redis_client):
    return EventStore(redis_client, snapshot_every=50)


@pytest.fixture
def export_dir(tmp_path):
    return tmp_path / "exports"


@pytest.fixture
def drain(queue_client, locations, monkeypatch):
    """Run every queued job in this process (RQ's SimpleWorker, burst mode), as a deployed worker would: on
    the cluster, its jobs find the games through ``REDIS_CLUSTER_URL``."""
    if "REDIS_CLUSTER_URL" in locations:
        monkeypatch.setenv("REDIS_CLUSTER_URL", locations["REDIS_CLUSTER_URL"])

    def run() -> None:
        drain_queue(queue_client)

    return run


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """A data folder of the test's own, so the signing key the exports use is made there, not in ./var."""
    folder = tmp_path / "data"
    monkeypatch.setenv("CAIRN_DATA_DIR", str(folder))
    monkeypatch.delenv("CAIRN_SIGNING_KEY", raising=False)
    keyring_from_environment.cache_clear()
    yield folder
    keyring_from_environment.cache_clear()
