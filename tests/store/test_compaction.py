"""Compaction of scored games: one compressed value in the game's slot, read back as the live game was.

Every test runs on one Redis and on a Redis Cluster, where a game's value, stream and meta share its slot
and the list of games due for compaction lives in the index's.
"""
from __future__ import annotations

import dataclasses
import time

import pytest
import redis

from domain.core.match import match_to_json
from service.store import EventStore, compaction, index
from service.store.connection import connect_cluster
from service.store.keys import game_keys
from tests.store.conftest import SNAPSHOT_KEY
from tests.workers.records import play, record
from workers.maintenance import compact_due_games

pytestmark = pytest.mark.cluster


def scored_game(store: EventStore, game_id: str = "g1", choice: int = 0) -> None:
    record(store, game_id, play(players=("Ann", "Bo", "Cy"), choice=choice))


def everything(store: EventStore, game_id: str) -> dict:
    """Every read the store offers of a game, as a reader of the API would get it."""
    version = store.version(game_id)
    return {
        "meta": store.meta(game_id),
        "events": store.read(game_id),
        "pages": [store.read(game_id, start, limit=3) for start in range(1, version + 2, 3)],
        "bounded": store.read(game_id, 2, version - 1),
        "states": [match_to_json(store.load(game_id, at=at)) for at in range(1, version + 1)],
        "current": match_to_json(store.load(game_id)),
        "integrity": store.verify_chain(game_id),
        "export": [event for page in store.iter_pages(game_id, page_size=4) for event in page],
        "after_last": store.wait_for_events(game_id, version, 10),
        "followed": store.wait_for_events(game_id, version - 2, 10),
    }


def memory(client, game_id: str) -> int:
    keys = game_keys(game_id)
    names = [keys.events, keys.meta, keys.idem, keys.snapshot, keys.private, keys.compacted]
    return sum(client.memory_usage(key) or 0 for key in names)


def test_a_compacted_game_reads_exactly_as_it_did_live_and_takes_less_memory(store, redis_client):
    scored_game(store)
    live = everything(store, "g1")
    live_bytes = memory(redis_client, "g1")
    assert redis_client.exists(game_keys("g1").snapshot)
    assert compaction.compact(redis_client, "g1") == "compacted"
    keys = game_keys("g1")
    assert not redis_client.exists(keys.events) and not redis_client.exists(keys.snapshot)
    compacted = everything(store, "g1")
    assert live["integrity"].ok and live["integrity"].snapshot is not None
    assert compacted.pop("integrity") == dataclasses.replace(live.pop("integrity"), snapshot=None)
    assert compacted == live
    assert not redis_client.exists(keys.snapshot), "a load of a compacted game saved a snapshot"
    assert memory(redis_client, "g1") < live_bytes / 2
    assert compaction.compact(redis_client, "g1") == "already"


def test_the_compacted_value_holds_the_stored_payloads_byte_for_byte(store, redis_client):
    scored_game(store)
    stored = [fields[b"e"].decode() for _id, fields in redis_client.xrange(game_keys("g1").events)]
    compaction.compact(redis_client, "g1")
    assert compaction.read(redis_client, "g1").payloads == stored


def test_a_store_without_snapshot_key_and_a_text_client_read_compacted_games_too(store, backend, request,
                                                                                 redis_server):
    scored_game(store)
    live = store.read("g1")
    if backend == "cluster":
        text_client = connect_cluster(request.getfixturevalue("redis_cluster").url, decode_responses=True)
    else:
        text_client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    compaction.compact(text_client, "g1")
    assert EventStore(text_client, snapshot_every=0).read("g1") == live
    text_client.close()


def test_only_scored_games_are_compacted(store, redis_client):
    record(store, "ended", play(scored=False))
    assert compaction.compact(redis_client, "ended") == "not_scored"
    assert compaction.compact(redis_client, "nothing") == "missing"
    assert redis_client.exists(game_keys("ended").events)


