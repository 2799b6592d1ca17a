"""The read model for listing games: one sorted set per combination of filter values, scored by creation time.

A game is filed under every combination of its game name, its status and each
of its players (lowercased), with any of the three left out (a scored game under
both ``ended`` and ``scored``, see :data:`FILED_UNDER`): ``cairn:{index}:all``,
``cairn:{index}:game=borealis``, ``cairn:{index}:game=borealis&status=active&player=ann``
and so on, 4 + 4 × players sets in all (6 + 6 × players once scored). Any listing the API offers is then
one sorted set: its count is a ``ZCOUNT`` and its page a ``ZRANGE`` by rank,
O(log N + page) however many games there are and whatever the offset, and
nothing else waits while it runs (no ``ZINTERSTORE`` over whole sets).

Only the status of a game changes after its creation, so only a create and an
append that ends or scores a game touch the index. The index keys span games,
so on a Redis Cluster they cannot share a game's slot: they share a hash tag of
their own (``{index}``, one slot) and are written after the game's own atomic
step. A crash between the two would leave the index
behind the game; so before that step the game is noted in the journal
``cairn:{index}:pending`` and struck off once its index is written. A sweep
(:func:`repair_pending`) rebuilds the entries of games noted for longer than
a grace period from their metas, and :func:`rebuild` rebuilds the whole index
from the games themselves (``cairn reindex``).

A scored game is also noted in ``cairn:{index}:compaction-due`` with the time it
was scored, for :mod:`service.store.compaction`.
"""
from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Iterator
from datetime import datetime
from itertools import product

from redis.commands.core import Script

from service.store import seats
from service.store.connection import StoreClient, script_client
from service.store.keys import INDEX_PREFIX, game_keys, index_key
from service.store.replies import text, text_hash

STATUSES = ("active", "ended", "scored")
# The status sets a game of each status is filed under. A scored game has ended (scoring follows the end at
# once), so a listing of ended games, which a player reads as "games that are over", holds it too.
FILED_UNDER = {"active": ("active",), "ended": ("ended",), "scored": ("ended", "scored")}
PENDING = f"{INDEX_PREFIX}pending"
COMPACTION_DUE = f"{INDEX_PREFIX}compaction-due"
# A game noted in the journal for this long is taken as left behind by a crash: no write takes this long.
PENDING_GRACE_SECONDS = 30.0
# Keys of the index's earlier layouts, removed by a rebuild: one set per property, intersected per listing,
# first with no hash tag of their own (every key under ``cairn:index:``), then under the index's tag.
UNTAGGED_PREFIX = "cairn:index:"
LEGACY_PREFIXES = (UNTAGGED_PREFIX, *(f"{INDEX_PREFIX}{kind}:" for kind in ("game", "status", "player", "scratch")))

log = logging.getLogger("cairn.store")

LISTING = """\
-- One page of a combination set, newest first, and how many of its games lie between the bounds.
-- KEYS: the set. ARGV: low and high score bounds (ZCOUNT syntax), the inclusive form of the high bound
-- ('' when it is +inf), offset, limit.
-- Both counts are O(log N) and the page is a ZRANGE by rank, O(log N + limit), whatever the offset.
local total = redis.call('ZCOUNT', KEYS[1], ARGV[1], ARGV[2])
local newer = 0
if ARGV[3] ~= '' then
  newer = redis.call('ZCOUNT', KEYS[1], ARGV[3], '+inf')
end
local offset, limit = tonumber(ARGV[4]), tonumber(ARGV[5])
if offset >= total or limit <= 0 then
  return {total, {}}
end
local last = math.min(offset + limit, total) - 1
return {total, redis.call('ZRANGE', KEYS[1], newer + offset, newer + last, 'REV')}
"""
_listing: Script | None = None


def combinations(game: str, status: str, players: Iterable[str]) -> list[str]:
    """Every set a game with these properties belongs to (players as given, lowercased here)."""
    names = sorted({player.lower() for player in players})
    statuses = (*FILED_UNDER[status], None)
    keys = {index_key(game=g, status=s) for g, s in product((game, None), statuses)}
    keys |= {index_key(game=g, status=s, player=p) for g, s, p in product((game, None), statuses, names)}
    return sorted(keys)


