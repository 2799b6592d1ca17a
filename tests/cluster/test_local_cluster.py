"""The test cluster starts even when a port it found free is taken before its node binds it."""
from __future__ import annotations

import socket

import redis

from service import redis_cluster
from service.redis_cluster import LocalCluster
from service.redis_server import free_port


def test_a_node_whose_bus_port_was_taken_starts_again_on_another(tmp_path, monkeypatch):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        held = taken.getsockname()[1]
        ports = iter([held])
        monkeypatch.setattr(redis_cluster, "free_port", lambda: next(ports, None) or free_port())
        cluster = LocalCluster(tmp_path / "cluster", masters=1).start()
    try:
        assert held not in cluster.bus_ports
        client = redis.RedisCluster.from_url(cluster.url)
        client.set("k", "v")
        assert client.get("k") == b"v"
        client.close()
    finally:
        cluster.stop()
