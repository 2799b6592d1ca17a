"""Jobs a lost worker held, put back at the front of the queue, by whichever worker sweeps first.

Every worker offers to sweep every :data:`SWEEP_SECONDS` (5 s, see
:mod:`workers.keeper`) and a Redis lock lets one of them do it, so a job a
worker held when it died is queued again within 25 s of the death, and
finished by the next free worker. Two places can hold it:

* RQ's StartedJobRegistry, once the job has started: its execution names its
  worker. If that worker is lost (:func:`workers.liveness.worker_lost`), the
  job is requeued at once, with no back-off since the crash was not the job's
  fault, spending one of its retries so a job that kills its worker cannot
  loop for ever. With none left, RQ's own abandoned-job handling fails it.
  The pulse lapses within :data:`~workers.liveness.PULSE_TTL` (15 s) of the
  death and the next sweep finds it: requeued within 20 s.
  An entry whose expiry has passed is left to RQ's maintenance, which owns
  expired entries; that only happens when no Cairn worker ran for the job's
  whole timeout.
* The queue's intermediate list, where RQ moves a job it hands to a worker
  before the worker records its start, milliseconds later. It does not say
  which worker took the job, so a job still there, unstarted, on a sweep at
  least :data:`STUCK_SECONDS` (15 s) after a sweep first saw it there is
  taken as lost: by then the worker that took it has either started it or
  let its pulse lapse. Requeued within 25 s (a sweep sees it within 5 s),
  spending no retry since the job never ran; RQ would fail it after a minute.

Each requeue is a Redis transaction that watches the registry or list it
takes the job from, so a job is requeued once even when a worker starts it,
or RQ's maintenance moves it, at the same moment. The job's ``requeued``
count (in its meta, shown by ``GET /jobs/{id}``) goes up by one each time.
"""
from __future__ import annotations

import logging
from typing import cast

import redis
from redis.client import Pipeline
from redis.exceptions import WatchError
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.executions import Execution
from rq.job import Job, JobStatus
from rq.utils import parse_composite_key

from service.store.replies import text
from workers.liveness import PULSE_SECONDS, PULSE_TTL, worker_lost
from workers.queues import REQUEUED

log = logging.getLogger("cairn.workers")

SWEEP_SECONDS = PULSE_SECONDS
STUCK_SECONDS = PULSE_TTL


def sweep_lost_jobs(connection: redis.Redis, queue: Queue) -> list[str]:
    """Requeue the lost jobs of ``queue``, unless a worker has swept it within the last :data:`SWEEP_SECONDS`.

    The lock is left to expire rather than released, so however many workers
    run, the queue is swept about once per interval, not once per worker.
    """
    if not connection.set(f"cairn:lost-jobs-sweep:{queue.name}", 1, nx=True, ex=SWEEP_SECONDS - 1):
        return []
    return requeue_lost_jobs(connection, queue)


def requeue_lost_jobs(connection: redis.Redis, queue: Queue) -> list[str]:
    now = redis_now(connection)
    registry_key = queue.started_job_registry.key
    requeued, exhausted = [], []
    # (member, score) pairs: redis-py types the replies of every form of ZRANGE alike.
    started = cast(list[tuple[bytes, float]], connection.zrange(registry_key, 0, -1, withscores=True))
    for member, expires in started:
        entry = text(member)
        if expires <= now:
            continue
        outcome = _requeue_started(connection, queue, entry)
        if outcome == "requeued":
            requeued.append(parse_composite_key(entry)[0])
        elif outcome == "exhausted":
            exhausted.append(entry)
    if exhausted:
        _fail_abandoned(connection, queue, exhausted)
    requeued.extend(job_id for job_id in _intermediate_ids(connection, queue) if _requeue_stuck(
        connection, queue, job_id, now))
    return requeued


def redis_now(connection: redis.Redis) -> float:
    """The Redis server's clock, so sweeps by workers on different hosts agree on how old a mark is."""
    seconds, micros = connection.time()
    return seconds + micros / 1_000_000


