"""The records endpoints (service/api/records.py) with a real worker draining the queue between requests."""
from __future__ import annotations

import pytest
from rq.job import Job

from service.app import create_app
from tests.workers.records import play, record
from workers.queues import enqueue_scoring, queue

FAST = {"RATE_LIMIT": 100_000, "RATE_BURST": 100_000}


@pytest.fixture
def client(redis_server, redis_client, export_dir):
    return create_app({"REDIS_URL": redis_server.url, "EXPORT_DIR": str(export_dir), **FAST}).test_client()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_through_api(client, until_end: bool = True) -> tuple[str, dict]:
    """A high-card game created and played through the API; returns its id and tokens by reader."""
    created = client.post("/games", json={"game": "high-card", "players": ["Ann", "Bo"]}).get_json()
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}
    game_id = created["game_id"]
    while True:
        game = client.get(f"/games/{game_id}").get_json()
        if game["status"] != "active" or (not until_end and game["waiting_for"] == ["p1", "p2"]):
            return game_id, tokens
        seat = game["waiting_for"][0]
        moves = client.get(f"/games/{game_id}/legal-moves", headers=bearer(tokens[seat])).get_json()["moves"]
        moved = client.post(f"/games/{game_id}/moves", headers=bearer(tokens[seat]),
                            json={**moves[0], "expected_version": game["version"]})
        assert moved.status_code == 201, moved.get_json()


def test_a_game_played_to_the_end_through_the_api_is_scored_by_a_worker(client, drain):
    game_id, _tokens = play_through_api(client)
    waiting = client.get(f"/games/{game_id}/score")
    assert waiting.status_code == 202
    assert waiting.get_json()["status"] == "queued" and waiting.headers["Location"] == "/jobs/score-" + game_id
    drain()
    scored = client.get(f"/games/{game_id}/score")
    assert scored.status_code == 200
    assert scored.get_json()["score_sheet"]["lines"][0]["rule"] == "HC-3"
    assert client.get(f"/games/{game_id}").get_json()["score"] == scored.get_json()["score_sheet"]
    job = client.get(f"/jobs/score-{game_id}").get_json()
    assert job["status"] == "finished" and job["result_url"] == f"/games/{game_id}/score"


def test_retrying_the_move_that_ended_a_game_queues_no_second_scoring(client, redis_client, drain):
    """The retry is answered from the first append's record, so it ends nothing again: even once the finished
    scoring job's record is gone (RQ keeps it a day), no second job is queued."""
    game_id, tokens = play_through_api(client, until_end=False)
    version = client.get(f"/games/{game_id}").get_json()["version"]
    ready = {"type": "ready", "expected_version": version}
    assert client.post(f"/games/{game_id}/moves", headers=bearer(tokens["p1"]), json=ready).status_code == 201
    last = {"type": "ready", "expected_version": version + 1}
    ending = {**bearer(tokens["p2"]), "Idempotency-Key": "the-last-ready"}
    ended = client.post(f"/games/{game_id}/moves", headers=ending, json=last)
    assert ended.status_code == 201 and ended.get_json()["status"] == "ended"
    drain()
    Job.fetch(f"score-{game_id}", connection=redis_client).delete()
    retried = client.post(f"/games/{game_id}/moves", headers=ending, json=last)
    assert retried.status_code == 201 and retried.headers["Idempotent-Replayed"] == "true"
    assert queue(redis_client).job_ids == []
    assert client.get(f"/games/{game_id}/score").status_code == 200


def test_a_game_in_play_has_no_score_yet(client):
    game_id, _tokens = play_through_api(client, until_end=False)
    refused = client.get(f"/games/{game_id}/score")
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_not_over"


@pytest.mark.parametrize("fmt, content_type", [("json", "application/json"), ("ndjson", "application/x-ndjson"),
                                               ("cairn", "text/plain; charset=utf-8"),
                                               ("html", "text/html; charset=utf-8")])
def test_an_export_is_a_job_then_a_download_with_an_etag(client, drain, fmt, content_type):
    game_id, _tokens = play_through_api(client)
    drain()
    started = client.post(f"/games/{game_id}/exports", json={"format": fmt})
    assert started.status_code == 202
    job_url = started.headers["Location"]
    assert client.get(job_url).get_json()["status"] == "queued"
    drain()
    done = client.get(job_url).get_json()
    assert done["status"] == "finished" and done["progress"]["done"] == done["progress"]["total"]
    download = client.get(done["result_url"])
    assert download.status_code == 200 and download.headers["Content-Type"] == content_type
    assert client.get(done["result_url"], headers={"If-None-Match": download.headers["ETag"]}).status_code == 304
    again = client.post(f"/games/{game_id}/exports", json={"format": fmt})
    assert again.status_code == 200 and again.get_json()["export"]["download_url"] == done["result_url"]


def test_a_seats_export_and_its_job_are_that_seats_and_the_organisers_alone(client, drain):
    game_id, tokens = play_through_api(client, until_end=False)
    started = client.post(f"/games/{game_id}/exports", json={"format": "json"}, headers=bearer(tokens["p1"]))
    job_url = started.headers["Location"]
    assert client.get(job_url, headers=bearer(tokens["p2"])).status_code == 403
    assert client.get(job_url).status_code == 401
    drain()
    url = client.get(job_url, headers=bearer(tokens["p1"])).get_json()["result_url"]
    assert client.get(url, headers=bearer(tokens["p2"])).status_code == 403
    assert client.get(url, headers=bearer(tokens["organiser"])).status_code == 200


def test_an_unknown_format_is_refused(client):
    game_id, _tokens = play_through_api(client, until_end=False)
    refused = client.post(f"/games/{game_id}/exports", json={"format": "pdf"})
    assert refused.status_code == 422 and refused.get_json()["field"] == "format"


def test_an_audit_is_started_by_a_player_and_its_report_read_by_anyone(client, drain):
    game_id, tokens = play_through_api(client)
    assert client.post(f"/games/{game_id}/audits").status_code == 401
    started = client.post(f"/games/{game_id}/audits", headers=bearer(tokens["p2"]))
    assert started.status_code == 202
    drain()
    report_url = client.get(started.headers["Location"]).get_json()["result_url"]
    report = client.get(report_url).get_json()
    assert report["ok"] and report["seed_revealed"] and report["chance_outcomes_rederived"] >= 2


def test_the_organiser_retries_a_failed_job(client, store, redis_client, drain):
    record(store, "g1", play(scored=False)[:-1])
    tokens = {"organiser": "g1-organiser", "p1": "g1-p1"}
    job = enqueue_scoring(redis_client, "g1")
    job.retries_left = 0
    job.save()
    drain()
    failed = client.get(f"/jobs/{job.id}").get_json()
    assert failed["status"] == "failed" and "has not ended" in failed["error"]
    assert client.post(f"/jobs/{job.id}/retry", headers=bearer(tokens["p1"])).status_code == 403
    retried = client.post(f"/jobs/{job.id}/retry", headers=bearer(tokens["organiser"]))
    assert retried.status_code == 202 and retried.get_json()["status"] == "queued"
    assert queue(redis_client).job_ids == [job.id]
    assert Job.fetch(job.id, connection=redis_client).get_status() == "queued"
