"""The records of a game ended by a timeout (TABLE-CLOCK-4): scored by the worker as the flagged seat's
resignation, audited (the claim decided again at its event's time), and exported in every format as records
that verify offline, the Cairn notation with the times its clock replays from."""
from __future__ import annotations

import time

import pytest

from domain import registry
from service.app import create_app
from tests.workers.test_table_records import FAST, audited, bearer, exports_verify, play_some

CLAIM_DEADLINE_SECONDS = 60


@pytest.fixture
def client(redis_server, redis_client, export_dir):
    return create_app({"REDIS_URL": redis_server.url, "EXPORT_DIR": str(export_dir), **FAST}).test_client()


def claim_when_flagged(client, game_id: str, token: str, flagged: str) -> dict:
    """Claim until the server's clock grants it: a refusal meanwhile says the clock still runs."""
    deadline = time.monotonic() + CLAIM_DEADLINE_SECONDS
    while time.monotonic() < deadline:
        version = client.get(f"/games/{game_id}").get_json()["version"]
        answer = client.post(f"/games/{game_id}/moves", headers={**bearer(token), "If-Match": f'"{version}"'},
                             json={"type": "claim_timeout", "flagged": flagged})
        if answer.status_code == 201:
            return answer.get_json()
        assert answer.get_json()["code"] == "clock_running", answer.get_json()
        time.sleep(0.05)
    raise AssertionError(f"{flagged}'s flag never fell")


@pytest.mark.parametrize("game", registry.game_names())
def test_a_game_lost_on_time_is_scored_with_the_flagged_seat_last_and_its_records_verify(client, drain, game,
                                                                                        tmp_path):
    created = client.post("/games", json={"game": game, "players": ["Ann", "Bo"], "seed": f"flag-{game}",
                                          "clock": {"initial_seconds": 2, "increment_seconds": 1}}).get_json()
    game_id = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}
    play_some(client, game_id, tokens, 2)
    flagged = client.get(f"/games/{game_id}").get_json()["waiting_for"][0]
    claimant = next(seat for seat in ("p1", "p2") if seat != flagged)
    claimed = claim_when_flagged(client, game_id, tokens[claimant], flagged)
    assert [event["type"] for event in claimed["events"]] == ["timeout_claimed", "game_ended"]
    drain()
    sheet = client.get(f"/games/{game_id}/score").get_json()["score_sheet"]
    assert sheet["outcome"] == "timeout" and sheet["flagged"] == flagged and sheet["rule"] == "TABLE-CLOCK-4"
    assert sheet["ranking"] == [{"rank": 1, "seats": [claimant]}, {"rank": 2, "seats": [flagged]}]
    report = audited(client, drain, game_id, tokens[claimant])
    assert report["ok"] and report["seed_revealed"], report
    exports_verify(client, drain, game_id, tmp_path)
    notation = (tmp_path / f"{game_id}.cairn").read_text()
    assert '[Clock "{\\"increment_seconds\\":1,\\"initial_seconds\\":2}"]' in notation
    claim_line = next(line for line in notation.splitlines() if "claim_timeout" in line)
    assert f"{claimant} claim_timeout flagged={flagged} {{{flagged}'s clock ran out}} {{left: " in claim_line
    assert f"{flagged} 0.000 s" in claim_line, "the flagged seat's clock shows none left"
