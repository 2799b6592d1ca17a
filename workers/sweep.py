"""What a crashed worker leaves behind, put right when a worker starts.

* Jobs it was running: RQ notices an abandoned job only once its started
  entry expires (the job's timeout plus a minute) and a worker's maintenance
  runs. A worker starting on the same host can tell sooner: the process
  named in the job's worker record is gone. Such a job is requeued at once
  (the crash was not the job's fault, so no back-off), spending one of its
  retries; with none left, RQ's own abandoned-job handling fails it.
* Partial export files: removed once their writer process is gone
  (:func:`workers.files.sweep_partial_files`).
* Ended games whose scoring job was lost: scoring is enqueued again (scoring
  is idempotent, so a game enqueued twice is scored once).
"""
from __future__ import annotations

import logging
import os
import socket
from pathlib import Path

import redis
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.utils import as_text, parse_composite_key
from rq.worker import BaseWorker

from service.store.keys import index_key
from workers.files import sweep_partial_files
from workers.queues import EXPORT, enqueue_scoring

log = logging.getLogger("cairn.workers")


def worker_gone(connection: redis.Redis, worker_name: str | None) -> bool:
    """The worker's record has expired, or it names a process on this host that no longer exists."""
    if not worker_name:
        return False
    worker = BaseWorker.find_by_key(f"{BaseWorker.redis_worker_namespace_prefix}{worker_name}", connection)
    if worker is None:
        return True
    if worker.hostname != socket.gethostname() or worker.pid is None:
        return False
    try:
        os.kill(worker.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def requeue_abandoned(connection: redis.Redis, queue: Queue) -> list[str]:
    registry = queue.started_job_registry
    requeued, exhausted = [], []
    for entry in connection.zrange(registry.key, 0, -1):
        job_id, _execution = parse_composite_key(as_text(entry))
        try:
            job = Job.fetch(job_id, connection=connection)
        except NoSuchJobError:
            continue
        if job.get_status() != JobStatus.STARTED or not worker_gone(connection, job.worker_name):
            continue
        if job.retries_left:
            job.retries_left -= 1
            with connection.pipeline() as pipe:
                queue.enqueue_job(job, pipeline=pipe)
                pipe.zrem(registry.key, entry)
                pipe.execute()
            requeued.append(job_id)
        else:
            exhausted.append(entry)
    if exhausted:
        connection.zadd(registry.key, dict.fromkeys(exhausted, 0), xx=True)
        registry.cleanup(timestamp=1)
    return requeued


def score_ended_games(connection: redis.Redis) -> list[str]:
    games = [as_text(game) for game in connection.zrange(index_key("status", "ended"), 0, -1)]
    for game_id in games:
        enqueue_scoring(connection, game_id)
    return games


def sweep(connection: redis.Redis, queue: Queue, export_dir: Path) -> None:
    requeued = requeue_abandoned(connection, queue)
    removed = sweep_partial_files(export_dir, older_than=EXPORT.timeout + 60)
    scoring = score_ended_games(connection)
    if requeued or removed or scoring:
        log.info("sweep: requeued %d abandoned jobs, removed %d partial files, scoring %d ended games",
                 len(requeued), len(removed), len(scoring))
