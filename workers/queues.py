"""Enqueueing the three jobs: one queue, a fixed timeout and retry policy per job kind, stable job ids.

Job ids are derived from what a job does (``score-<game>``,
``export-<game>-<format>-<version>-<reader>``, ``audit-<game>-<version>``), so
asking twice while a job is queued, running or done returns that job instead
of a second one; a job that failed, was stopped or has expired is enqueued
afresh under the same id. Every job is idempotent anyway, so a race between
two askers costs one wasted run, never a second result.
"""
from __future__ import annotations

from dataclasses import dataclass

import redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

QUEUE = "cairn"
LIVE_STATUSES = (JobStatus.QUEUED, JobStatus.STARTED, JobStatus.SCHEDULED, JobStatus.DEFERRED, JobStatus.FINISHED)
RESULT_TTL = 24 * 3600
FAILURE_TTL = 7 * 24 * 3600
REQUEUED = "requeued"
"""The job's meta key counting how often it was queued again after losing its worker (:mod:`workers.lost_jobs`)."""


@dataclass(frozen=True)
class Policy:
    """How long one attempt may run (seconds), and the back-off between attempts."""

    timeout: int
    backoff: tuple[int, ...]

    def retry(self) -> Retry:
        return Retry(max=len(self.backoff), interval=list(self.backoff))


SCORING = Policy(timeout=60, backoff=(1, 5, 15, 60))
EXPORT = Policy(timeout=900, backoff=(5, 30, 120))
AUDIT = Policy(timeout=1800, backoff=(10, 60, 300))


def queue(connection: redis.Redis) -> Queue:
    return Queue(QUEUE, connection=connection)


def job_connection(connection: redis.Redis) -> redis.Redis:
    """RQ stores pickled payloads, so it needs a client that does not decode replies."""
    pool = connection.connection_pool
    if not pool.connection_kwargs.get("decode_responses"):
        return connection
    kwargs = {**pool.connection_kwargs, "decode_responses": False}
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class, **kwargs))


def enqueue_once(connection: redis.Redis, job_id: str, func: str, args: tuple, policy: Policy, meta: dict) -> Job:
    connection = job_connection(connection)
    try:
        existing = Job.fetch(job_id, connection=connection)
        if existing.get_status() in LIVE_STATUSES:
            return existing
    except NoSuchJobError:
        pass
    return queue(connection).enqueue(
        func, *args, job_id=job_id, job_timeout=policy.timeout, retry=policy.retry(), meta=meta,
        result_ttl=RESULT_TTL, failure_ttl=FAILURE_TTL, description=f"{meta['kind']} {meta['game_id']}",
    )


def enqueue_scoring(connection: redis.Redis, game_id: str) -> Job:
    return enqueue_once(connection, f"score-{game_id}", "workers.scoring.score_game_job", (game_id,), SCORING,
                        {"kind": "score", "game_id": game_id, "reader": None})


def enqueue_export(connection: redis.Redis, game_id: str, fmt: str, version: int, reader: str | None,
                   reader_class: str, export_dir: str) -> Job:
    return enqueue_once(connection, f"export-{game_id}-{fmt}-{version}-{reader_class}", "workers.exports.export_job",
                        (game_id, fmt, version, reader, export_dir), EXPORT,
                        {"kind": "export", "game_id": game_id, "reader": None if reader_class in ("all", "public")
                         else reader_class, "format": fmt, "version": version})


def enqueue_audit(connection: redis.Redis, game_id: str, version: int) -> Job:
    return enqueue_once(connection, f"audit-{game_id}-{version}", "workers.audit.audit_job", (game_id, version), AUDIT,
                        {"kind": "audit", "game_id": game_id, "reader": None, "version": version})
