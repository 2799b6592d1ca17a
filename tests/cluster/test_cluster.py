"""Cairn on a real Redis Cluster: games spread over every master, each still played, listed and checked whole."""
from __future__ import annotations

from collections import Counter

from service.store.keys import game_keys


def test_games_land_on_every_master_and_each_is_played_listed_and_intact(backend_cluster_api):
    api, cluster = backend_cluster_api
    by_master: dict[int, list[dict]] = {}
    created = 0
    while len(by_master) < cluster.masters:
        game = api.create("high-card", 2)
        created += 1
        by_master.setdefault(cluster.master_of(game_keys(game["game_id"]).meta).port, []).append(game)
        assert created < 500, f"{created} games all landed on {len(by_master)} masters"
    assert Counter({port: len(games) for port, games in by_master.items()}).total() == created
    for games in by_master.values():
        game = games[0]
        seat = game["seats"][0]
        answer = api.post(f"/games/{game['game_id']}/moves", seat["token"],
                          json={"type": "keep", "expected_version": game["version"]})
        assert answer.status_code == 201, answer.text
        events = api.get(f"/games/{game['game_id']}/events").json()["events"]
        assert [event["version"] for event in events] == list(range(1, game["version"] + 2))
        assert api.get(f"/games/{game['game_id']}/integrity").json()["ok"]
    listing = api.get("/games", params={"game": "high-card", "limit": 500}).json()
    assert listing["total"] == created
