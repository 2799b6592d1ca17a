"""The service's client decodes replies to str (``decode_responses=True``); the workers' does not. Both work."""
from __future__ import annotations

import redis

from domain.core.match import match_to_json
from service.store import EventStore
from tests.store.conftest import SNAPSHOT_KEY, new_game, play, tokens_for


def test_a_decoding_client_sees_the_same_games(redis_server, redis_client):
    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    store = EventStore(client, snapshot_every=4, snapshot_key=SNAPSHOT_KEY)
    match = new_game(store, "g1")
    play(store, "g1", match, commands=2)
    assert match_to_json(store.load("g1")) == match_to_json(match)
    assert store.read("g1") == EventStore(redis_client).read("g1")
    assert store.verify_chain("g1").ok
    assert store.reader_for_token("g1", tokens_for("g1", match.seats)["p1"]) == "p1"
    assert store.list_games(player="ann")[0] == [store.meta("g1")]
    assert store.wait_for_events("g1", match.version - 1, 10)[0]["version"] == match.version
    play(store, "g1", match)
    assert store.meta("g1")["status"] == "ended"
    client.close()
