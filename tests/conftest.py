"""The test run's own Redis: a private port and data folder, started once, flushed per test; and a data
folder of the run's own for every process that reads ``CAIRN_DATA_DIR`` (the snapshot key, the signing
key), as ``cairn serve`` gives its API and worker, so no test writes under the working directory."""
from __future__ import annotations

import os

import pytest
import redis

from service.redis_server import RedisServer


@pytest.fixture(scope="session", autouse=True)
def run_data_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    previous = os.environ.get("CAIRN_DATA_DIR")
    os.environ["CAIRN_DATA_DIR"] = str(folder)
    yield folder
    if previous is None:
        del os.environ["CAIRN_DATA_DIR"]
    else:
        os.environ["CAIRN_DATA_DIR"] = previous


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture
def redis_client(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    yield client
    client.close()
