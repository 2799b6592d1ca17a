"""The client's table operations against the real service: resigning, abandoning, joining and rotating."""
from __future__ import annotations

import pytest
from cairn_client import Client, Conflict, Forbidden, StaleVersion, Unauthorized

from tests.client.test_games import tokens_of


def test_a_seat_resigns_and_the_game_ends_with_it_last(client: Client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    with pytest.raises(Forbidden) as organiser:
        client.resign(game_id, token=tokens["organiser"])
    assert organiser.value.code == "organiser_cannot_resign"
    resigned = client.resign(game_id, token=tokens["p2"])
    assert resigned["status"] == "ended" and resigned["events"][0]["type"] == "seat_resigned"
    assert client.get_game(game_id)["ended_by"] == {"reason": "resigned", "seat": "p2"}
    with pytest.raises(Conflict) as after:
        client.resign(game_id, token=tokens["p2"])
    assert after.value.code == "seat_resigned"


def test_the_organiser_abandons_with_a_reason(client: Client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    with pytest.raises(Forbidden):
        client.abandon(game_id, token=tokens["p1"])
    abandoned = client.abandon(game_id, reason="storm", token=tokens["organiser"])
    assert abandoned["events"][0] == {**abandoned["events"][0], "type": "game_abandoned", "data": {"reason": "storm"}}


def test_an_open_seat_is_listed_joined_once_and_its_token_plays(client: Client):
    created = client.create_game("high-card", ["Ann", "open"], open_seats=["p2"])
    game_id = created["game_id"]
    assert created["seats"][1]["token"] is None and created["seats"][1]["open"] is True
    assert [game["game_id"] for game in client.list_games(open=True)["games"]] == [game_id]
    with pytest.raises(Conflict) as waiting:
        client.submit_move(game_id, {"type": "keep"}, token=created["seats"][0]["token"])
    assert waiting.value.code == "seats_open"
    joined = client.join_seat(game_id, "p2", name="Bo")
    assert joined["name"] == "Bo" and joined["open_seats"] == [] and client.versions[game_id] == joined["version"]
    with pytest.raises(Conflict) as taken:
        client.join_seat(game_id, "p2")
    assert taken.value.code == "seat_taken"
    assert client.list_games(open=True)["games"] == []
    assert client.get_game(game_id, token=joined["token"])["reader"] == "p2"
    client.submit_move(game_id, {"type": "keep"}, token=created["seats"][0]["token"])
    client.submit_move(game_id, {"type": "keep"}, token=joined["token"])


def test_a_rotated_token_replaces_the_old_one(client: Client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    with pytest.raises(Forbidden):
        client.rotate_token(game_id, "p2", token=tokens["p1"])
    rotated = client.rotate_token(game_id, "p1", token=tokens["organiser"])
    assert rotated["reader"] == "p1" and client.versions[game_id] == rotated["version"]
    with pytest.raises(Unauthorized):
        client.get_game(game_id, token=tokens["p1"])
    with pytest.raises(StaleVersion):
        client.submit_move(game_id, {"type": "keep"}, token=rotated["token"], expected_version=rotated["version"] - 1)
    client.submit_move(game_id, {"type": "keep"}, token=rotated["token"])
    own = client.rotate_token(game_id, "p1", token=rotated["token"])
    assert client.get_game(game_id, token=own["token"])["reader"] == "p1"


def test_a_takeback_is_asked_accepted_and_declined_through_the_client(client: Client):
    """TABLE-TAKEBACK-1..3 through the client: ask, the other seat accepts; ask again later, it declines."""
    created = client.create_game("high-card", ["Ann", "Bo", "Cy"], seed="client-takeback")
    game_id, tokens = created["game_id"], tokens_of(created)
    before = client.get_game(game_id)
    client.submit_move(game_id, {"type": "keep"}, token=tokens["p1"])
    asked = client.request_takeback(game_id, token=tokens["p1"])
    assert asked["events"][0]["type"] == "takeback_requested"
    assert client.get_game(game_id)["takeback"]["waiting_for"] == ["p2", "p3"]
    with pytest.raises(Forbidden) as own:
        client.accept_takeback(game_id, token=tokens["p1"])
    assert own.value.code == "not_yours_to_answer"
    client.accept_takeback(game_id, token=tokens["p2"])
    granted = client.accept_takeback(game_id, token=tokens["p3"], idempotency_key="accept-p3")
    assert [event["type"] for event in granted["events"]] == ["takeback_accepted", "moves_taken_back"]
    after = client.get_game(game_id)
    assert after["state"] == before["state"] and after["taken_back"] == [[before["version"] + 1,
                                                                          before["version"] + 1]]
    client.submit_move(game_id, {"type": "keep"}, token=tokens["p1"])
    client.request_takeback(game_id, token=tokens["p1"])
    declined = client.decline_takeback(game_id, token=tokens["p3"])
    assert declined["events"][0]["type"] == "takeback_declined"
    with pytest.raises(Conflict) as none:
        client.decline_takeback(game_id, token=tokens["p2"])
    assert none.value.code == "no_takeback_pending"
    off = client.create_game("high-card", ["Ann", "Bo"], takebacks="off")
    client.submit_move(off["game_id"], {"type": "keep"}, token=off["seats"][0]["token"])
    with pytest.raises(Conflict) as refused:
        client.request_takeback(off["game_id"], token=off["seats"][0]["token"])
    assert refused.value.code == "takebacks_off"
