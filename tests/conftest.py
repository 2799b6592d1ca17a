"""The test run's own Redis: a private port and data folder, started once, flushed per test; and a data
folder of the run's own for every process that reads ``CAIRN_DATA_DIR`` (the snapshot key, the signing
key), as ``cairn serve`` gives its API and worker, so no test writes under the working directory.

A test marked ``cluster`` runs twice: on that one Redis, and on a real Redis
Cluster the run starts the first time a test needs it (three masters with a
replica each), with the job queue on the plain Redis. Fixtures built on
``redis_client`` follow the ``backend`` they are given.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import redis
from redis.cluster import RedisCluster

from service.redis_cluster import LocalCluster
from service.redis_server import RedisServer
from service.store.connection import connect_cluster

BACKENDS = ("single", "cluster")
# The tier for the edit loop (``./run test -m quick``): the games' rules, the bots' knowledge, the golden
# playthroughs and the store on the run's Redis (its tests on a Redis Cluster left out, since the cluster takes
# seconds to start), but for the tests that play random games to the end (named for it: ``conform``, ``to the
# end``, ``playout``); no served API, no processes started, no browser.
QUICK_FOLDERS = {"core", "borealis", "northwest_passage", "ice_expedition", "through_ice_and_snow", "playthroughs",
                 "bots", "store"}
TESTS = Path(__file__).resolve().parent


def pytest_configure(config):
    config.addinivalue_line("markers", "cluster: also run the test on a real Redis Cluster")
    config.addinivalue_line("markers", "quick: the fast tier (see QUICK_FOLDERS)")


def pytest_collection_modifyitems(items):
    for item in items:
        folder = Path(item.path).relative_to(TESTS).parts[0]
        plays_whole_games = any(word in item.originalname for word in ("conform", "to_the_end", "playout"))
        if folder in QUICK_FOLDERS and item.get_closest_marker("cluster") is None and not plays_whole_games:
            item.add_marker(pytest.mark.quick)


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("cluster"):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request) -> str:
    """``single`` (one Redis for everything) unless the test is marked ``cluster`` and runs on the cluster."""
    return getattr(request, "param", "single")


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


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory):
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster")).start()
    yield cluster
    cluster.stop()


@pytest.fixture
def redis_client(request, backend, redis_server):
    """A client of where the games are, emptied first; on the cluster the queue's Redis is emptied too."""
    if backend == "cluster":
        cluster = request.getfixturevalue("redis_cluster")
        client = connect_cluster(cluster.url, read_timeout=5.0, connect_timeout=5.0)
        client.flushall(target_nodes=RedisCluster.PRIMARIES)
        with redis.Redis.from_url(redis_server.url) as queue:
            queue.flushall()
    else:
        client = redis.Redis.from_url(redis_server.url)
        client.flushall()
    yield client
    client.close()


@pytest.fixture
def queue_client(backend, redis_client, redis_server):
    """A client of the job queue's Redis: the one Redis, or the plain Redis beside the cluster."""
    if backend == "single":
        yield redis_client
        return
    client = redis.Redis.from_url(redis_server.url)
    yield client
    client.close()


@pytest.fixture
def locations(request, backend, redis_server) -> dict:
    """The settings that put an app (or a worker, through the environment) where the backend is."""
    if backend == "cluster":
        return {"REDIS_CLUSTER_URL": request.getfixturevalue("redis_cluster").url, "QUEUE_URL": redis_server.url}
    return {"REDIS_URL": redis_server.url}