def _requeue_started(connection: redis.Redis, queue: Queue, entry: str) -> str | None:
    job_id = parse_composite_key(entry)[0]
    execution = _execution(connection, entry)
    job = _job(connection, job_id)
    if job is None or not worker_lost(connection, execution.worker_name or job.worker_name):
        return None
    execution.worker_name = execution.worker_name or job.worker_name or ""
    registry_key = queue.started_job_registry.key
    with connection.pipeline() as pipe:
        try:
            pipe.watch(registry_key, job.key)
            job = _job(connection, job_id)
            if pipe.zscore(registry_key, entry) is None or job is None:
                return None
            if job.get_status(refresh=False) not in (JobStatus.STARTED, JobStatus.QUEUED):
                return None
            if not job.retries_left:
                return "exhausted"
            job.retries_left -= 1
            pipe.multi()
            execution.delete(job, pipeline=pipe)
            pipe.lrem(queue.intermediate_queue_key, 0, job_id)
            _put_back(queue, job, pipe)
            pipe.execute()
        except WatchError:
            return None
    log.info("requeued job %s: its worker %s is lost", job_id, execution.worker_name)
    return "requeued"


def _fail_abandoned(connection: redis.Redis, queue: Queue, entries: list[str]) -> None:
    """RQ's abandoned-job handling, brought forward: marked as expired, the entries are failed by RQ's cleanup."""
    registry = queue.started_job_registry
    connection.zadd(registry.key, dict.fromkeys(entries, 0), xx=True)
    registry.cleanup(timestamp=0)
    for entry in entries:
        connection.lrem(queue.intermediate_queue_key, 0, parse_composite_key(entry)[0])
    log.warning("failed %d jobs of lost workers: no retries left", len(entries))


def _intermediate_ids(connection: redis.Redis, queue: Queue) -> list[str]:
    return list(dict.fromkeys(text(job_id) for job_id in connection.lrange(queue.intermediate_queue_key, 0, -1)))


def _requeue_stuck(connection: redis.Redis, queue: Queue, job_id: str, now: float) -> bool:
    job = _job(connection, job_id)
    if job is None or job.get_status(refresh=False) != JobStatus.QUEUED or _started(connection, queue, job_id):
        return False
    mark = _stuck_mark(job)
    first_seen = connection.get(mark)
    if first_seen is None:
        connection.set(mark, now, ex=STUCK_SECONDS + 4 * SWEEP_SECONDS, nx=True)
        return False
    if now - float(first_seen) < STUCK_SECONDS:
        return False
    intermediate_key = queue.intermediate_queue_key
    with connection.pipeline() as pipe:
        try:
            pipe.watch(intermediate_key, queue.started_job_registry.key, job.key)
            job = _job(connection, job_id)
            if (job is None or job.get_status(refresh=False) != JobStatus.QUEUED or _started(connection, queue, job_id)
                    or job_id not in {text(found) for found in pipe.lrange(intermediate_key, 0, -1)}):
                return False
            pipe.multi()
            pipe.lrem(intermediate_key, 0, job_id)
            pipe.delete(mark, queue.intermediate_queue.get_first_seen_key(job_id))
            _put_back(queue, job, pipe)
            pipe.execute()
        except WatchError:
            return False
    log.info("requeued job %s: the worker that took it never started it", job_id)
    return True


def _stuck_mark(job: Job) -> str:
    """Per enqueueing of the job (its ``enqueued_at``), so a mark never outlives the stay it was set for."""
    enqueued = job.enqueued_at.timestamp() if job.enqueued_at else 0
    return f"cairn:stuck-since:{job.id}:{enqueued}"


def _put_back(queue: Queue, job: Job, pipe: Pipeline) -> None:
    """At the front of the queue, counted, and with the lost attempt's progress forgotten."""
    job.meta[REQUEUED] = int(job.meta.get(REQUEUED, 0)) + 1
    job.meta.pop("progress", None)
    queue.enqueue_job(job, pipeline=pipe, at_front=True)


def _started(connection: redis.Redis, queue: Queue, job_id: str) -> bool:
    entries = connection.zrange(queue.started_job_registry.key, 0, -1)
    return any(parse_composite_key(text(entry))[0] == job_id for entry in entries)


def _execution(connection: redis.Redis, entry: str) -> Execution:
    """The execution of a registry entry; its record may have expired, and then its worker is read from the job."""
    execution = Execution.from_composite_key(entry, connection)
    try:
        execution.refresh()
    except ValueError:
        execution.worker_name = ""
    return execution


def _job(connection: redis.Redis, job_id: str) -> Job | None:
    try:
        return Job.fetch(job_id, connection=connection)
    except NoSuchJobError:
        return None