def _status_sets(game: str, status: str, players: Iterable[str]) -> list[str]:
    """The sets that name ``status``: what a change of status moves a game out of and into."""
    names = sorted({player.lower() for player in players})
    keys = [index_key(game=g, status=status) for g in (game, None)]
    return keys + [index_key(game=g, status=status, player=p) for g, p in product((game, None), names)]


def expect_change(client: StoreClient, game_id: str) -> None:
    """Note, before the game's own write, that its index is about to change; the index write strikes it off."""
    client.zadd(PENDING, {game_id: time.time()})


def add(client: StoreClient, game_id: str, *, game: str, status: str, players: list[str], created: float) -> None:
    """Index a new game under each combination of its properties, all scored by its creation time."""
    pipe = client.pipeline(transaction=False)
    for key in combinations(game, status, players):
        pipe.zadd(key, {game_id: created})
    pipe.execute()
    client.zrem(PENDING, game_id)


def player_sets(game: str, status: str, player: str) -> list[str]:
    """The sets that name ``player`` for a game of ``game`` with ``status``."""
    statuses = (*FILED_UNDER[status], None)
    return [index_key(game=g, status=s, player=player.lower()) for g, s in product((game, None), statuses)]


def rename_player(client: StoreClient, game_id: str, *, game: str, status: str, before: list[str], after: list[str],
                  created: float) -> None:
    """File a game whose players' names changed (a seat taken under its player's name) under the names it has
    now, and no longer under a name none of its players has any more."""
    gone = {name.lower() for name in before} - {name.lower() for name in after}
    pipe = client.pipeline(transaction=False)
    for name in gone:
        for key in player_sets(game, status, name):
            pipe.zrem(key, game_id)
    for name in after:
        for key in player_sets(game, status, name):
            pipe.zadd(key, {game_id: created})
    pipe.execute()


def set_status(client: StoreClient, game_id: str, status: str) -> None:
    """Move a game to the sets of its new status; idempotent, so a repeat repairs a half-done move."""
    fields = _indexed_fields(client, game_id)
    if fields is not None:
        game, players, created, _status, _updated = fields
        _write(client, game_id, game, players, created, status=status, scored_at=time.time())
    client.zrem(PENDING, game_id)


def _indexed_fields(client: StoreClient, game_id: str) -> tuple[str, list[str], float, str, float] | None:
    """A game's name, players, creation time, status and last update as its meta holds them, or ``None``."""
    meta = client.hgetall(game_keys(game_id).meta)
    if not meta:
        return None
    meta = text_hash(meta)
    return (meta["game"], json.loads(meta["players"]), epoch(meta["created_at"]), meta["status"],
            epoch(meta["updated_at"]))


def _write(
    client: StoreClient, game_id: str, game: str, players: list[str], created: float, *, status: str,
    scored_at: float | None,
) -> None:
    """File the game under its combinations for ``status`` and take it out of those of the other statuses;
    a scored game is noted as due for compaction from ``scored_at`` (unless that is ``None``)."""
    pipe = client.pipeline(transaction=False)
    for key in combinations(game, status, players):
        pipe.zadd(key, {game_id: created})
    for other in STATUSES:
        if other not in FILED_UNDER[status]:
            for key in _status_sets(game, other, players):
                pipe.zrem(key, game_id)
    if status == "scored" and scored_at is not None:
        pipe.zadd(COMPACTION_DUE, {game_id: scored_at}, nx=True)
    if status != "active":
        for key in seats.open_keys(game):  # an ended game has no seat left to take
            pipe.zrem(key, game_id)
    pipe.execute()


def reindex(client: StoreClient, game_id: str, *, compacted: bool = False) -> bool:
    """Rebuild one game's entries from its meta, until the meta holds still; ``False`` if there is no game.

    A status can change while this runs (an append and its own index write in
    between our read and our write); reading the meta again after writing and
    writing again when it moved makes the last write the meta's last status.
    A ``compacted`` game is not noted as due for compaction.
    """
    seen = None
    for _attempt in range(len(STATUSES) + 1):
        fields = _indexed_fields(client, game_id)
        if fields is None or fields == seen:
            break
        game, players, created, status, updated = seen = fields
        _write(client, game_id, game, players, created, status=status, scored_at=None if compacted else updated)
    if seen is not None:
        _reindex_open(client, game_id, seen[0], seen[2], seen[3])
    return seen is not None


