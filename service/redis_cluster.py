"""A real Redis Cluster on this machine: three masters with a replica each, for the tests and the benchmarks.

Made of :class:`~service.redis_server.RedisServer` processes (the same
``redis-server`` binary the embedded setup uses) on free loopback ports,
joined with ``CLUSTER MEET``, given a third of the slots per master with
``CLUSTER ADDSLOTSRANGE`` and paired with ``CLUSTER REPLICATE``: no
``redis-cli`` is needed. A small ``cluster-node-timeout`` makes a replica
take over from a killed master within seconds.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from service.redis_server import RedisServer, free_port

SLOTS = 16384


@dataclass
class LocalCluster:
    data_dir: Path
    masters: int = 3
    node_timeout_ms: int = 2000
    appendfsync: str = "everysec"
    nodes: list[RedisServer] = field(default_factory=list)
    bus_ports: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        """Any one node will do: the client learns the rest from it."""
        return self.nodes[0].url

    def start(self, timeout: float = 30.0) -> LocalCluster:
        options = ("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                   "--cluster-node-timeout", str(self.node_timeout_ms))
        try:
            for number in range(self.masters * 2):
                self._start_node(self.data_dir / f"node-{number}", options)
            self._join(time.monotonic() + timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _start_node(self, data_dir: Path, options: tuple[str, ...], attempts: int = 3) -> None:
        """One node on fresh free ports. A port found free may be taken by another process before the node
        binds it (parallel test workers start servers at once): the node then fails with "Address already in
        use" in its log, and is started again on other ports."""
        for attempt in range(attempts):
            # The bus port is named: by default it is the port + 10000, which a free port may not leave room for.
            bus = free_port()
            server = RedisServer(data_dir, appendfsync=self.appendfsync, options=(*options, "--cluster-port", str(bus)))
            try:
                self.nodes.append(server.start())
            except RuntimeError:
                log = data_dir / "redis.log"
                if attempt + 1 == attempts or "Address already in use" not in log.read_text(errors="replace"):
                    raise
                log.unlink()
                continue
            self.bus_ports.append(bus)
            return

    def _join(self, deadline: float) -> None:
        clients = [redis.Redis(port=node.port, decode_responses=True) for node in self.nodes]
        try:
            ids = [client.execute_command("CLUSTER", "MYID") for client in clients]
            for node, bus in zip(self.nodes[1:], self.bus_ports[1:], strict=True):
                clients[0].execute_command("CLUSTER", "MEET", "127.0.0.1", node.port, bus)
            share = SLOTS // self.masters
            for number, client in enumerate(clients[: self.masters]):
                last = SLOTS - 1 if number == self.masters - 1 else (number + 1) * share - 1
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", number * share, last)
            for number, client in enumerate(clients[self.masters:]):
                _until(deadline, lambda client=client, number=number: ids[number] in client.execute_command(
                    "CLUSTER", "NODES"), "the nodes to meet")
                client.execute_command("CLUSTER", "REPLICATE", ids[number])
            _until(deadline, lambda: all(self._settled(client) for client in clients), "the cluster to settle")
        finally:
            for client in clients:
                client.close()

    def _settled(self, client: redis.Redis) -> bool:
        info = client.execute_command("CLUSTER", "INFO")
        lines = [line.split() for line in client.execute_command("CLUSTER", "NODES").splitlines()]
        replicas = sum(1 for fields in lines if "slave" in fields[2].split(",") and fields[7] == "connected")
        return "cluster_state:ok" in info and replicas == self.masters and all(
            _synced(node) for node in self.nodes)

    def master_of(self, key: str) -> RedisServer:
        """The node serving ``key``'s slot now."""
        for node in self.alive():
            with redis.Redis(port=node.port, decode_responses=True, socket_timeout=2) as client:
                slot = client.execute_command("CLUSTER", "KEYSLOT", key)
                for start, end, (_host, port, *_rest), *_replicas in client.execute_command("CLUSTER", "SLOTS"):
                    if start <= slot <= end:
                        return next(server for server in self.nodes if server.port == port)
        raise RuntimeError("no live node")

    def alive(self) -> list[RedisServer]:
        return [node for node in self.nodes if node.process is not None and node.process.poll() is None]

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def _synced(node: RedisServer) -> bool:
    """A replica whose first full sync is done (a master counts as synced)."""
    with redis.Redis(port=node.port, decode_responses=True) as client:
        info = client.info("replication")
    return info["role"] == "master" or info.get("master_link_status") == "up"


def _until(deadline: float, condition, what: str) -> None:
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.05)
