"""The game index: list and filter by game, status, player and creation time, with paging."""
from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
from datetime import UTC, datetime

import pytest
import redis

from domain import registry
from domain.core import SERVER
from domain.core.match import create
from service.store import EventStore, index, seats
from tests.core.high_card import RULES, HighCard
from tests.store.conftest import new_game, play

pytestmark = pytest.mark.cluster


class HighCardAgain(HighCard):
    """A second game name, to tell games apart in the index."""

    name = "high-card-again"


registry.register(HighCardAgain())


def ids(listing):
    metas, _total = listing
    return [meta["game_id"] for meta in metas]


def test_games_are_listed_newest_first_with_their_meta(store):
    for n in range(3):
        new_game(store, f"g{n}", players=("Ann", f"Player {n}"))
    metas, total = store.list_games()
    assert total == 3 and [meta["game_id"] for meta in metas] == ["g2", "g1", "g0"]
    assert metas[0] == store.meta("g2")
    assert metas[0]["players"] == ["Ann", "Player 2"] and metas[0]["game"] == "high-card"
    assert metas[0]["status"] == "active" and metas[0]["chance_mode"] == SERVER and metas[0]["version"] == 3


def test_filters_by_game_status_and_player_name_in_any_case(store, redis_client):
    first = new_game(store, "g1", players=("Ann", "Bo"))
    new_game(store, "g2", players=("ann", "Cy"))
    new_game(store, "g3", players=("Dee", "Bo"))
    _match, events = create(registry.get_rules("high-card-again"), {}, ["Bo", "Eve"], SERVER, "s")
    store.create("g4", events, seed="s", tokens={}, players=["Bo", "Eve"])
    play(store, "g1", first)
    assert ids(store.list_games(game="high-card-again")) == ["g4"]
    assert ids(store.list_games(game="high-card", player="BO")) == ["g3", "g1"]
    assert ids(store.list_games(status="ended")) == ["g1"]
    assert ids(store.list_games(status="active")) == ["g4", "g3", "g2"]
    assert ids(store.list_games(player="ANN")) == ["g2", "g1"]
    assert ids(store.list_games(player="bo", status="active")) == ["g4", "g3"]
    assert ids(store.list_games(game="high-card", player="cy")) == ["g2"]
    assert store.list_games(game="borealis") == ([], 0)
    store.append("g1", first.version, [{"type": "game_scored", "seat": None, "data": {"score_sheet": {}}}],
                 command=None, command_id="score", idempotency_key=None)
    assert ids(store.list_games(status="ended")) == ["g1"], "a scored game is over: it is listed as ended too"
    assert ids(store.list_games(status="scored")) == ["g1"]
    assert ids(store.list_games(status="ended", player="ann")) == ["g1"]
    assert ids(store.list_games(status="active", player="ann")) == ["g2"]


def test_filters_by_creation_time(store):
    new_game(store, "old")
    time.sleep(0.02)
    middle = datetime.now(UTC)
    time.sleep(0.02)
    new_game(store, "new")
    assert ids(store.list_games(created_after=middle)) == ["new"]
    assert ids(store.list_games(created_before=middle.isoformat())) == ["old"]
    created = store.meta("old")["created_at"]
    assert ids(store.list_games(created_after=created)) == ["new"]


def test_pages_cover_every_game_once(redis_client):
    store = EventStore(redis_client, snapshot_every=0)
    for n in range(12):
        _match, events = create(RULES, {}, ["Ann", "Bo"], SERVER, "s")
        store.create(f"g{n:02}", events, seed="s", tokens={}, players=["Ann", "Bo"])
    pages = [store.list_games(player="ann", offset=offset, limit=5) for offset in (0, 5, 10)]
    assert [total for _metas, total in pages] == [12, 12, 12]
    assert [len(metas) for metas, _total in pages] == [5, 5, 2]
    listed = [game for page in pages for game in ids(page)]
    assert sorted(listed) == [f"g{n:02}" for n in range(12)]


def brute_force(metas: list[dict], *, game=None, status=None, player=None, after=None, before=None) -> list[str]:
    """What a listing must answer, worked out from the metas alone (newest first, ties by id descending)."""
    chosen = [meta for meta in metas
              if (game is None or meta["game"] == game)
              and (status is None or meta["status"] in {status} | ({"scored"} if status == "ended" else set()))
              and (player is None or player.lower() in {name.lower() for name in meta["players"]})
              and (after is None or index.epoch(meta["created_at"]) > after)
              and (before is None or index.epoch(meta["created_at"]) < before)]
    return [meta["game_id"] for meta in sorted(chosen, key=lambda meta: (index.epoch(meta["created_at"]),
                                                                         meta["game_id"]), reverse=True)]


