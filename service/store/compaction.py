"""Compaction: a scored game's stream replaced by one compressed value, in the game's own slot.

A stream entry costs Redis about twice its payload (ids, listpack headers,
the radix tree), and an ended game is read rarely and never written again.
Once a game has been scored for :data:`DEFAULT_AFTER_SECONDS` (the setting
``CAIRN_COMPACT_AFTER_SECONDS``), its stored payloads, byte for byte and in
order, are joined by newlines (canonical JSON holds none) and compressed with
zlib into ``cairn:{G}:compacted``. The envelopes keep their hashes, so the
chain, the signatures over the head and every redaction are what they were,
and an export of the compacted game is byte-identical to the live one.

Stored form: one ASCII header line, ``cairn-compacted-1 <events> <head hash>``,
then the zlib stream.

One script checks that the game is still the one that was read (scored, at
the same version and head, its stream holding exactly those entries), writes
the value and deletes the stream, the snapshot and the idempotency records
(a scored game takes no more moves, so no retry can need them). It runs
atomically, so a crash leaves either the live game or the compacted one,
and a reader that finds no stream entries and then looks for the compacted
value always finds one or the other. A game whose chain does not verify is
left live, for whoever investigates it.
"""
from __future__ import annotations

import logging
import os
import re
import time
import zlib
from dataclasses import dataclass

import orjson
from redis.client import NEVER_DECODE
from redis.commands.core import Script

from service.store import index
from service.store.connection import StoreClient, script_client
from service.store.envelope import GENESIS_HASH, Envelope, links
from service.store.keys import game_keys, stream_id
from service.store.replies import text

log = logging.getLogger("cairn.store")

FORMAT = b"cairn-compacted-1"
_HEADER = re.compile(rb"cairn-compacted-1 ([1-9][0-9]{0,17}) ([0-9a-f]{64})")
DEFAULT_AFTER_SECONDS = 7 * 24 * 3600
PAGE = 1000

COMPACT = """\
-- Replace a scored game's stream by its compacted value, if the game is still as it was read.
-- KEYS: events stream, meta hash, compacted value, snapshot, idempotency hash (all tagged {G}).
-- ARGV: the version and head hash that were read, the compacted value.
-- Returns {'ok'}, {'already'} (compacted before), or {'changed', why}.
local meta = redis.call('HMGET', KEYS[2], 'version', 'head_hash', 'status')
if not meta[1] then
  return {'changed', 'missing'}
end
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('EXISTS', KEYS[3]) == 1 then
  return {'already'}
end
if meta[3] ~= 'scored' or meta[1] ~= ARGV[1] or meta[2] ~= ARGV[2] then
  return {'changed', 'head'}
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) or #last == 0 or last[1][1] ~= ARGV[1] .. '-0' then
  return {'changed', 'stream'}
end
redis.call('SET', KEYS[3], ARGV[3])
redis.call('DEL', KEYS[1], KEYS[4], KEYS[5])
return {'ok'}
"""

SAVE_SNAPSHOT = """\
-- Save a snapshot only while the game's stream exists: a compacted game keeps none.
-- KEYS: events stream, snapshot (tagged {G}). ARGV: the snapshot.
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('SET', KEYS[2], ARGV[1])
  return 1
end
return 0
"""


class BadCompacted(ValueError):
    """A compacted value this release cannot read: a reader treats the game's compacted part as missing."""


@dataclass(frozen=True)
class Compacted:
    """The stored payloads of versions 1 to ``len(payloads)``, and the hash of the last."""

    payloads: list[str]
    head_hash: str

    @property
    def version(self) -> int:
        return len(self.payloads)

    def envelopes(
        self, from_version: int = 1, to_version: int | None = None, limit: int | None = None
    ) -> list[Envelope]:
        last = self.version if to_version is None else min(to_version, self.version)
        first = max(from_version, 1)
        if limit is not None:
            last = min(last, first + limit - 1)
        return [orjson.loads(payload) for payload in self.payloads[first - 1:last]]


def after_seconds() -> float:
    """How long a game stays live once scored: ``CAIRN_COMPACT_AFTER_SECONDS``, else seven days."""
    return float(os.environ.get("CAIRN_COMPACT_AFTER_SECONDS", DEFAULT_AFTER_SECONDS))


def encode(payloads: list[str], head_hash: str) -> bytes:
    body = zlib.compress("\n".join(payloads).encode(), 9)
    return b"%s %d %s\n%s" % (FORMAT, len(payloads), head_hash.encode(), body)


