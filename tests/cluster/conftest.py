"""The API on the test run's Redis Cluster, and a cluster of a test's own for one that kills a master."""
from __future__ import annotations

import pytest

from service.redis_cluster import LocalCluster
from tests.api.conftest import FAST, Api, serve


@pytest.fixture
def backend_cluster_api(redis_cluster, redis_server, tmp_path, monkeypatch):
    """An API on the shared cluster (emptied first), its queue on the plain Redis."""
    from redis.cluster import RedisCluster

    with RedisCluster.from_url(redis_cluster.url) as client:
        client.flushall(target_nodes=RedisCluster.PRIMARIES)
    config = {"REDIS_CLUSTER_URL": redis_cluster.url, "QUEUE_URL": redis_server.url,
              "DATA_DIR": str(tmp_path / "data"), **FAST}
    for base in serve(config):
        yield Api(base), redis_cluster


@pytest.fixture
def own_cluster(tmp_path):
    """A cluster this test may break: its nodes die with it."""
    cluster = LocalCluster(tmp_path / "cluster").start()
    yield cluster
    cluster.stop()
