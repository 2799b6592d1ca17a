"""Final scoring: a real RQ worker appends the score sheet once, however often the job runs."""
from __future__ import annotations

import pytest
from rq.job import Job

from domain.core.canonical import canonical_json
from domain.core.events import make_event
from tests.workers.records import play, record
from workers.queues import enqueue_scoring, queue, scoring_needed
from workers.scoring import GameNotEnded, score_game
from workers.sweep import sweep


@pytest.mark.cluster
def test_an_ended_game_gets_its_score_sheet_appended_by_a_worker(store, queue_client, drain):
    record(store, "g1", play(scored=False))
    ended = store.load("g1")
    job = scoring_needed(queue_client, "g1", store.read("g1", ended.version))
    drain()
    scored = store.load("g1")
    assert Job.fetch(job.id, connection=queue_client).get_status() == "finished"
    assert scored.version == ended.version + 1
    last = store.read("g1", scored.version)[0]
    assert last["type"] == "game_scored"
    assert canonical_json(last["data"]["score_sheet"]) == canonical_json(ended.rules.final_score(ended.state))
    assert store.meta("g1")["status"] == "scored"


def test_scoring_twice_appends_once(store):
    record(store, "g1", play(scored=False))
    first = score_game(store, "g1")
    again = score_game(store, "g1")
    assert first["outcome"] == "scored" and again["outcome"] == "already_scored"
    assert [e["type"] for e in store.read("g1")].count("game_scored") == 1


def test_a_rerun_that_decided_on_a_stale_version_is_a_duplicate_not_a_second_sheet(store):
    """Two jobs load the ended game at once; the second append carries the same key and appends nothing."""
    record(store, "g1", play(scored=False))
    ended_version = store.version("g1")
    score_game(store, "g1")
    late = store.append("g1", ended_version, [make_event("game_scored", {"score_sheet": {}})], command=None,
                        command_id="late", idempotency_key="score")
    assert late.duplicate and store.version("g1") == ended_version + 1


def test_a_game_in_play_is_not_scored(store):
    batches = play(scored=False)
    record(store, "g1", batches[:-1])
    with pytest.raises(GameNotEnded):
        score_game(store, "g1")
    assert "game_scored" not in [e["type"] for e in store.read("g1")]


def test_a_move_that_does_not_end_the_game_enqueues_nothing(store, redis_client):
    batches = play(scored=False)
    record(store, "g1", batches[:2])
    assert scoring_needed(redis_client, "g1", store.read("g1")) is None


def test_asking_twice_while_queued_makes_one_job(redis_client):
    first = enqueue_scoring(redis_client, "g1")
    second = enqueue_scoring(redis_client, "g1")
    assert first.id == second.id == "score-g1"
    assert queue(redis_client).job_ids == ["score-g1"]


@pytest.mark.cluster
def test_a_starting_worker_scores_ended_games_whose_scoring_job_was_lost(store, queue_client, drain, tmp_path):
    record(store, "g1", play(scored=False))
    record(store, "g2", play(scored=False)[:2])
    sweep(queue_client, queue(queue_client), tmp_path)
    drain()
    assert store.meta("g1")["status"] == "scored" and store.meta("g2")["status"] == "active"