def decode(stored: bytes) -> Compacted:
    header, _newline, body = stored.partition(b"\n")
    parsed = _HEADER.fullmatch(header)
    if parsed is None:
        raise BadCompacted("not a compacted game")
    try:
        payloads = zlib.decompress(body).decode().split("\n")
    except (zlib.error, UnicodeDecodeError) as error:
        raise BadCompacted(f"its body does not decompress ({error})") from None
    if len(payloads) != int(parsed[1]):
        raise BadCompacted(f"it holds {len(payloads)} events, its header says {int(parsed[1])}")
    return Compacted(payloads, parsed[2].decode())


def read(client: StoreClient, game_id: str) -> Compacted | None:
    """The game's compacted part, or ``None`` if it has none (or one that cannot be read, which is logged)."""
    stored = client.execute_command("GET", game_keys(game_id).compacted, **{NEVER_DECODE: []})
    if stored is None:
        return None
    try:
        return decode(stored)
    except BadCompacted as bad:
        log.error("compacted value of game %s unreadable: %s", game_id, bad)
        return None


def save_snapshot(client: StoreClient, game_id: str, snapshot: bytes) -> bool:
    keys = game_keys(game_id)
    runner = script_client(client)
    return bool(Script(runner, SAVE_SNAPSHOT)(keys=[keys.events, keys.snapshot], args=[snapshot], client=runner))


def _stream_payloads(client: StoreClient, game_id: str) -> tuple[list[str], str] | None:
    """The stream's payloads in order and the last hash, if the chain verifies entry by entry, else ``None``."""
    events = game_keys(game_id).events
    payloads: list[str] = []
    prev_hash, start = GENESIS_HASH, "-"
    while True:
        entries = client.xrange(events, start, "+", count=PAGE) or []
        for entry_id, fields in entries:
            (payload,) = (text(value) for value in (fields or {}).values())
            envelope = orjson.loads(payload)
            if text(entry_id) != stream_id(len(payloads) + 1) or not links(envelope, prev_hash, len(payloads) + 1):
                return None
            payloads.append(payload)
            prev_hash = envelope["hash"]
        if len(entries) < PAGE:
            return payloads, prev_hash
        start = f"({text(entries[-1][0])}"


def compact(client: StoreClient, game_id: str) -> str:
    """Compact one scored game: ``compacted``, ``already``, or why not (``not_scored``, ``chain_broken``,
    ``changed``, ``missing``). Idempotent; safe beside readers, appends and other compactions."""
    keys = game_keys(game_id)
    version, head_hash, status = client.hmget(keys.meta, "version", "head_hash", "status")
    if version is None:
        return "missing"
    if text(status) != "scored":
        return "not_scored"
    read_back = _stream_payloads(client, game_id)
    if read_back is None:
        log.warning("game %s not compacted: its chain does not verify", game_id)
        return "chain_broken"
    payloads, last_hash = read_back
    if not payloads:
        return "already" if read(client, game_id) is not None else "missing"
    if len(payloads) != int(version) or last_hash != text(head_hash):
        return "changed"
    runner = script_client(client)
    reply = Script(runner, COMPACT)(
        keys=[keys.events, keys.meta, keys.compacted, keys.snapshot, keys.idem],
        args=[len(payloads), last_hash, encode(payloads, last_hash)], client=runner,
    )
    outcome = text(reply[0])
    return {"ok": "compacted", "already": "already"}.get(outcome, "changed")


def compact_due(client: StoreClient, *, older_than: float, limit: int = 20) -> dict[str, str]:
    """Compact up to ``limit`` games scored more than ``older_than`` seconds ago; each game's outcome.

    A game is struck off the due list once it is compacted or can never be
    (a broken chain, no such game); one that changed while it was read is due
    again ``older_than`` seconds later, so it cannot hold up the games behind it.
    """
    now = time.time()
    due = client.zrange(index.COMPACTION_DUE, "-inf", now - older_than, byscore=True, offset=0, num=limit)
    outcomes = {}
    for game_id in (text(member) for member in due):
        outcomes[game_id] = outcome = compact(client, game_id)
        if outcome == "changed":
            client.zadd(index.COMPACTION_DUE, {game_id: now})
        else:
            client.zrem(index.COMPACTION_DUE, game_id)
    return outcomes
