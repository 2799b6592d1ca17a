"""The ``replicated`` durability: a write is acknowledged only once a replica has it, so losing the master
to a crash, a power cut or its machine loses no acknowledged append.

``WAIT n timeout`` waits for the writes of the connection it is sent on, so
the script and its ``WAIT`` go down one connection to the master of the
game's slot, in one pipeline: one round trip. On a cluster that connection
is the slot's node's own; a ``MOVED`` (the slot has moved, the script did not
run) makes the client learn the layout again and the script go to the new
master. A lost node makes it learn the layout before the outage is raised,
so the next request reaches the replica once it is promoted.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis
from redis.commands.core import Script
from redis.exceptions import MovedError, NoScriptError
from redis.typing import EncodableT

from service.store.connection import OUTAGE_ERRORS, LazyCluster, StoreClient


@dataclass(frozen=True)
class Replication:
    """How many replicas must confirm a write, and how long to wait for them (ms, shorter than a read)."""

    replicas: int
    wait_ms: int


def run(client: StoreClient, script: Script, keys: list[str], args: list[EncodableT], replication: Replication
        ) -> tuple[list[Any], int]:
    """The script's reply, and how many replicas confirmed it within ``replication.wait_ms``."""
    for _attempt in range(3):
        node = _master_client(client, keys[0])
        pipe = node.pipeline(transaction=False)
        pipe.evalsha(script.sha, len(keys), *keys, *args)
        pipe.wait(replication.replicas, replication.wait_ms)
        try:
            reply, confirmed = pipe.execute(raise_on_error=False)
        except OUTAGE_ERRORS:
            _relearn(client)
            raise
        if isinstance(reply, NoScriptError):
            node.script_load(script.script)
            continue
        if isinstance(reply, MovedError):
            _relearn(client)
            continue
        for answer in (reply, confirmed):
            if isinstance(answer, Exception):
                raise answer
        return reply, int(confirmed)
    raise redis.exceptions.ConnectionError(f"the master of {keys[0]!r} kept changing")


def _master_client(client: StoreClient, key: str) -> redis.Redis:
    """A client of the one server that holds ``key``'s slot as its master."""
    if isinstance(client, LazyCluster):
        node: redis.Redis = client.get_redis_connection(client.get_node_from_key(key))
        return node
    return client


def _relearn(client: StoreClient) -> None:
    if isinstance(client, LazyCluster):
        client.nodes_manager.initialize()
