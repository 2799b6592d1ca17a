"""Final scoring: once a game has ended, append its score sheet as a ``game_scored`` event, exactly once.

The append carries the expected version and the idempotency key ``score``,
and the store checks the key before the version, so a job that runs twice
(a retry after a crash, two workers racing) appends once and the second run
is told it is a duplicate.
"""
from __future__ import annotations

from domain.core.events import make_event
from domain.core.table import score_sheet
from service.store import EventStore, VersionConflict
from workers.context import current_store

IDEMPOTENCY_KEY = "score"


class GameNotEnded(Exception):
    """Scoring was asked for a game that is still being played."""


def score_game(store: EventStore, game_id: str) -> dict:
    """Append the score sheet; ``{"outcome": "scored" | "already_scored", "version": v}``."""
    for _attempt in range(3):
        match = store.load(game_id)
        if match.score is not None:
            return {"outcome": "already_scored", "version": match.version}
        if not match.ended:
            raise GameNotEnded(f"game {game_id} has not ended")
        sheet = score_sheet(match)
        scored = make_event("game_scored", {"score_sheet": sheet})
        try:
            result = store.append(game_id, match.version, [scored], command=None, command_id=f"score-{game_id}",
                                  idempotency_key=IDEMPOTENCY_KEY)
        except VersionConflict:
            continue
        return {"outcome": "already_scored" if result.duplicate else "scored", "version": result.last_version}
    raise VersionConflict(game_id, match.version, store.version(game_id))


def score_game_job(game_id: str) -> dict:
    return score_game(current_store(), game_id)