def _reindex_open(client: StoreClient, game_id: str, game: str, created: float, status: str) -> None:
    """List an active game with a seat still open among the open games (:mod:`service.store.seats`), and
    no other: the meta's ``open_seats`` is written with each join, in the join's own step."""
    open_seats = client.hget(game_keys(game_id).meta, "open_seats")
    if status == "active" and open_seats is not None and json.loads(text(open_seats)):
        seats.list_open(client, game_id, game, created)
    else:
        seats.unlist_open(client, game_id, game)


def repair_pending(client: StoreClient, *, limit: int = 200, grace: float = PENDING_GRACE_SECONDS) -> list[str]:
    """Rebuild the entries of games noted in the journal for longer than ``grace`` seconds; the ids repaired.

    Cheap enough for a periodic sweep: one ``ZRANGE`` of at most ``limit`` ids,
    and a game is struck off only after its entries are written.
    """
    stale = client.zrange(PENDING, "-inf", time.time() - grace, byscore=True, offset=0, num=limit)
    repaired = []
    for game_id in (text(member) for member in stale):
        if reindex(client, game_id):
            repaired.append(game_id)
        client.zrem(PENDING, game_id)
    return repaired


def game_ids(client: StoreClient) -> Iterator[str]:
    """Every game the store holds, found by its meta key (SCAN: never one long command)."""
    prefix, suffix = "cairn:{", "}:meta"
    for key in client.scan_iter(match=f"{prefix}*{suffix}", count=1000):
        name = text(key)
        if name.startswith(prefix) and name.endswith(suffix):
            yield name[len(prefix):-len(suffix)]


def rebuild(client: StoreClient) -> tuple[int, int]:
    """Rebuild every game's entries from the games themselves, then drop keys of the earlier layout.

    Listings keep answering meanwhile: entries are rewritten in place, never
    emptied first. Returns how many games were indexed and legacy keys dropped.
    """
    games = 0
    for game_id in game_ids(client):
        games += reindex(client, game_id, compacted=bool(client.exists(game_keys(game_id).compacted)))
    legacy = [key for prefix in (UNTAGGED_PREFIX, INDEX_PREFIX)
              for key in client.scan_iter(match=f"{prefix}*", count=1000) if text(key).startswith(LEGACY_PREFIXES)]
    for key in legacy:
        client.delete(key)
    log.info("index rebuilt: %d games, %d keys of the earlier layout removed", games, len(legacy))
    return games, len(legacy)


def epoch(moment: datetime | str | float) -> float:
    """Index scores are POSIX seconds; filters may come as datetimes or ISO 8601 strings."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment.timestamp() if isinstance(moment, datetime) else float(moment)


def query(
    client: StoreClient,
    *,
    game: str | None,
    status: str | None,
    player: str | None,
    created_after: datetime | str | float | None,
    created_before: datetime | str | float | None,
    offset: int,
    limit: int,
    listed_in: str | None = None,
) -> tuple[list[str], int]:
    """Game ids matching every filter, newest first, one page of them, and how many match in all.

    ``created_after`` and ``created_before`` are exclusive bounds. ``listed_in`` names another set to list
    from instead of the filters' combination (the games with open seats, :mod:`service.store.seats`).
    """
    global _listing
    if _listing is None:
        _listing = Script(script_client(client), LISTING)
    key = listed_in or index_key(game=game, status=status, player=player.lower() if player is not None else None)
    low = f"({epoch(created_after)}" if created_after is not None else "-inf"
    high = f"({epoch(created_before)}" if created_before is not None else "+inf"
    newer_from = f"{epoch(created_before)}" if created_before is not None else ""
    total, page = _listing(keys=[key], args=[low, high, newer_from, offset, limit],
                                  client=script_client(client))
    return [text(member) for member in page], int(total)

