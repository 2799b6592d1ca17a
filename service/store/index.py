"""The read model for listing and searching games: sorted sets scored by creation time.

``cairn:{index}:all`` holds every game; ``game:<name>``, ``status:<status>`` and
``player:<lowercased name>`` hold the games with that property. A filtered
listing intersects the sets it needs. Only the status of a game changes after
its creation, so an append touches the index only when it ends or scores a game.
The index keys span games, so they share a hash tag of their own (one slot
of a Redis Cluster) rather than a game's, and are written after the game's own
atomic step.
"""
from __future__ import annotations

import uuid
from datetime import datetime

import redis

from service.store.keys import INDEX_ALL, INDEX_PREFIX, index_key
from service.store.replies import text

STATUSES = ("active", "ended", "scored")


def add(client: redis.Redis, game_id: str, *, game: str, status: str, players: list[str], created: float) -> None:
    """Index a new game under each of its properties, all scored by its creation time."""
    pipe = client.pipeline(transaction=False)
    for key in (INDEX_ALL, index_key("game", game), index_key("status", status)):
        pipe.zadd(key, {game_id: created})
    for name in {player.lower() for player in players}:
        pipe.zadd(index_key("player", name), {game_id: created})
    pipe.execute()


def set_status(client: redis.Redis, game_id: str, status: str) -> None:
    """Move a game to the set of its new status; idempotent, so a repeat repairs a half-done move."""
    created = client.zscore(INDEX_ALL, game_id)
    if created is None:
        return
    pipe = client.pipeline(transaction=True)
    for other in STATUSES:
        if other != status:
            pipe.zrem(index_key("status", other), game_id)
    pipe.zadd(index_key("status", status), {game_id: created})
    pipe.execute()


def epoch(moment: datetime | str | float) -> float:
    """Index scores are POSIX seconds; filters may come as datetimes or ISO 8601 strings."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment.timestamp() if isinstance(moment, datetime) else float(moment)


def query(
    client: redis.Redis,
    *,
    game: str | None,
    status: str | None,
    player: str | None,
    created_after: datetime | str | float | None,
    created_before: datetime | str | float | None,
    offset: int,
    limit: int,
) -> tuple[list[str], int]:
    """Game ids matching every filter, newest first, one page of them, and how many match in all.

    ``created_after`` and ``created_before`` are exclusive bounds.
    """
    filters = []
    if game is not None:
        filters.append(index_key("game", game))
    if status is not None:
        filters.append(index_key("status", status))
    if player is not None:
        filters.append(index_key("player", player.lower()))
    low = f"({epoch(created_after)}" if created_after is not None else "-inf"
    high = f"({epoch(created_before)}" if created_before is not None else "+inf"
    pipe = client.pipeline(transaction=True)
    intersect = len(filters) > 1
    source = filters[0] if len(filters) == 1 else INDEX_ALL
    if intersect:
        source = f"{INDEX_PREFIX}scratch:{uuid.uuid4().hex}"
        pipe.zinterstore(source, filters, aggregate="MAX")
    pipe.zcount(source, low, high)
    pipe.zrange(source, high, low, desc=True, byscore=True, offset=offset, num=limit)
    if intersect:
        pipe.delete(source)
    replies = pipe.execute()
    total, page = replies[1:3] if intersect else replies
    return [text(member) for member in page], total
