"""The records of games the table ended or changed: scored by the worker by the table rules, audited, and
exported in every format as records that verify offline (commands decided again, the seed's draws, the score)."""
from __future__ import annotations

import pytest

from domain import registry
from service.app import create_app
from workers.verify import verify_file

FAST = {"RATE_LIMIT": 100_000, "RATE_BURST": 100_000}


@pytest.fixture
def client(redis_server, redis_client, export_dir):
    return create_app({"REDIS_URL": redis_server.url, "EXPORT_DIR": str(export_dir), **FAST}).test_client()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def move(client, game_id: str, token: str, body: dict):
    version = client.get(f"/games/{game_id}").get_json()["version"]
    answer = client.post(f"/games/{game_id}/moves", headers={**bearer(token), "If-Match": f'"{version}"'}, json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def play_some(client, game_id: str, tokens: dict, count: int) -> None:
    """``count`` legal moves, each the first one listed for the first seat awaited."""
    for _ in range(count):
        game = client.get(f"/games/{game_id}").get_json()
        seat = game["waiting_for"][0]
        listed = client.get(f"/games/{game_id}/legal-moves", headers=bearer(tokens[seat])).get_json()["moves"]
        move(client, game_id, tokens[seat], listed[0])


def audited(client, drain, game_id: str, token: str) -> dict:
    started = client.post(f"/games/{game_id}/audits", headers=bearer(token))
    drain()
    return client.get(client.get(started.headers["Location"]).get_json()["result_url"]).get_json()


def exports_verify(client, drain, game_id: str, tmp_path) -> None:
    client.post(f"/games/{game_id}/exports", json={"format": "html"})
    drain()
    page = client.post(f"/games/{game_id}/exports", json={"format": "html"}).get_json()["export"]["download_url"]
    assert client.get(page).status_code == 200
    for fmt in ("json", "ndjson", "cairn"):
        client.post(f"/games/{game_id}/exports", json={"format": fmt})
        drain()
        url = client.post(f"/games/{game_id}/exports", json={"format": fmt}).get_json()["export"]["download_url"]
        path = tmp_path / f"{game_id}.{fmt}"
        path.write_bytes(client.get(url).data)
        verdict = verify_file(path)
        assert verdict.ok, (fmt, verdict.findings)
        assert verdict.score_checked or fmt != "cairn"


@pytest.mark.parametrize("game", registry.game_names())
def test_a_resigned_game_is_scored_with_the_resigning_seat_last_and_its_records_verify(client, drain, game,
                                                                                       tmp_path):
    created = client.post("/games", json={"game": game, "players": ["Ann", "Bo"], "seed": f"resigned-{game}"})
    created = created.get_json()
    game_id = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}
    play_some(client, game_id, tokens, 3)
    move(client, game_id, tokens["p1"], {"type": "resign"})
    drain()
    sheet = client.get(f"/games/{game_id}/score").get_json()["score_sheet"]
    assert sheet["outcome"] == "resigned" and sheet["resigned"] == ["p1"] and sheet["rule"] == "TABLE-RESIGN-2"
    assert sheet["ranking"] == [{"rank": 1, "seats": ["p2"]}, {"rank": 2, "seats": ["p1"]}]
    assert set(sheet["totals"]) == {"p1", "p2"}
    report = audited(client, drain, game_id, tokens["p2"])
    assert report["ok"] and report["seed_revealed"], report
    exports_verify(client, drain, game_id, tmp_path)


def test_an_abandoned_game_is_scored_with_nobody_ranked(client, drain, tmp_path):
    created = client.post("/games", json={"game": "northwest-passage", "players": ["Ann", "Bo", "Cy"]}).get_json()
    game_id, organiser = created["game_id"], created["organiser_token"]
    move(client, game_id, organiser, {"type": "abandon", "reason": "rain"})
    drain()
    sheet = client.get(f"/games/{game_id}/score").get_json()["score_sheet"]
    assert sheet["outcome"] == "abandoned" and sheet["ranking"] == [] and sheet["detail"] == "rain"
    assert set(sheet["totals"]) == {"p1", "p2", "p3"}
    assert audited(client, drain, game_id, organiser)["ok"]
    exports_verify(client, drain, game_id, tmp_path)


def test_a_game_whose_seats_were_joined_and_tokens_rotated_audits_and_its_records_verify(client, drain, tmp_path):
    created = client.post("/games", json={"game": "borealis", "players": ["Ann", "open"],
                                          "open_seats": ["p2"]}).get_json()
    game_id, organiser = created["game_id"], created["organiser_token"]
    joined = client.post(f"/games/{game_id}/seats/p2/join", json={"name": "Bo"})
    assert joined.status_code == 201, joined.get_json()
    tokens = {"p1": created["seats"][0]["token"], "p2": joined.get_json()["token"], "organiser": organiser}
    rotated = client.post(f"/games/{game_id}/seats/p1/token", headers=bearer(organiser))
    tokens["p1"] = rotated.get_json()["token"]
    play_some(client, game_id, tokens, 2)
    move(client, game_id, tokens["p2"], {"type": "resign"})
    drain()
    sheet = client.get(f"/games/{game_id}/score").get_json()["score_sheet"]
    assert sheet["ranking"][-1] == {"rank": 2, "seats": ["p2"]}
    report = audited(client, drain, game_id, tokens["p1"])
    assert report["ok"] and report["commands_redecided"] >= 5, report
    exports_verify(client, drain, game_id, tmp_path)
