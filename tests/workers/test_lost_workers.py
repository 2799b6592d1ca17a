"""Jobs whose worker is lost are queued again within 30 s and finished once, with real worker processes.

The job is a scoring job that pauses on its first attempt
(:mod:`tests.workers.pausing`); the first worker is frozen (SIGSTOP) as soon
as it has started it, so it cannot finish it, then killed or left frozen.
The second worker is already running by then, past its start-up sweep, so
only its periodic sweep can find the job. Each test prints how long the
requeue and the finish took (run with ``-s`` to see them).
"""
from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest
from rq import Queue, SimpleWorker
from rq.job import Job
from rq.worker import BaseWorker

from domain.registry import get_rules
from tests.api.conftest import FAST, Api, serve
from tests.workers.pausing import attempts, enqueue_pausing_scoring
from tests.workers.records import play, record
from tests.workers.test_failures import kill_group, start_worker, wait_for
from workers.liveness import PULSE_TTL
from workers.lost_jobs import SWEEP_SECONDS, requeue_lost_jobs
from workers.queues import SCORING, enqueue_scoring, queue

LIMIT = 30


@pytest.fixture
def api(redis_server, redis_client, export_dir) -> Iterator[Api]:
    for base in serve({"REDIS_URL": redis_server.url, "EXPORT_DIR": str(export_dir), **FAST}):
        yield Api(base)


@pytest.fixture
def workers(redis_server, export_dir) -> Iterator[list[subprocess.Popen]]:
    """Start workers with ``workers.append(start_worker(...))``; every one is killed at the end."""
    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        kill_group(process)


def ended_game(store) -> str:
    record(store, "g1", play(players=("Ann", "Bo"), choice=3, rules=get_rules("borealis"), scored=False))
    return "g1"


def workers_alive(redis_client) -> int:
    return len(BaseWorker.all(connection=redis_client))


class JobWatch:
    """Polls ``GET /jobs/{id}`` (each answer checked against the contract) and notes when each thing was seen."""

    def __init__(self, api: Api, job_id: str) -> None:
        self.api = api
        self.job_id = job_id
        self.statuses: list[str] = []
        self.requeued_at: float | None = None

    def poll(self) -> dict:
        body = self.api.get(f"/jobs/{self.job_id}").json()
        if not self.statuses or self.statuses[-1] != body["status"]:
            self.statuses.append(body["status"])
        if body["requeued"] and self.requeued_at is None:
            self.requeued_at = time.monotonic()
        return body

    def until(self, status: str, seconds: float) -> dict:
        return wait_for(lambda: (body := self.poll())["status"] == status and body, seconds, 0.05)


def lose_the_worker_holding_the_job(store, redis_client, redis_server, export_dir, api, workers, kill: bool):
    """Worker A starts the pausing job and is frozen; B starts; A is then killed (or left frozen).

    Returns the game, the job, its watch, when A was lost, and the finished job's answer.
    """
    game_id = ended_game(store)
    workers.append(start_worker(redis_server.url, export_dir))
    job = enqueue_pausing_scoring(redis_client, game_id)
    watch = JobWatch(api, job.id)
    watch.until("started", LIMIT)
    wait_for(lambda: attempts(redis_client, game_id), LIMIT)
    os.killpg(workers[0].pid, signal.SIGSTOP)
    lost_at = time.monotonic()
    workers.append(start_worker(redis_server.url, export_dir))
    wait_for(lambda: workers_alive(redis_client) == 2, LIMIT)
    if kill:
        kill_group(workers.pop(0))
        lost_at = time.monotonic()
    assert watch.poll()["status"] == "started" and watch.requeued_at is None
    finished = watch.until("finished", 60)
    return game_id, job, watch, lost_at, finished


def assert_ran_once_to_completion(store, redis_client, game_id: str, job: Job, watch: JobWatch, finished: dict,
                                  first_pid: int) -> None:
    events = store.read(game_id, 1)
    assert [event["type"] for event in events].count("game_scored") == 1
    assert events[-1]["type"] == "game_scored"
    done = Job.fetch(job.id, connection=redis_client)
    assert done.return_value() == {"outcome": "scored", "version": events[-1]["version"]}
    runs = attempts(redis_client, game_id)
    assert len(runs) == 2 and runs[0] == first_pid and runs[1] != first_pid
    assert finished["requeued"] == 1 and finished["retries_left"] == len(SCORING.backoff) - 1
    assert finished["result_url"] == f"/games/{game_id}/score"
    assert watch.statuses[-1] == "finished" and "started" in watch.statuses[:-1]


def test_a_job_whose_worker_is_killed_is_requeued_by_a_running_worker_and_finished_once(
        store, redis_client, redis_server, export_dir, api, workers):
    game_id, job, watch, killed_at, finished = lose_the_worker_holding_the_job(
        store, redis_client, redis_server, export_dir, api, workers, kill=True)
    done_at = time.monotonic()
    first_pid = attempts(redis_client, game_id)[0]
    assert watch.requeued_at is not None and watch.requeued_at - killed_at < LIMIT
    print(f"\nkilled worker: requeued {watch.requeued_at - killed_at:.1f} s after SIGKILL, "
          f"finished {done_at - killed_at:.1f} s after")
    assert_ran_once_to_completion(store, redis_client, game_id, job, watch, finished, first_pid)


