"""The client's game operations against the real service: versions it tracks, errors it raises, pages it walks."""
from __future__ import annotations

import pytest
from cairn_client import Client, NotFound, Refused, StaleVersion, Unauthorized

from tests.client.conftest import QUICK_RETRIES, checked_session


def tokens_of(created: dict) -> dict[str, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}


def play_to_the_end(client: Client, game_id: str, tokens: dict[str, str]) -> int:
    """Every move submitted without a version: the client sends the last one it saw. Returns the moves made."""
    moves = 0
    view = client.get_game(game_id)
    while view["status"] == "active":
        seat = view["waiting_for"][0]
        listed = client.get_legal_moves(game_id, token=tokens[seat])["moves"]
        client.submit_move(game_id, listed[0], token=tokens[seat])
        moves += 1
        view = client.get_game(game_id)
    return moves


def test_a_game_is_created_and_played_to_the_end_with_if_match_sent_for_the_caller(client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    assert client.versions[game_id] == created["version"]
    moves = play_to_the_end(client, game_id, tokens)
    ended = client.get_game(game_id, token=tokens["p1"])
    assert moves == 4 and ended["status"] == "ended" and ended["reader"] == "p1"
    log = list(client.iter_events(game_id))
    assert [event["version"] for event in log] == list(range(1, ended["version"] + 1))
    assert client.check_integrity(game_id)["ok"] is True


def test_a_move_decided_on_an_old_version_raises_stale_version_and_the_next_uses_the_current_one(client, base_url):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    with Client(base_url, retry=QUICK_RETRIES, session=checked_session()) as other:
        start = other.get_game(game_id)["version"]
        client.submit_move(game_id, {"type": "keep"}, token=tokens["p1"])
        with pytest.raises(StaleVersion) as stale:
            other.submit_move(game_id, {"type": "keep"}, token=tokens["p2"])
        assert stale.value.status == 409 and stale.value.current_version == start + 1
        assert other.versions[game_id] == start + 1
        moved = other.submit_move(game_id, {"type": "keep"}, token=tokens["p2"])
    assert moved["first_version"] == start + 2


def test_a_move_repeated_with_its_idempotency_key_is_applied_once(client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    first = client.submit_move(game_id, {"type": "keep"}, token=tokens["p1"], idempotency_key="p1-keep")
    again = client.submit_move(game_id, {"type": "keep"}, token=tokens["p1"], idempotency_key="p1-keep",
                               expected_version=created["version"])
    assert again == first
    assert client.get_game(game_id)["version"] == first["version"]


def test_a_rule_refusal_raises_with_its_code_rule_and_field_and_changes_nothing(client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    with pytest.raises(Refused) as refused:
        client.submit_move(game_id, {"type": "swap", "card": "no-such-card"}, token=tokens["p1"])
    error = refused.value
    assert (error.status, error.code, error.rule_id, error.field) == (422, "not_in_hand", "HC-2", "card")
    assert error.detail and "HC-2" in str(error)
    with pytest.raises(Refused) as unknown:
        client.submit_move(game_id, {"type": "keep", "colour": "red"}, token=tokens["p1"])
    assert (unknown.value.code, unknown.value.field) == ("unknown_field", "colour")
    assert client.get_game(game_id)["version"] == created["version"]


def test_unknown_games_and_foreign_tokens_raise_their_own_exceptions(client):
    with pytest.raises(NotFound) as missing:
        client.get_game("no-such-game")
    assert missing.value.code == "game_not_found"
    first = client.create_game("high-card", ["Ann", "Bo"])
    second = client.create_game("high-card", ["Cy", "Di"])
    with pytest.raises(Unauthorized) as foreign:
        client.get_legal_moves(first["game_id"], token=second["organiser_token"])
    assert foreign.value.code == "token_invalid"


def test_a_game_read_again_unchanged_is_a_304_answered_with_the_kept_view_and_a_moved_one_is_read_afresh(client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    unchanged = client.transport.statuses
    first = client.get_game(game_id, token=tokens["p1"])
    first["state"] = "changed by the caller"
    again = client.get_game(game_id, token=tokens["p1"])
    assert unchanged[304] == 1 and unchanged[200] == 1
    assert again["reader"] == "p1" and again["version"] == created["version"]
    assert again["state"] != "changed by the caller", "the kept view is the service's, not the caller's copy"
    public = client.get_game(game_id)
    assert unchanged[304] == 1 and public["reader"] == "public", "another reader's view is never the kept one"
    client.submit_move(game_id, {"type": "keep"}, token=tokens["p1"])
    moved = client.get_game(game_id, token=tokens["p1"])
    assert unchanged[304] == 1 and moved["version"] > again["version"]
    assert moved["waiting_for"] != again["waiting_for"]
    assert client.get_game(game_id, token=tokens["p1"]) == moved and unchanged[304] == 2


def test_the_event_log_and_the_index_are_walked_page_by_page(client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    play_to_the_end(client, game_id, tokens)
    whole = client.get_events(game_id, limit=500)
    assert whole["next_from"] is None
    paged = list(client.iter_events(game_id, limit=2))
    assert paged == whole["events"] and len(paged) > 4
    later = list(client.iter_events(game_id, from_version=3, limit=2))
    assert later == whole["events"][2:]
    for name in ("Cy", "Di", "Ed"):
        client.create_game("high-card", [name, "Zed"])
    listed = [game["game_id"] for game in client.iter_games(limit=2)]
    assert len(listed) == 4 and len(set(listed)) == 4 and game_id in listed
    assert [game["players"][0] for game in client.iter_games(player="zed", limit=1)] == ["Ed", "Di", "Cy"]


def test_the_state_at_a_version_the_rules_and_the_contract(client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id = created["game_id"]
    assert client.get_state(game_id, at=1)["version"] == 1
    assert "borealis" in [game["name"] for game in client.list_rules()["games"]]
    assert "openapi: 3.1" in client.get_spec()
    assert "<html" in client.get_docs().lower()


def test_a_refused_creation_raises_with_the_whole_problem(client):
    with pytest.raises(Refused) as refused:
        client.create_game("no-such-game", ["Ann"])
    assert refused.value.code == "unknown_game_name" and refused.value.problem["status"] == 422


def test_the_probes_keys_and_table_page(client):
    assert client.get_health() == {"status": "ok"}
    ready = client.get_ready()
    assert ready["code"] == "not_ready" and ready["failed"] == ["worker"], "no worker runs in this test"
    keys = client.list_keys()
    assert keys["algorithm"] == "ed25519" and keys["keys"][0]["status"] == "active"
    game = client.create_game("high-card", ["Ann", "Bo"])
    page = client.get_table(game["game_id"])
    assert "<svg" in page or "board" in page
