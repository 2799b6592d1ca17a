"""A scoring job that pauses on its first attempt, so a test can stop or kill the worker while it holds the job.

Each attempt records the pid of the worker running it, which tells a test
how many attempts started and on which workers.
"""
from __future__ import annotations

import os
import time

import redis
from rq.job import Job

from workers.context import current_connection
from workers.queues import SCORING, enqueue_once
from workers.scoring import score_game_job

PAUSE_SECONDS = 300


def attempts_key(game_id: str) -> str:
    return f"test:attempts:{game_id}"


def pausing_score_job(game_id: str) -> dict:
    if current_connection().rpush(attempts_key(game_id), os.getpid()) == 1:
        time.sleep(PAUSE_SECONDS)
    return score_game_job(game_id)


def enqueue_pausing_scoring(connection: redis.Redis, game_id: str) -> Job:
    """Under the scoring job's own id, policy and meta, so the API shows it as the game's scoring job."""
    return enqueue_once(connection, f"score-{game_id}", "tests.workers.pausing.pausing_score_job", (game_id,),
                        SCORING, {"kind": "score", "game_id": game_id, "reader": None})


def attempts(connection: redis.Redis, game_id: str) -> list[int]:
    return [int(pid) for pid in connection.lrange(attempts_key(game_id), 0, -1)]
