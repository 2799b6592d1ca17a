"""Two API processes on one Redis, as gunicorn runs them: each keeps its own cache of folded games."""
from __future__ import annotations

from tests.api.conftest import Api, serve


def play_one(api: Api, game_id: str, tokens: dict[str, str]) -> dict:
    view = api.get(f"/games/{game_id}").json()
    seat = view["waiting_for"][0]
    move = api.get(f"/games/{game_id}/legal-moves", tokens[seat]).json()["moves"][0]
    moved = api.post(f"/games/{game_id}/moves", tokens[seat], json={**move, "expected_version": view["version"]})
    assert moved.status_code == 201, moved.text
    return moved.json()


def test_moves_alternating_between_processes_build_one_history(api_config):
    """Each process must fold in the moves the other one appended, or it would refuse or fork the game."""
    first_server, second_server = serve(api_config), serve(api_config)
    first, second = Api(next(first_server)), Api(next(second_server))
    created = first.create("borealis", 3, seed="two-processes")
    game_id = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    for turn in range(40):
        play_one(first if turn % 3 else second, game_id, tokens)
    for api in (first, second):
        assert api.get(f"/games/{game_id}/integrity").json()["ok"] is True
    organiser = created["organiser_token"]
    assert first.get(f"/games/{game_id}", organiser).json() == second.get(f"/games/{game_id}", organiser).json()
    for server in (first_server, second_server):
        server.close()
