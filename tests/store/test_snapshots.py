"""Snapshots: loads read the snapshot plus later events, and a bad snapshot is never believed."""
from __future__ import annotations

import json
import logging

import pytest

from domain.core.canonical import canonical_json
from domain.core.match import match_to_json, replay
from domain.registry import get_rules
from service.store import EventStore, VersionOutOfRange
from tests.store.conftest import new_game, play

SNAPSHOT = "cairn:{g1}:snapshot"


def test_loads_keep_a_snapshot_within_n_events_and_then_read_only_the_events_after_it(store, redis_client):
    match = new_game(store, "g1", players=("Ann", "Bo", "Cy"))
    play(store, "g1", match)
    snapshot = json.loads(redis_client.get(SNAPSHOT))["match"]["version"]
    assert 1 < snapshot < match.version and match.version - snapshot < 2 * 4
    calls = []
    counting = EventStore(CountingClient(redis_client, calls), snapshot_every=4)
    assert match_to_json(counting.load("g1")) == match_to_json(match)
    ranges = [args for name, args in calls if name == "xrange"]
    assert ranges == [("cairn:{g1}:events", f"{snapshot}-0", "+")]


class CountingClient:
    """Records which Redis commands a load sends, to show it reads only from the snapshot on."""

    def __init__(self, client, calls):
        self._client, self._calls = client, calls

    def __getattr__(self, name):
        method = getattr(self._client, name)

        def call(*args, **kwargs):
            self._calls.append((name, args))
            return method(*args, **kwargs)

        return call


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda snapshot: snapshot["match"]["state"]["hands"].update(p1="card-forged"),
        lambda snapshot: snapshot.update(checksum="0" * 64),
        lambda snapshot: snapshot.update(head_hash="f" * 64),
    ],
    ids=["edited-state", "edited-checksum", "wrong-head"],
)
def test_a_corrupted_snapshot_is_detected_and_the_load_rebuilds_from_events(store, redis_client, caplog, corrupt):
    match = new_game(store, "g1", players=("Ann", "Bo", "Cy"))
    play(store, "g1", match)
    snapshot = json.loads(redis_client.get(SNAPSHOT))
    corrupt(snapshot)
    redis_client.set(SNAPSHOT, canonical_json(snapshot))
    with caplog.at_level(logging.WARNING, logger="cairn.store"):
        assert match_to_json(store.load("g1")) == match_to_json(match)
    assert "snapshot of game g1" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="cairn.store"):
        store.load("g1")
    assert caplog.text == "", "the rebuilt load replaced the bad snapshot"


def test_unparsable_snapshot_is_rebuilt_from_events(store, redis_client):
    match = new_game(store, "g1")
    play(store, "g1", match)
    redis_client.set(SNAPSHOT, b'{"match": {"ver')
    assert match_to_json(store.load("g1")) == match_to_json(match)


def test_load_at_a_past_version_equals_the_replay_of_that_many_events(store):
    match = new_game(store, "g1", players=("Ann", "Bo", "Cy"))
    play(store, "g1", match)
    stored = store.read("g1")
    for version in range(1, match.version + 1):
        expected = match_to_json(replay(stored[:version], get_rules))
        assert match_to_json(store.load("g1", at=version)) == expected, version
    for version in (0, match.version + 1):
        with pytest.raises(VersionOutOfRange):
            store.load("g1", at=version)


def test_without_snapshots_loads_fold_every_event(redis_client):
    store = EventStore(redis_client, snapshot_every=0)
    match = new_game(store, "g1")
    play(store, "g1", match)
    assert redis_client.get(SNAPSHOT) is None
    assert match_to_json(store.load("g1")) == match_to_json(match)