def test_a_job_whose_worker_is_frozen_is_requeued_once_its_pulse_lapses(
        store, redis_client, redis_server, export_dir, api, workers):
    game_id, job, watch, frozen_at, finished = lose_the_worker_holding_the_job(
        store, redis_client, redis_server, export_dir, api, workers, kill=False)
    done_at = time.monotonic()
    assert watch.requeued_at is not None and watch.requeued_at - frozen_at < LIMIT
    print(f"\nfrozen worker: requeued {watch.requeued_at - frozen_at:.1f} s after SIGSTOP, "
          f"finished {done_at - frozen_at:.1f} s after")
    assert_ran_once_to_completion(store, redis_client, game_id, job, watch, finished, workers[0].pid)


def test_a_job_taken_from_the_queue_by_a_worker_that_died_before_starting_it_is_requeued(
        store, redis_client, redis_server, export_dir, api, workers):
    game_id = ended_game(store)
    job = enqueue_scoring(redis_client, game_id)
    taken, _queue = Queue.dequeue_any([queue(redis_client)], None, connection=redis_client)
    died_at = time.monotonic()
    assert taken.id == job.id and redis_client.lrange(queue(redis_client).intermediate_queue_key, 0, -1)
    workers.append(start_worker(redis_server.url, export_dir))
    watch = JobWatch(api, job.id)
    finished = watch.until("finished", 60)
    done_at = time.monotonic()
    assert watch.requeued_at is not None and watch.requeued_at - died_at < LIMIT
    print(f"\nworker lost between dequeue and start: requeued {watch.requeued_at - died_at:.1f} s after, "
          f"finished {done_at - died_at:.1f} s after")
    assert watch.statuses[0] == "queued" and watch.statuses[-1] == "finished"
    assert finished["requeued"] == 1 and finished["retries_left"] == len(SCORING.backoff)
    assert [event["type"] for event in store.read(game_id, 1)].count("game_scored") == 1
    assert redis_client.lrange(queue(redis_client).intermediate_queue_key, 0, -1) == []


def test_a_job_held_by_a_live_worker_is_left_alone(store, redis_client, redis_server, export_dir, api, workers):
    game_id = ended_game(store)
    workers.append(start_worker(redis_server.url, export_dir))
    job = enqueue_pausing_scoring(redis_client, game_id)
    watch = JobWatch(api, job.id)
    watch.until("started", LIMIT)
    workers.append(start_worker(redis_server.url, export_dir))
    wait_for(lambda: workers_alive(redis_client) == 2, LIMIT)
    time.sleep(PULSE_TTL + 2 * SWEEP_SECONDS)
    body = watch.poll()
    assert body["status"] == "started" and body["requeued"] == 0 and len(attempts(redis_client, game_id)) == 1


def held_by_a_worker_that_never_was(redis_client, job: Job) -> Job:
    """RQ's own steps of a worker taking and starting ``job``, by a worker whose record was never written."""
    taken, jobs = Queue.dequeue_any([queue(redis_client)], None, connection=redis_client)
    worker = SimpleWorker([jobs], connection=redis_client, name="vanished")
    worker.prepare_execution(taken)
    worker.prepare_job_execution(taken, remove_from_intermediate_queue=True)
    return Job.fetch(job.id, connection=redis_client)


def test_a_lost_job_with_no_retries_left_is_failed_by_rqs_abandoned_job_handling(store, redis_client):
    job = enqueue_scoring(redis_client, ended_game(store))
    job.retries_left = 0
    job.save()
    assert held_by_a_worker_that_never_was(redis_client, job).get_status() == "started"
    assert requeue_lost_jobs(redis_client, queue(redis_client)) == []
    failed = Job.fetch(job.id, connection=redis_client)
    assert failed.get_status() == "failed" and "AbandonedJobError" in failed.latest_result().exc_string
    assert queue(redis_client).started_job_registry.get_job_ids() == [] and queue(redis_client).count == 0


def test_a_lost_job_is_requeued_once_however_often_it_is_swept(store, redis_client):
    job = enqueue_scoring(redis_client, ended_game(store))
    held_by_a_worker_that_never_was(redis_client, job)
    jobs = queue(redis_client)
    assert requeue_lost_jobs(redis_client, jobs) == [job.id]
    assert requeue_lost_jobs(redis_client, jobs) == []
    requeued = Job.fetch(job.id, connection=redis_client)
    assert requeued.get_status() == "queued" and requeued.meta["requeued"] == 1
    assert requeued.retries_left == len(SCORING.backoff) - 1
    assert jobs.get_job_ids() == [job.id] and jobs.started_job_registry.get_job_ids() == []
