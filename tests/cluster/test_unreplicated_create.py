"""A game whose creation no replica confirms (``replicated`` durability) is undone: never half-created.

The replicas of the test's own cluster are frozen with SIGSTOP, so ``WAIT`` finds none in time: the
creation's answer is a 503 ``not_replicated`` and nothing of the game is left, neither its keys nor an
index entry; once the replicas are back, the client's retry of the creation makes exactly one game.
"""
from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import requests
from cairn_client import Client, RetryPolicy

from domain.core import SERVER
from domain.core.match import create
from service.store import EventStore, NotReplicated, Replication, index
from service.store.connection import connect_cluster
from service.store.keys import game_keys
from tests.api.conftest import FAST, serve
from tests.core.high_card import RULES


@contextmanager
def frozen_replicas(cluster) -> Iterator[threading.Event]:
    """Every replica stopped until the block ends, or until the event it yields is set."""
    replicas = cluster.nodes[cluster.masters:]
    thawed = threading.Event()
    for replica in replicas:
        os.kill(replica.process.pid, signal.SIGSTOP)

    def thaw() -> None:
        thawed.wait()
        for replica in replicas:
            os.kill(replica.process.pid, signal.SIGCONT)

    thawer = threading.Thread(target=thaw)
    thawer.start()
    try:
        yield thawed
    finally:
        thawed.set()
        thawer.join()


def stored_games(client) -> list[str]:
    return sorted(index.game_ids(client))


@pytest.fixture
def cluster_client(own_cluster):
    client = connect_cluster(own_cluster.url, read_timeout=5.0, connect_timeout=5.0)
    yield client
    client.close()


def test_a_creation_no_replica_confirms_is_undone_and_leaves_nothing(own_cluster, cluster_client):
    store = EventStore(cluster_client, replication=Replication(replicas=1, wait_ms=200))
    match, events = create(RULES, {}, ["Ann", "Bo"], SERVER, "seed")
    tokens = {reader: f"{reader}-token" for reader in (*match.seats, "organiser")}
    with frozen_replicas(own_cluster), pytest.raises(NotReplicated):
        store.create("g1", events, seed="seed", tokens=tokens, players=["Ann", "Bo"])
    keys = game_keys("g1")
    assert not cluster_client.exists(keys.events, keys.meta, keys.private)
    assert store.list_games() == ([], 0)
    assert cluster_client.zcard(index.PENDING) == 0, "the index's journal still notes the game"
    created = store.create("g1", events, seed="seed", tokens=tokens, players=["Ann", "Bo"])
    assert created.last_version == len(events) and store.version("g1") == len(events)
    assert [meta["game_id"] for meta in store.list_games()[0]] == ["g1"]


def test_a_game_posted_while_no_replica_answers_is_a_503_and_a_retry_makes_exactly_one(own_cluster, cluster_client,
                                                                                      redis_server, tmp_path):
    config = {"REDIS_CLUSTER_URL": own_cluster.url, "QUEUE_URL": redis_server.url, "APPENDFSYNC": "replicated",
              "REPLICA_WAIT_MS": 200, "DATA_DIR": str(tmp_path / "data"), **FAST}
    body = {"game": "high-card", "players": ["Ann", "Bo"]}
    for base in serve(config):
        with frozen_replicas(own_cluster):
            refused = requests.post(f"{base}/games", json=body, timeout=10)
            assert refused.status_code == 503 and refused.json()["code"] == "not_replicated"
            assert "Retry-After" in refused.headers
            assert stored_games(cluster_client) == []
            assert requests.get(f"{base}/games", timeout=10).json()["total"] == 0
        with Client(base, retry=RetryPolicy(attempts=20, total_seconds=60, first_wait=0.2, max_wait=1.0)) as cairn:
            with frozen_replicas(own_cluster) as thawed:
                statuses = cairn.transport.statuses
                threading.Timer(1.0, thawed.set).start()
                created = cairn.create_game("high-card", ["Ann", "Bo"])
            assert statuses[503] >= 1 and statuses[201] == 1
            assert stored_games(cluster_client) == [created["game_id"]]
            listed = cairn.list_games()
            assert [game["game_id"] for game in listed["games"]] == [created["game_id"]]
            move = cairn.submit_move(created["game_id"], {"type": "keep"}, token=created["seats"][0]["token"])
            assert move["version"] == created["version"] + 1
