"""The game index: list and filter by game, status, player and creation time, with paging."""
from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from domain import registry
from domain.core import SERVER
from domain.core.match import create
from service.store import EventStore
from service.store.keys import INDEX_PREFIX
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
    assert ids(store.list_games(status="ended")) == []
    assert ids(store.list_games(status="scored")) == ["g1"]
    assert not list(redis_client.scan_iter(match=f"{INDEX_PREFIX}scratch:*"))


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
