"""The store's upkeep, offered by every worker's keeper and done by one of them at a time.

* The index sweep: games whose index write a crash cut off (noted in the
  index's journal for longer than its grace period) get their entries rebuilt
  from their metas (:func:`service.store.index.repair_pending`). It costs one
  ``ZRANGE`` when there is nothing to repair, so the keeper runs it itself,
  at most once per :data:`INDEX_SWEEP_SECONDS` across all workers.
* Compaction: games scored longer ago than ``CAIRN_COMPACT_AFTER_SECONDS``
  are compacted (:mod:`service.store.compaction`) by a job the keeper enqueues
  at most once per :data:`COMPACTION_SECONDS`, since compacting a long game
  could hold the keeper past its pulse. A job works through the due games
  for up to :data:`COMPACTION_BUDGET_SECONDS` and leaves the rest to the next.
* Owed scoring: an ended game is scored by the job its ending append enqueues;
  when the queue's Redis refused that job while the store took the move, the
  game stays ``ended``. The keeper enqueues scoring for every such game at most
  once per :data:`SCORING_SWEEP_SECONDS` across all workers, so it is scored
  while the workers run, not only when one starts.
"""
from __future__ import annotations

import time

import redis
from rq.job import Job

from service.store import compaction, index, keys
from service.store.connection import StoreClient
from service.store.replies import text
from workers.context import current_connection, store_client
from workers.queues import Policy, enqueue_once, enqueue_scoring

INDEX_SWEEP_SECONDS = 15
SCORING_SWEEP_SECONDS = 30
COMPACTION_SECONDS = 60
COMPACTION_BUDGET_SECONDS = 240
COMPACTION_BATCH = 50
COMPACTION = Policy(timeout=COMPACTION_BUDGET_SECONDS + 60, backoff=(30,))


def sweep_index(connection: redis.Redis) -> list[str]:
    """Repair the index of games a crash left behind, unless a worker did within :data:`INDEX_SWEEP_SECONDS`."""
    if not connection.set("cairn:index-sweep", 1, nx=True, ex=INDEX_SWEEP_SECONDS):
        return []
    return index.repair_pending(store_client(connection))


def offer_owed_scoring(connection: redis.Redis) -> list[str]:
    """Enqueue the scoring of every ended, unscored game, unless a worker did within
    :data:`SCORING_SWEEP_SECONDS`. A game whose job is queued or running is not enqueued twice (the job id
    names the game), and a scored game is no longer in the ``ended`` index."""
    if not connection.set("cairn:scoring-sweep", 1, nx=True, ex=SCORING_SWEEP_SECONDS):
        return []
    return score_ended_games(connection)


def score_ended_games(connection: redis.Redis) -> list[str]:
    """Enqueue scoring (on the queue of ``connection``) for every ended game (wherever the games are)."""
    ended = [text(game) for game in store_client(connection).zrange(keys.index_key(status="ended"), 0, -1)]
    for game_id in ended:
        enqueue_scoring(connection, game_id)
    return ended


def offer_compaction(connection: redis.Redis) -> Job | None:
    """Enqueue a compaction job, unless one was offered within :data:`COMPACTION_SECONDS`.

    Its id names the period, so a finished job of an earlier one does not stand in for it.
    """
    if not connection.set("cairn:compaction-offer", 1, nx=True, ex=COMPACTION_SECONDS):
        return None
    period = int(time.time() // COMPACTION_SECONDS)
    return enqueue_once(connection, f"compaction-{period}", "workers.maintenance.compaction_job", (), COMPACTION,
                        {"kind": "compaction", "game_id": None, "reader": None})


def compact_due_games(connection: StoreClient, *, older_than: float, budget: float) -> dict[str, int]:
    """Compact due games in batches until none is left or ``budget`` seconds are spent; outcomes counted."""
    counts: dict[str, int] = {}
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        outcomes = compaction.compact_due(connection, older_than=older_than, limit=COMPACTION_BATCH)
        for outcome in outcomes.values():
            counts[outcome] = counts.get(outcome, 0) + 1
        if len(outcomes) < COMPACTION_BATCH or set(outcomes.values()) == {"changed"}:
            break
    return counts


def compaction_job() -> dict[str, int]:
    return compact_due_games(store_client(current_connection()), older_than=compaction.after_seconds(),
                             budget=COMPACTION_BUDGET_SECONDS)
