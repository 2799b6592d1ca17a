"""Final scoring: a real RQ worker appends the score sheet once, however often the job runs."""
from __future__ import annotations

from functools import partial

import pytest
import redis
from rq.job import Job

from domain.core.canonical import canonical_json
from domain.core.events import make_event
from service.redis_server import free_port
from service.store import EventStore
from tests.workers.records import play, record
from workers.keeper import Keeper
from workers.queues import QUEUE, enqueue_scoring, queue
from workers.scoring import GameNotEnded, score_game
from workers.sweep import sweep


def scoring_store(client, queue_client) -> EventStore:
    """A store that enqueues the scoring of the games its appends end, as the service's does."""
    return EventStore(client, snapshot_every=50, on_ended=partial(enqueue_scoring, queue_client))


@pytest.mark.cluster
def test_the_append_that_ends_a_game_enqueues_its_scoring_and_a_worker_appends_the_sheet(
        redis_client, queue_client, drain):
    store = scoring_store(redis_client, queue_client)
    record(store, "g1", play(scored=False))
    ended = store.load("g1")
    assert queue(queue_client).job_ids == ["score-g1"]
    drain()
    scored = store.load("g1")
    assert Job.fetch("score-g1", connection=queue_client).get_status() == "finished"
    assert scored.version == ended.version + 1
    last = store.read("g1", scored.version)[0]
    assert last["type"] == "game_scored"
    assert canonical_json(last["data"]["score_sheet"]) == canonical_json(ended.rules.final_score(ended.state))
    assert store.meta("g1")["status"] == "scored"


def test_a_retried_ending_append_enqueues_nothing_even_once_the_first_job_is_gone(redis_client, queue_client):
    """The idempotency key answers the retry from the first append's record: nothing is appended, so
    nothing ends again, whatever became of the first scoring job."""
    store = scoring_store(redis_client, queue_client)
    batches = play(scored=False)
    record(store, "g1", batches[:-1])
    (events, command), version = batches[-1], store.version("g1")
    store.append("g1", version, events, command=command, command_id="end", idempotency_key="the-end")
    Job.fetch("score-g1", connection=queue_client).delete()
    retried = store.append("g1", version, events, command=command, command_id="end-again", idempotency_key="the-end")
    assert retried.duplicate
    assert queue(queue_client).job_ids == []


def test_an_ended_game_whose_scoring_cannot_be_enqueued_keeps_its_end(redis_client, queue_client, drain, tmp_path):
    """The job queue's Redis refuses: the append that ended the game stands, and the sweep of a starting
    worker enqueues the scoring."""
    unreachable = redis.Redis(host="127.0.0.1", port=free_port(), socket_connect_timeout=0.5)
    store = EventStore(redis_client, on_ended=partial(enqueue_scoring, unreachable))
    record(store, "g1", play(scored=False))
    assert store.meta("g1")["status"] == "ended"
    assert queue(queue_client).job_ids == []
    sweep(queue_client, queue(queue_client), tmp_path)
    drain()
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


def test_a_move_that_does_not_end_the_game_enqueues_nothing(redis_client, queue_client):
    batches = play(scored=False)
    record(scoring_store(redis_client, queue_client), "g1", batches[:-1])
    assert queue(queue_client).job_ids == []


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


def test_a_running_workers_keeper_enqueues_the_scoring_an_ending_append_could_not(redis_client, queue_client, drain):
    """No worker restarts: the keeper's upkeep finds the game still ``ended`` and enqueues its scoring, once
    for all workers within the sweep's period."""
    unreachable = redis.Redis(host="127.0.0.1", port=free_port(), socket_connect_timeout=0.5)
    store = EventStore(redis_client, on_ended=partial(enqueue_scoring, unreachable))
    record(store, "g1", play(scored=False))
    keepers = [Keeper(queue_client, name, QUEUE) for name in ("w1", "w2")]
    for keeper in keepers:
        keeper.tick()
    assert [job for job in queue(queue_client).job_ids if job.startswith("score-")] == ["score-g1"]
    drain()
    assert store.meta("g1")["status"] == "scored"
