"""Exports, audits, scores and jobs through the client, made by a real worker process."""
from __future__ import annotations

import json
import random

import pytest
from cairn_client import Conflict, JobTimeout, NotFound, RandomPolicy, is_job
from cairn_client.bot import SeatBot

from tests.client.test_games import tokens_of
from workers.verify import main as verify


def played(client, game: str = "through-ice-and-snow") -> tuple[str, dict[str, str]]:
    """A real game played to its end by random bots holding every seat."""
    created = client.create_game(game, ["Ann", "Bo"])
    tokens = tokens_of(created)
    SeatBot(client, created["game_id"], tokens, RandomPolicy(7), random.Random(7)).play()
    return created["game_id"], tokens


def test_an_export_is_waited_for_with_its_progress_downloaded_and_verifies_offline(client, worker, tmp_path):
    game_id, tokens = played(client)
    client.wait_for_score(game_id)  # the score is the game's last event: the record stays as it is from then on
    seen = []
    record = client.export(game_id, "json", token=tokens["p1"], on_progress=seen.append)
    assert seen[-1]["status"] == "finished" and seen[-1]["progress"]["done"] == seen[-1]["progress"]["total"]
    saved = tmp_path / "record.json"
    saved.write_bytes(record)
    assert verify([str(saved)]) == 0
    assert len(json.loads(record)["events"]) == client.get_game(game_id)["version"]
    assert client.export(game_id, "json", token=tokens["p1"]) == record
    assert client.get_export(game_id, "json", token=tokens["p1"]) == record, "the stored file, by one GET"
    notation = client.get_export(game_id, "cairn", token=tokens["p1"])
    assert isinstance(notation, bytes) and b"[Game " in notation


def test_an_audit_and_a_score_are_waited_for(client, worker):
    game_id, tokens = played(client)
    score = client.wait_for_score(game_id)
    assert score["game_id"] == game_id and score["score_sheet"]
    report = client.audit(game_id, token=tokens["organiser"])
    assert report["ok"] is True and report["commands_redecided"] > 0
    assert client.get_audit(game_id, report["version"]) == report


def test_a_job_no_worker_takes_times_out_and_a_job_that_did_not_fail_is_not_retried(client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    job = client.export_game(game_id, "ndjson")
    assert is_job(job) and job["status"] == "queued"
    with pytest.raises(JobTimeout) as waited:
        client.wait_for_job(job, timeout=0.5)
    assert waited.value.job["status"] == "queued"
    with pytest.raises(Conflict) as refused:
        client.retry_job(job["job_id"], token=tokens["organiser"])
    assert refused.value.code == "job_not_failed"
    with pytest.raises(NotFound) as missing:
        client.get_audit(game_id, created["version"])
    assert missing.value.code == "audit_not_found"
    with pytest.raises(NotFound):
        client.download_export(game_id, f"{created['version']}-public.ndjson")


def test_a_scored_game_is_found_among_the_ended_games_of_its_player(client, worker):
    game_id, _tokens = played(client)
    unfinished = client.create_game("through-ice-and-snow", ["Ann", "Cy"])["game_id"]
    client.wait_for_score(game_id)
    assert client.get_game(game_id)["status"] == "scored"
    assert [game["game_id"] for game in client.iter_games(status="ended", player="ann")] == [game_id]
    assert [game["status"] for game in client.iter_games(status="ended")] == ["scored"]
    assert [game["game_id"] for game in client.iter_games(status="scored", player="ANN")] == [game_id]
    assert [game["game_id"] for game in client.iter_games(status="active", player="ann")] == [unfinished]
