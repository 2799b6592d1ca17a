"""``python -m workers.worker``: one RQ worker for Cairn's queue.

It is a :class:`rq.SimpleWorker`: jobs run in the worker process itself
instead of a fork per job. Cairn's jobs are short, pure Python and
idempotent, so the fork buys little isolation and costs most of the
throughput (on the reference machine a forking worker drains about 85
trivial jobs/s, a SimpleWorker about 270/s; ``python -m bench.workers``
measures Cairn's own jobs). What isolation is needed stays: a job that
hangs is still stopped by its timeout (RQ's SIGALRM death penalty works in
the worker's main thread), a job that raises leaves the worker running, and
a worker that dies outright (killed, frozen, its host lost) has its job
queued again by another worker within 25 s and finished by the next free
one: each worker keeps a pulse and sweeps for the jobs of lost workers from
a thread beside its jobs (:mod:`workers.keeper`, :mod:`workers.lost_jobs`),
and sweeps once more when it starts (:mod:`workers.sweep`). For more
throughput, run more workers (one per core).

The worker runs RQ's scheduler too, which re-enqueues failed jobs after
their back-off, and runs RQ's maintenance every 30 s between jobs (an idle
worker waits at most :data:`WORKER_TTL` - 15 s for a job before looking), so
a lost scheduler lock is taken over quickly.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from rq import SimpleWorker

from service.store.connection import Locations, connect
from workers.keeper import Keeper
from workers.liveness import PULSE_FIELD, PULSE_TTL
from workers.queues import queue
from workers.sweep import sweep

MAINTENANCE_SECONDS = 30
WORKER_TTL = 45
# RQ blocks on the queue for up to worker_ttl - 15 s at a time; a read must be allowed to outlast that block.
READ_TIMEOUT_SECONDS = WORKER_TTL
DEFAULT_URL = "redis://127.0.0.1:6379/0"
# RQ's command channel thread reads every 60 s, and a warm shutdown's unsubscribe waits on that read: a stopped
# worker lingered up to a minute. Reading every second lets it stop within about one.
COMMAND_READ_SECONDS = 1.0


class CairnWorker(SimpleWorker):
    """A SimpleWorker whose keeper thread runs from before its birth is recorded until after its death.

    The pulse starts first because the record says the worker keeps one
    (:data:`~workers.liveness.PULSE_FIELD`): a record without a live pulse
    means a lost worker.
    """

    keeper: Keeper | None = None

    def serialize(self) -> dict:
        return {**super().serialize(), PULSE_FIELD: PULSE_TTL}

    def subscribe(self) -> None:
        """RQ's command channel (kill the horse, stop a job, shut down), read every :data:`COMMAND_READ_SECONDS`."""
        self.log.info("Worker %s: subscribing to channel %s", self.name, self.pubsub_channel_name)
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        # RQ annotates the attribute as None, the value its own subscribe replaces with the same kind of thread.
        self.pubsub_thread = self.pubsub.run_in_thread(  # type: ignore[assignment]
            sleep_time=COMMAND_READ_SECONDS, daemon=True, exception_handler=self._pubsub_exception_handler)

    def bootstrap(self, *args, **kwargs) -> None:
        self.keeper = Keeper(self.connection, self.name, self.queues[0].name)
        self.keeper.start()
        super().bootstrap(*args, **kwargs)

    def teardown(self) -> None:
        try:
            super().teardown()
        finally:
            if self.keeper is not None:
                self.keeper.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=Locations.from_environment(default_url=DEFAULT_URL).queue,
                        help="the queue's Redis (default: CAIRN_QUEUE_URL, else REDIS_URL); with REDIS_CLUSTER_URL "
                             "the games are on that cluster")
    parser.add_argument("--export-dir", type=Path, default=default_export_dir(),
                        help="where exports are written (to sweep partial files left by a crash); default: "
                             "CAIRN_EXPORT_DIR, else <CAIRN_DATA_DIR>/exports, as the API")
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    connection = connect(args.url, read_timeout=READ_TIMEOUT_SECONDS)
    jobs = queue(connection)
    sweep(connection, jobs, args.export_dir)
    worker = CairnWorker([jobs], connection=connection, maintenance_interval=MAINTENANCE_SECONDS,
                         worker_ttl=WORKER_TTL)
    worker.work(burst=args.burst, with_scheduler=True, logging_level="INFO")
    return 0


def default_export_dir() -> Path:
    """Where the API of the same data folder has exports written: ``CAIRN_EXPORT_DIR``, else the data folder's
    ``exports`` (``CAIRN_DATA_DIR``, which ``cairn serve`` sets, else ./var), made absolute."""
    configured = os.environ.get("CAIRN_EXPORT_DIR")
    return Path(configured or Path(os.environ.get("CAIRN_DATA_DIR", "var")) / "exports").resolve()


if __name__ == "__main__":
    sys.exit(main())
