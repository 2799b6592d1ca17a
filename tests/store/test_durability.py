"""Durability: with ``appendfsync always`` a kill -9 of Redis loses no acknowledged append.

With ``everysec`` (the default) a crash of the machine can lose up to about one
second of acknowledged appends; see :mod:`service.store.durability`.
"""
from __future__ import annotations

import logging

import pytest
import redis

from service.redis_server import RedisServer
from service.store import EventStore, configure_durability
from tests.store.conftest import SNAPSHOT_KEY, new_game, play


def test_two_hundred_appends_survive_kill_9_with_appendfsync_always(tmp_path):
    server = RedisServer(tmp_path, appendfsync="always").start()
    client = redis.Redis.from_url(server.url)
    assert configure_durability(client, "always") == {"appendonly": "yes", "appendfsync": "always"}
    store = EventStore(client, snapshot_every=5, snapshot_key=SNAPSHOT_KEY)
    appended, versions = 0, {}
    while appended < 200:
        game_id = f"g{len(versions)}"
        match = new_game(store, game_id, players=("Ann", "Bo", "Cy"))
        appended += play(store, game_id, match, commands=200 - appended)
        versions[game_id] = match.version
    server.kill()
    server = RedisServer(tmp_path, port=server.port, appendfsync="always").start()
    try:
        store = EventStore(redis.Redis.from_url(server.url), snapshot_every=5, snapshot_key=SNAPSHOT_KEY)
        for game_id, version in versions.items():
            assert store.version(game_id) == version
            assert store.verify_chain(game_id).ok
            assert store.load(game_id).version == version
        commands = [envelope for game_id in versions for envelope in store.read(game_id) if "command" in envelope]
        assert len(commands) == 200
        assert store.list_games(limit=1)[1] == len(versions)
    finally:
        server.stop()


def test_configure_durability_sets_aof_and_the_fsync_policy(redis_server, redis_client):
    try:
        assert configure_durability(redis_client, "always")["appendfsync"] == "always"
        assert configure_durability(redis_client) == {"appendonly": "yes", "appendfsync": "everysec"}
    finally:
        redis_client.config_set("appendfsync", redis_server.appendfsync)
    with pytest.raises(ValueError):
        configure_durability(redis_client, "no")


class LockedConfig(redis.Redis):
    """A managed Redis that refuses CONFIG SET and runs without AOF."""

    def config_set(self, *args, **kwargs):
        raise redis.ResponseError("unknown command 'CONFIG SET'")

    def config_get(self, *args, **kwargs):
        return {"appendonly": "no", "appendfsync": "everysec"}


def test_where_config_is_locked_the_settings_are_checked_and_a_risk_is_logged(redis_server, caplog):
    with caplog.at_level(logging.WARNING, logger="cairn.store"):
        effective = configure_durability(LockedConfig.from_url(redis_server.url), "everysec")
    assert effective == {"appendonly": "no", "appendfsync": "everysec"}
    assert "appendonly=no" in caplog.text
