"""What a crashed worker leaves behind, put right when a worker starts.

* Jobs it held: requeued (:mod:`workers.lost_jobs`), as every running
  worker's keeper does every few seconds; at start-up the sweep does not
  wait for the lock, so a worker started after a crash looks at once.
* Partial export files: removed once their writer process is gone
  (:func:`workers.files.sweep_partial_files`).
* Ended games whose scoring job was lost: scoring is enqueued again (scoring
  is idempotent, so a game enqueued twice is scored once).
"""
from __future__ import annotations

import logging
from pathlib import Path

import redis
from rq import Queue

from workers.files import sweep_partial_files
from workers.lost_jobs import requeue_lost_jobs
from workers.maintenance import score_ended_games
from workers.queues import EXPORT

log = logging.getLogger("cairn.workers")


def sweep(connection: redis.Redis, queue: Queue, export_dir: Path) -> None:
    requeued = requeue_lost_jobs(connection, queue)
    removed = sweep_partial_files(export_dir, older_than=EXPORT.timeout + 60)
    scoring = score_ended_games(connection)
    if requeued or removed or scoring:
        log.info("sweep: requeued %d jobs of lost workers, removed %d partial files, scoring %d ended games",
                 len(requeued), len(removed), len(scoring))
