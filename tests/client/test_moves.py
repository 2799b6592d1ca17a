"""The client's moves module: every move the service lists has the fields :data:`MOVE_FIELDS` gives its type,
the required ones among them, in every game."""
from __future__ import annotations

from cairn_client.moves import MOVE_FIELDS

from domain.registry import game_names, get_rules

PLAYED_MOVES = 30


def test_every_listed_move_has_the_fields_the_client_knows_for_its_type(client):
    assert set(MOVE_FIELDS) == set(game_names())
    for game in game_names():
        created = client.create_game(game, [f"Player {n}" for n in range(1, get_rules(game).player_counts[0] + 1)])
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
        for _ in range(PLAYED_MOVES):
            view = client.get_game(created["game_id"])
            if view["status"] != "active":
                break
            token = tokens[view["waiting_for"][0]]
            listed = client.get_legal_moves(created["game_id"], token=token)["moves"]
            for move in listed:
                fields = MOVE_FIELDS[game][move["type"]]
                given = set(move) - {"type"}
                assert given <= set(fields) and {name for name, required in fields.items() if required} <= given, move
            client.submit_move(created["game_id"], listed[0], token=token)
