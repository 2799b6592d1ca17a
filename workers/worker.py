"""``python -m workers.worker``: one RQ worker for Cairn's queue.

It is a :class:`rq.SimpleWorker`: jobs run in the worker process itself
instead of a fork per job. Cairn's jobs are short, pure Python and
idempotent, so the fork buys little isolation and costs most of the
throughput (on the reference machine a forking worker drains about 85
trivial jobs/s, a SimpleWorker about 270/s; ``python -m bench.workers``
measures Cairn's own jobs). What isolation is needed stays: a job that
hangs is still stopped by its timeout (RQ's SIGALRM death penalty works in
the worker's main thread), a job that raises leaves the worker running, and
a worker that dies outright has its job requeued by the next worker's
:mod:`workers.sweep` or by RQ's abandoned-job handling. For more throughput,
run more workers (one per core).

The worker runs RQ's scheduler too, which re-enqueues failed jobs after
their back-off, and runs RQ's maintenance every 30 s, so a lost scheduler
lock or an abandoned job is taken over quickly.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from rq import SimpleWorker
from rq.defaults import DEFAULT_WORKER_TTL

from service.store.connection import connect
from workers.queues import queue
from workers.sweep import sweep

MAINTENANCE_SECONDS = 30
DEFAULT_EXPORT_DIR = "var/exports"
# RQ blocks on the queue for up to worker_ttl - 15 s at a time; a read must be allowed to outlast that block.
READ_TIMEOUT_SECONDS = DEFAULT_WORKER_TTL


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--export-dir", type=Path,
                        default=Path(os.environ.get("CAIRN_EXPORT_DIR", DEFAULT_EXPORT_DIR)),
                        help="where exports are written (to sweep partial files left by a crash)")
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    connection = connect(args.url, read_timeout=READ_TIMEOUT_SECONDS)
    jobs = queue(connection)
    sweep(connection, jobs, args.export_dir)
    worker = SimpleWorker([jobs], connection=connection, maintenance_interval=MAINTENANCE_SECONDS)
    worker.work(burst=args.burst, with_scheduler=True, logging_level="INFO")
    return 0


if __name__ == "__main__":
    sys.exit(main())
