"""Snapshots: loads read the snapshot plus later events, and no bytes in a snapshot key can break a read."""
from __future__ import annotations

import logging

import pytest
import redis

from domain.core.match import match_to_json, replay
from domain.registry import get_rules
from service.store import EventStore, VersionOutOfRange, snapshots
from service.store.connection import connect_cluster
from tests.store.bad_snapshots import BAD_FORMS, SIGNED_WRONG_STATE
from tests.store.conftest import SNAPSHOT_KEY, new_game, play

pytestmark = pytest.mark.cluster

SNAPSHOT = "cairn:{g1}:snapshot"


def test_loads_keep_a_snapshot_within_n_events_and_then_read_only_the_events_after_it(store, redis_client):
    match = new_game(store, "g1", players=("Ann", "Bo", "Cy"))
    play(store, "g1", match)
    snapshot = snapshots.decode(SNAPSHOT_KEY, "g1", redis_client.get(SNAPSHOT)).version
    assert 1 < snapshot < match.version and match.version - snapshot < 2 * 4
    calls = []
    counting = EventStore(CountingClient(redis_client, calls), snapshot_every=4, snapshot_key=SNAPSHOT_KEY)
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


@pytest.fixture(params=["bytes client", "text client"])
def client(request, backend, redis_server, redis_client):
    """The workers' client returns bytes; the API's decodes replies to str, which invalid UTF-8 would break."""
    if request.param == "bytes client":
        yield redis_client
        return
    if backend == "cluster":
        decoding = connect_cluster(request.getfixturevalue("redis_cluster").url, decode_responses=True)
    else:
        decoding = redis.Redis.from_url(redis_server.url, decode_responses=True)
    yield decoding
    decoding.close()


def played(client) -> tuple[EventStore, dict]:
    """A finished game whose snapshot is good, as a load leaves it."""
    store = EventStore(client, snapshot_every=4, snapshot_key=SNAPSHOT_KEY)
    match = new_game(store, "g1", players=("Ann", "Bo", "Cy"))
    play(store, "g1", match)
    store.load("g1")
    return store, match_to_json(match)


def ignored_once(caplog, load) -> dict:
    with caplog.at_level(logging.WARNING, logger="cairn.store"):
        loaded = match_to_json(load())
    assert [record.getMessage()[:27] for record in caplog.records] == ["snapshot of game g1 ignored"]
    caplog.clear()
    return loaded


def assert_rewritten_and_believed(client, redis_client, caplog, head: dict) -> None:
    rewritten = snapshots.decode(SNAPSHOT_KEY, "g1", redis_client.get(SNAPSHOT))
    assert rewritten.match == head
    store = EventStore(client, snapshot_key=SNAPSHOT_KEY)
    with caplog.at_level(logging.WARNING, logger="cairn.store"):
        assert match_to_json(store.load("g1")) == head
    assert caplog.text == "", "the rewritten snapshot is believed"
    assert store.verify_chain("g1").snapshot.ok


@pytest.mark.parametrize("bad_form", BAD_FORMS.values(), ids=BAD_FORMS.keys())
def test_a_bad_snapshot_is_ignored_logged_once_and_rewritten(client, redis_client, caplog, bad_form):
    store, head = played(client)
    redis_client.set(SNAPSHOT, bad_form.make(redis_client.get(SNAPSHOT), "g1", SNAPSHOT_KEY))
    assert ignored_once(caplog, lambda: store.load("g1")) == head
    assert_rewritten_and_believed(client, redis_client, caplog, head)


@pytest.mark.parametrize("bad_form", BAD_FORMS.values(), ids=BAD_FORMS.keys())
def test_a_past_state_is_right_whatever_the_snapshot_holds(client, redis_client, caplog, bad_form):
    """A past load uses a snapshot only up to its own version: one that fails its MAC is rewritten at once, a
    signed one for a later version is left to the next current load, which finds it out."""
    store, head = played(client)
    stored = bad_form.make(redis_client.get(SNAPSHOT), "g1", SNAPSHOT_KEY)
    redis_client.set(SNAPSHOT, stored)
    at = 6
    expected = match_to_json(replay(store.read("g1", 1, at), get_rules))
    if bad_form.signed:
        assert snapshots.decode(SNAPSHOT_KEY, "g1", stored).version > at
        with caplog.at_level(logging.WARNING, logger="cairn.store"):
            assert match_to_json(store.load("g1", at=at)) == expected
        assert caplog.text == "" and redis_client.get(SNAPSHOT) == stored
        assert ignored_once(caplog, lambda: store.load("g1")) == head
    else:
        assert ignored_once(caplog, lambda: store.load("g1", at=at)) == expected
    assert_rewritten_and_believed(client, redis_client, caplog, head)


@pytest.mark.parametrize("bad_form", [*BAD_FORMS.values(), SIGNED_WRONG_STATE],
                         ids=[*BAD_FORMS.keys(), "signed-wrong-state"])
def test_the_integrity_check_names_a_bad_snapshot_without_failing_the_chain(store, redis_client, bad_form):
    match = new_game(store, "g1", players=("Ann", "Bo", "Cy"))
    play(store, "g1", match)
    store.load("g1")
    good = store.verify_chain("g1")
    assert good.ok and good.snapshot.ok and 1 < good.snapshot.version <= match.version
    redis_client.set(SNAPSHOT, bad_form.make(redis_client.get(SNAPSHOT), "g1", SNAPSHOT_KEY))
    checked = store.verify_chain("g1")
    assert checked.ok and checked.version == match.version
    assert checked.snapshot.finding == bad_form.finding and not checked.snapshot.ok
    assert (checked.snapshot.version is None) == (not bad_form.signed)


def test_a_snapshot_past_a_broken_link_is_not_checked_against_the_forged_events(store, redis_client):
    match = new_game(store, "g1", players=("Ann", "Bo", "Cy"))
    play(store, "g1", match)
    store.load("g1")
    redis_client.xdel("cairn:{g1}:events", "3-0")
    checked = store.verify_chain("g1")
    assert checked.first_bad_version == 3
    assert checked.snapshot.finding == "chain_broken" and checked.snapshot.version > 3


def test_a_store_without_the_key_neither_believes_nor_writes_snapshots(redis_client):
    keyed = EventStore(redis_client, snapshot_every=4, snapshot_key=SNAPSHOT_KEY)
    match = new_game(keyed, "g1")
    play(keyed, "g1", match)
    keyed.load("g1")
    stored = redis_client.get(SNAPSHOT)
    keyless = EventStore(redis_client, snapshot_every=4)
    assert match_to_json(keyless.load("g1")) == match_to_json(match)
    assert redis_client.get(SNAPSHOT) == stored
    with pytest.raises(snapshots.BadSnapshot, match="bad_mac"):
        snapshots.decode(None, "g1", stored)


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
    store = EventStore(redis_client, snapshot_every=0, snapshot_key=SNAPSHOT_KEY)
    match = new_game(store, "g1")
    play(store, "g1", match)
    assert redis_client.get(SNAPSHOT) is None
    assert match_to_json(store.load("g1")) == match_to_json(match)
