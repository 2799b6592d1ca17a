"""The thread in every worker that keeps its pulse, sweeps for the jobs of lost workers and offers the store's
upkeep (:mod:`workers.maintenance`: the index sweep, owed scoring and compaction jobs).

A thread, not RQ's maintenance hook: a :class:`rq.SimpleWorker` runs RQ's
maintenance only between jobs, so a worker busy with a quarter-hour export
would neither show it is alive nor requeue a dead colleague's job. The
thread runs beside the job, and is killed or frozen with the process, which
is what makes its pulse a proof of life.

It has a Redis client of its own, so the pulses do not queue behind a job's
commands, and the scheduler process RQ forks never inherits a connection in
the middle of a pulse.
"""
from __future__ import annotations

import logging
import threading
from contextlib import suppress

import redis
from rq import Queue

from workers.liveness import PULSE_SECONDS, beat, stop_beating
from workers.lost_jobs import sweep_lost_jobs
from workers.maintenance import offer_compaction, offer_owed_scoring, sweep_index

log = logging.getLogger("cairn.workers")


def own_client(connection: redis.Redis) -> redis.Redis:
    """A client on its own connection pool, to the same server with the same options."""
    pool = connection.connection_pool
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class,
                                                            **pool.connection_kwargs))


class Keeper(threading.Thread):
    def __init__(self, connection: redis.Redis, worker_name: str, queue_name: str) -> None:
        super().__init__(name=f"keeper-{worker_name}", daemon=True)
        self.connection = own_client(connection)
        self.worker_name = worker_name
        self.queue = Queue(queue_name, connection=self.connection)
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.tick()
            self.stopping.wait(PULSE_SECONDS)
        with suppress(redis.RedisError):
            stop_beating(self.connection, self.worker_name)
        self.connection.close()

    def tick(self) -> None:
        """One pulse, one offer to sweep and one of upkeep; nothing it meets may end the thread.

        A keeper that died would leave its worker running jobs with no pulse,
        so the other workers would requeue those jobs while they still run.
        """
        try:
            beat(self.connection, self.worker_name)
            requeued = sweep_lost_jobs(self.connection, self.queue)
            repaired = sweep_index(self.connection)
            offer_compaction(self.connection)
            owed = offer_owed_scoring(self.connection)
        except redis.RedisError as error:
            log.warning("worker %s could not keep its pulse: %s", self.worker_name, error)
        except Exception:
            log.exception("worker %s: a sweep failed", self.worker_name)
        else:
            if requeued:
                log.info("requeued %d jobs of lost workers: %s", len(requeued), ", ".join(requeued))
            if owed:
                log.info("enqueued the owed scoring of %d ended games: %s", len(owed), ", ".join(owed))
            if repaired:
                log.info("repaired the index entries of %d games: %s", len(repaired), ", ".join(repaired))

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=PULSE_SECONDS)
