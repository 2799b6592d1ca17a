"""The client's clock operations against the real service: a game created with a clock, and timeout claims."""
from __future__ import annotations

import time

import pytest
from cairn_client import Client, Conflict

from tests.client.test_games import tokens_of


def test_a_game_with_a_clock_and_a_timeout_claimed_through_the_client(client: Client):
    created = client.create_game("high-card", ["Ann", "Bo"], clock={"initial_seconds": 1, "increment_seconds": 0})
    game_id, tokens = created["game_id"], tokens_of(created)
    clock = client.get_game(game_id)["clock"]
    assert clock is not None and clock["mode"] == "fischer" and clock["seats"]["p1"]["running"]
    with pytest.raises(Conflict) as waiting:
        client.claim_timeout(game_id, "p2", token=tokens["p1"])
    assert waiting.value.code == "not_on_clock"
    claimed = None
    deadline = time.monotonic() + 60
    while claimed is None and time.monotonic() < deadline:  # until the server's clock says p1's second is up
        try:
            claimed = client.claim_timeout(game_id, "p1", token=tokens["p2"])
        except Conflict as refused:
            assert refused.code == "clock_running"
            time.sleep(0.05)
    assert claimed is not None
    assert [event["type"] for event in claimed["events"]] == ["timeout_claimed", "game_ended"]
    assert client.get_game(game_id)["ended_by"] == {"reason": "timeout", "seat": "p1"}


def test_a_claim_while_the_clock_runs_is_refused_with_the_time_left(client: Client):
    created = client.create_game("high-card", ["Ann", "Bo"], clock={"turn_seconds": 3600})
    with pytest.raises(Conflict) as running:
        client.claim_timeout(created["game_id"], "p1", token=tokens_of(created)["organiser"])
    assert running.value.code == "clock_running" and "s left" in str(running.value)
