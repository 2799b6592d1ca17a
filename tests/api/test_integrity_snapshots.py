"""Whatever a game's snapshot key holds, reads through the API answer the right state and leave a good snapshot;
``/integrity`` names what was wrong with it."""
from __future__ import annotations

import pytest
import redis

from service.store import EventStore, snapshot_key, snapshots
from service.store.keys import game_keys
from tests.api.conftest import Api, serve
from tests.api.test_integrity import play
from tests.store.bad_snapshots import BAD_FORMS, SIGNED_WRONG_STATE, BadForm

MID = 20


@pytest.fixture
def game(api_config, redis_server):
    """A Borealis game 30 moves in, played on one server, with a good snapshot; what its reads answer; and the
    game id, the organiser's token, the snapshot key and a client that reads the snapshot's bytes."""
    api_config["SNAPSHOT_EVERY"] = 5
    for base in serve(api_config):
        api = Api(base)
        created = api.create("borealis", 2, seed="snapshots-through-the-api")
        game_id, organiser = created["game_id"], created["organiser_token"]
        version = play([api], game_id, organiser, commands=30)
        key = snapshot_key.resolve(None, api_config["DATA_DIR"])
        client = redis.Redis.from_url(redis_server.url)
        EventStore(client, snapshot_every=5, snapshot_key=key).load(game_id)
        expected = {path: api.get(path, organiser).json() for path in reads(game_id)}
    yield {"game_id": game_id, "organiser": organiser, "key": key, "client": client, "version": version,
           "expected": expected, "config": api_config}
    client.close()


def reads(game_id: str) -> list[str]:
    return [f"/games/{game_id}/state?at={MID}", f"/games/{game_id}", f"/games/{game_id}/events?limit=500"]


def spoil(game: dict, bad_form: BadForm) -> None:
    snapshot = game_keys(game["game_id"]).snapshot
    game["client"].set(snapshot, bad_form.make(game["client"].get(snapshot), game["game_id"], game["key"]))


def integrity(api: Api, game: dict) -> dict:
    return api.get(f"/games/{game['game_id']}/integrity").json()


@pytest.mark.parametrize("bad_form", BAD_FORMS.values(), ids=BAD_FORMS.keys())
def test_reads_answer_the_right_state_and_rewrite_a_bad_snapshot(game, bad_form):
    spoil(game, bad_form)
    for base in serve(game["config"]):  # a process that has not seen the game: its reads go to the store
        api = Api(base)
        found = integrity(api, game)
        assert found["ok"] is True and found["first_bad_version"] is None
        assert found["snapshot"]["finding"] == bad_form.finding and found["snapshot"]["ok"] is False
        for path, expected in game["expected"].items():
            response = api.get(path, game["organiser"])
            assert response.status_code == 200, (path, response.text)
            assert response.json() == expected, path
        rewritten = snapshots.decode(game["key"], game["game_id"],
                                     game["client"].get(game_keys(game["game_id"]).snapshot))
        assert rewritten.version == game["version"]
        assert integrity(api, game)["snapshot"] == {"version": game["version"], "ok": True, "finding": None}


def test_a_forged_snapshot_signed_with_the_key_is_found_by_the_integrity_check(game):
    spoil(game, SIGNED_WRONG_STATE)
    for base in serve(game["config"]):
        found = integrity(Api(base), game)
        assert found["ok"] is True
        assert found["snapshot"]["finding"] == "wrong_state" and found["snapshot"]["ok"] is False


def test_a_game_played_through_one_server_keeps_its_snapshot_near_the_head_and_at_the_end(api_config):
    """The server folds its moves in place and loads nothing, yet a scoring job, an export or another server
    finds a snapshot within reach of the head, and one at the very end for the scoring."""
    api_config["SNAPSHOT_EVERY"] = 5
    for base in serve(api_config):
        api = Api(base)
        created = api.create("borealis", 2, seed="snapshots-kept-by-the-mover")
        game_id, organiser = created["game_id"], created["organiser_token"]
        version = play([api], game_id, organiser, commands=12)
        kept = api.get(f"/games/{game_id}/integrity").json()["snapshot"]
        assert kept["ok"] is True and version - 2 * 5 < kept["version"] <= version
        ended = play([api], game_id, organiser)
        assert api.get(f"/games/{game_id}").json()["status"] in {"ended", "scored"}
        assert api.get(f"/games/{game_id}/integrity").json()["snapshot"] == {"version": ended, "ok": True,
                                                                           "finding": None}
