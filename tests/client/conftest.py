"""The Python client against the real service: served over HTTP on the test run's Redis, every answer it gets
held to api_spec.yaml, and optionally a faulty proxy and a real worker process in between."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from cairn_client import Client, RetryPolicy

from tests.api.conftest import FAST, serve
from tests.client.faults import FaultyProxy
from tests.contract import CONTRACT
from tests.workers.test_failures import kill_group, start_worker

# Retries quick enough for tests, bounded like the defaults.
QUICK_RETRIES = RetryPolicy(attempts=8, total_seconds=30, first_wait=0.05, max_wait=0.5)


def checked_session() -> requests.Session:
    """A session whose every answer (but a live stream, read as it comes) is validated against the contract."""

    def check(response: requests.Response, *_args, **_kwargs) -> None:
        if not response.headers.get("Content-Type", "").startswith("text/event-stream"):
            CONTRACT.check_response(response)

    session = requests.Session()
    session.trust_env = False
    session.hooks["response"].append(check)
    return session


@pytest.fixture
def export_dir(tmp_path) -> Path:
    return tmp_path / "exports"


@pytest.fixture
def service_config(redis_server, redis_client, tmp_path, export_dir) -> dict:
    """Settings of the service under test; a test may change them before asking for ``base_url``."""
    return {"REDIS_URL": redis_server.url, "DATA_DIR": str(tmp_path / "data"), "EXPORT_DIR": str(export_dir),
            **FAST}


@pytest.fixture
def base_url(service_config) -> Iterator[str]:
    yield from serve(service_config)


@pytest.fixture
def client(base_url) -> Iterator[Client]:
    with Client(base_url, retry=QUICK_RETRIES, session=checked_session()) as cairn:
        yield cairn


@pytest.fixture
def proxy(base_url) -> Iterator[FaultyProxy]:
    faulty = FaultyProxy(base_url).start()
    yield faulty
    faulty.stop()


@pytest.fixture
def proxied(proxy) -> Iterator[Client]:
    """A client that reaches the service through :class:`FaultyProxy`."""
    with Client(proxy.url, retry=QUICK_RETRIES, session=checked_session()) as cairn:
        yield cairn


@pytest.fixture
def worker(redis_server, export_dir) -> Iterator[None]:
    """A real worker process on the test run's Redis, killed at the end."""
    process = start_worker(redis_server.url, export_dir)
    yield
    kill_group(process)
