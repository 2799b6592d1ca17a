"""The workers' endpoints answer as api_spec.yaml says (jobs pending: no worker drains the queue here)."""
from __future__ import annotations

import pytest

from tests.api.conftest import FAST, Api, serve


@pytest.fixture
def api(redis_server, redis_client, tmp_path):
    for base in serve({"REDIS_URL": redis_server.url, "EXPORT_DIR": str(tmp_path), **FAST}):
        yield Api(base)


def finished_game(api: Api) -> dict:
    created = api.create("high-card", 2, seed="records-seed")
    game_id = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    state = api.get(f"/games/{game_id}").json()
    while state["status"] == "active":
        seat = state["waiting_for"][0]
        move = api.get(f"/games/{game_id}/legal-moves", tokens[seat]).json()["moves"][0]
        state = api.post(f"/games/{game_id}/moves", tokens[seat], json={**move, "expected_version": state["version"]})
        state = state.json()
    return created


def test_an_active_game_has_no_score(api):
    created = api.create("high-card", 2)
    assert api.get(f"/games/{created['game_id']}/score").json()["code"] == "game_not_over"


def test_records_of_an_ended_game_are_jobs_until_a_worker_makes_them(api):
    created = finished_game(api)
    game_id, organiser = created["game_id"], created["organiser_token"]
    score = api.get(f"/games/{game_id}/score")
    assert score.status_code == 202 and score.json()["kind"] == "score"
    assert api.get(score.headers["Location"]).json()["job_id"] == score.json()["job_id"]
    export = api.post(f"/games/{game_id}/exports", organiser, json={"format": "ndjson"})
    assert export.status_code == 202 and export.json()["kind"] == "export"
    audit = api.post(f"/games/{game_id}/audits", organiser)
    assert audit.status_code == 202
    version = api.get(f"/games/{game_id}").json()["version"]
    assert api.get(f"/games/{game_id}/audits/{version}").status_code == 202
    assert api.get(f"/games/{game_id}/exports/{version}-public.json").json()["code"] == "export_not_found"
    assert api.post(f"/games/{game_id}/exports", json={"format": "pdf"}).json()["field"] == "format"
    assert api.get("/jobs/nope").json()["code"] == "job_not_found"