def test_every_combination_of_filters_pages_like_the_filtered_list_of_all_games(redis_client):
    store = EventStore(redis_client, snapshot_every=0)
    names = ["Ann", "bo", "Cy", "Dee"]
    for n in range(24):
        rules = registry.get_rules("high-card-again" if n % 3 == 0 else "high-card")
        players = [names[n % 4], names[(n + 1 + n // 4) % 4]]
        match, events = create(rules, {}, players, SERVER, "s")
        store.create(f"g{n:02}", events, seed="s", tokens={}, players=players)
        if n % 4 == 1:
            play(store, f"g{n:02}", match)
        if n % 8 == 1:
            store.append(f"g{n:02}", match.version, [{"type": "game_scored", "seat": None,
                                                      "data": {"score_sheet": {}}}],
                         command=None, command_id=f"score-{n}", idempotency_key=None)
    metas = [store.meta(f"g{n:02}") for n in range(24)]
    moments = sorted(index.epoch(meta["created_at"]) for meta in metas)
    after, before = moments[3], moments[20]
    for game, status, player, bounds in itertools.product(
        (None, "high-card", "high-card-again"), (None, "active", "ended", "scored"), (None, "ANN", "bo"),
        ((None, None), (after, None), (None, before), (after, before)),
    ):
        expected = brute_force(metas, game=game, status=status, player=player, after=bounds[0], before=bounds[1])
        for offset, limit in ((0, 50), (0, 2), (1, 3), (5, 2), (len(expected), 4)):
            page, total = store.list_games(game=game, status=status, player=player, created_after=bounds[0],
                                           created_before=bounds[1], offset=offset, limit=limit)
            assert total == len(expected)
            assert [meta["game_id"] for meta in page] == expected[offset:offset + limit], (game, status, player)
    assert "cmdstat_zinterstore" not in redis_client.info("commandstats")


def test_a_crash_between_a_games_write_and_its_index_write_is_repaired_by_the_sweep(store, redis_client,
                                                                                     monkeypatch):
    first = new_game(store, "g1")
    monkeypatch.setattr(index, "add", lambda *args, **kwargs: None)
    monkeypatch.setattr(index, "set_status", lambda *args, **kwargs: None)
    new_game(store, "g2", players=("Eve", "Fay"))
    play(store, "g1", first)
    assert ids(store.list_games()) == ["g1"] and ids(store.list_games(status="ended")) == []
    assert index.repair_pending(redis_client) == [], "a game still being written was taken for a lost one"
    assert sorted(index.repair_pending(redis_client, grace=0)) == ["g1", "g2"]
    assert ids(store.list_games()) == ["g2", "g1"]
    assert ids(store.list_games(status="ended")) == ["g1"] and ids(store.list_games(status="active")) == ["g2"]
    assert ids(store.list_games(player="fay", status="active")) == ["g2"]
    assert redis_client.zcard(index.PENDING) == 0


def test_an_index_that_cannot_be_written_after_an_accepted_move_fails_nothing(store, redis_client, monkeypatch):
    match = new_game(store, "g1")

    def down(*args, **kwargs):
        raise redis.ConnectionError("the index is unreachable")

    monkeypatch.setattr(index, "set_status", down)
    play(store, "g1", match)
    assert store.meta("g1")["status"] == "ended" and ids(store.list_games(status="ended")) == []
    assert index.repair_pending(redis_client, grace=0) == ["g1"]
    assert ids(store.list_games(status="ended")) == ["g1"]


def test_reindex_rebuilds_the_index_from_the_games_and_drops_the_earlier_layout(store, redis_client, locations):
    first = new_game(store, "g1")
    new_game(store, "g2", players=("Eve", "Fay"))
    play(store, "g1", first)
    expected = {name: ids(store.list_games(**filters)) for name, filters in
                {"all": {}, "ended": {"status": "ended"}, "fay": {"player": "FAY"}}.items()}
    for key in redis_client.scan_iter(match="cairn:{index}:*"):
        redis_client.delete(key)
    redis_client.zadd("cairn:index:player:ann", {"g1": 1.0})
    finished = subprocess.run([sys.executable, "-m", "service.cli", "reindex"], capture_output=True, text=True,
                              env={**os.environ, **{f"CAIRN_{key}" if key == "QUEUE_URL" else key: value
                                                    for key, value in locations.items()}}, timeout=60)
    assert finished.returncode == 0, finished.stderr
    assert "indexed 2 games; removed 1 keys" in finished.stdout
    assert {name: ids(store.list_games(**filters)) for name, filters in
            {"all": {}, "ended": {"status": "ended"}, "fay": {"player": "FAY"}}.items()} == expected
    assert not redis_client.exists("cairn:index:player:ann")


def test_player_names_cannot_forge_another_combinations_key(store):
    new_game(store, "g1", players=("a&status=ended", "Bo"))
    new_game(store, "g2", players=("A", "Bo"))
    assert ids(store.list_games(player="a&status=ended")) == ["g1"]
    assert ids(store.list_games(player="a", status="ended")) == []


def test_reindex_lists_the_games_with_an_open_seat_again(store, redis_client):
    _match, events = create(RULES, {}, ["Ann", "open"], SERVER, "open-seat", ["p2"])
    store.create("open-one", events, seed="open-seat", tokens={"p1": "t1", "organiser": "t0"}, players=["Ann", "open"],
                 open_seats=["p2"])
    new_game(store, "full-one")
    assert ids(store.list_games(open_seats=True)) == ["open-one"]
    for key in seats.open_keys(RULES.name):
        redis_client.delete(key)
    assert ids(store.list_games(open_seats=True)) == []
    index.rebuild(redis_client)
    assert ids(store.list_games(open_seats=True)) == ids(store.list_games(open_seats=True, game=RULES.name)) \
        == ["open-one"]