def test_a_game_whose_chain_is_broken_stays_live_and_its_integrity_still_says_so(store, redis_client):
    scored_game(store)
    events = game_keys("g1").events
    entries = redis_client.xrange(events)
    redis_client.delete(events)
    for entry_id, fields in entries:
        edited = fields[b"e"].replace(b'"command_id":"', b'"command_id":"x') if entry_id == b"3-0" else fields[b"e"]
        redis_client.xadd(events, {"e": edited}, id=entry_id)
    assert compaction.compact(redis_client, "g1") == "chain_broken"
    assert redis_client.exists(events) and store.verify_chain("g1").first_bad_version == 3


def test_a_game_that_moved_on_since_it_was_read_is_not_compacted(store, redis_client, monkeypatch):
    scored_game(store)
    read = compaction._stream_payloads

    def then_append(client, game_id):
        payloads = read(client, game_id)
        redis_client.hset(game_keys(game_id).meta, "version", "999")
        return payloads

    monkeypatch.setattr(compaction, "_stream_payloads", then_append)
    assert compaction.compact(redis_client, "g1") == "changed"
    assert redis_client.exists(game_keys("g1").events) and not redis_client.exists(game_keys("g1").compacted)


def test_a_crash_that_left_both_forms_reads_the_same_and_compaction_finishes(store, redis_client):
    scored_game(store)
    live = store.read("g1")
    keys = game_keys("g1")
    payloads = [fields[b"e"].decode() for _id, fields in redis_client.xrange(keys.events)]
    redis_client.set(keys.compacted, compaction.encode(payloads, live[-1]["hash"]))
    assert store.read("g1") == live and store.verify_chain("g1").ok
    assert compaction.compact(redis_client, "g1") == "compacted"
    assert store.read("g1") == live and store.verify_chain("g1").ok


def test_due_games_are_compacted_once_old_enough(store, redis_client):
    scored_game(store, "old")
    scored_game(store, "new", choice=1)
    record(store, "ended", play(scored=False))
    assert set(redis_client.zrange(index.COMPACTION_DUE, 0, -1)) == {b"old", b"new"}
    redis_client.zadd(index.COMPACTION_DUE, {"old": time.time() - 100})
    assert compaction.compact_due(redis_client, older_than=50) == {"old": "compacted"}
    assert redis_client.zrange(index.COMPACTION_DUE, 0, -1) == [b"new"]
    assert compaction.compact_due(redis_client, older_than=50) == {}
    assert compaction.compact_due(redis_client, older_than=0) == {"new": "compacted"}
    assert redis_client.exists(game_keys("ended").events)


def test_an_unreadable_compacted_value_is_not_taken_for_events(redis_client):
    store = EventStore(redis_client, snapshot_key=SNAPSHOT_KEY)
    scored_game(store)
    compaction.compact(redis_client, "g1")
    redis_client.set(game_keys("g1").compacted, b"cairn-compacted-1 3 " + b"0" * 64 + b"\nnot zlib")
    assert store.read("g1") == []
    assert not store.verify_chain("g1").ok


def test_the_maintenance_pass_compacts_every_due_game_and_leaves_the_rest(store, redis_client):
    """Games spread over the masters of a cluster; the due list and each game's own step stay in their slots."""
    names = [f"game-{number}" for number in range(6)]
    for number, game_id in enumerate(names):
        scored_game(store, game_id, choice=number)
    record(store, "ended", play(scored=False))
    live = {game_id: store.read(game_id) for game_id in names}
    counts = compact_due_games(redis_client, older_than=0, budget=60)
    assert counts == {"compacted": len(names)}
    for game_id in names:
        assert not redis_client.exists(game_keys(game_id).events)
        assert store.read(game_id) == live[game_id] and store.verify_chain(game_id).ok
    assert redis_client.zcard(index.COMPACTION_DUE) == 0
    assert redis_client.exists(game_keys("ended").events)
    assert compact_due_games(redis_client, older_than=0, budget=60) == {}
