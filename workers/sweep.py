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

from service.store.keys import index_key
from service.store.replies import text
from workers.context import store_client
from workers.files import sweep_partial_files
from workers.lost_jobs import requeue_lost_jobs
from workers.queues import EXPORT, enqueue_scoring

log = logging.getLogger("cairn.workers")


def score_ended_games(connection: redis.Redis) -> list[str]:
    """Enqueue scoring (on the queue of ``connection``) for every ended game (wherever the games are)."""
    ended = store_client(connection).zrange(index_key(status="ended"), 0, -1)
    games = [text(game) for game in ended]
    for game_id in games:
        enqueue_scoring(connection, game_id)
    return games


def sweep(connection: redis.Redis, queue: Queue, export_dir: Path) -> None:
    requeued = requeue_lost_jobs(connection, queue)
    removed = sweep_partial_files(export_dir, older_than=EXPORT.timeout + 60)
    scoring = score_ended_games(connection)
    if requeued or removed or scoring:
        log.info("sweep: requeued %d jobs of lost workers, removed %d partial files, scoring %d ended games",
                 len(requeued), len(removed), len(scoring))
