"""The event store: one Redis stream per game, appended by one Lua script per command.

The stream is the record; meta, index and snapshot are derived from it and
kept for speed. An append computes envelopes and their hash chain in Python
(Lua has no SHA-256) from the game's head hash, and the script refuses them
unless the game is still at the expected version with that head, so a race
fails instead of forking history.
"""
from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import redis

from domain import registry
from domain.core.canonical import canonical_json, sha256_hex
from domain.core.events import Event
from domain.core.match import Match, apply_event, match_from_json, replay
from domain.core.rules import Rules
from service.store import index, snapshots
from service.store.envelope import GENESIS_HASH, links, seal
from service.store.errors import GameNotFound, IdempotencyMismatch, RateLimited, VersionConflict
from service.store.keys import GameKeys, game_keys, stream_id
from service.store.lua import BucketCharge, register
from service.store.replies import text, text_hash

# Event types after which a game has a new status in the index.
_STATUS_AFTER = {"game_ended": "ended", "game_scored": "scored"}
_CACHED_HEADS = 10_000


class VersionOutOfRange(ValueError):
    """A past version asked for that the game has not reached (or below 1)."""


@dataclass
class AppendResult:
    envelopes: list[dict]
    first_version: int
    last_version: int
    duplicate: bool


@dataclass(frozen=True)
class _Head:
    """A game's last version and the hash a next event must chain to. Immutable once seen, so cacheable."""

    version: int
    hash: str
    rules_version: str


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


class EventStore:
    def __init__(
        self,
        client: redis.Redis,
        snapshot_every: int = 200,
        rules_for: Callable[[str], Rules] = registry.get_rules,
        *,
        blocking_client: redis.Redis | None = None,
    ) -> None:
        """``snapshot_every`` <= 0 turns snapshots off. ``blocking_client`` (default: ``client``) serves
        :meth:`wait_for_events`, whose read must be allowed to last longer than the block it asks for."""
        self._client = client
        self._blocking_client = blocking_client or client
        self._snapshot_every = snapshot_every
        self._rules_for = rules_for
        self._scripts = register(client)
        self._heads: dict[str, _Head] = {}
        self._heads_lock = threading.Lock()

    def create(
        self, game_id: str, events: list[dict], *, seed: str | None, tokens: dict[str, str], players: list[str]
    ) -> AppendResult:
        """Record a new game (``events`` from ``domain.core.match.create``); tokens are stored hashed only.

        A game id already taken raises :class:`VersionConflict` (expected version 0).
        """
        created = events[0]["data"]
        time = now_iso()
        envelopes, payloads = self._seal_batch(
            game_id, events, _Head(0, GENESIS_HASH, created["rules_version"]), None, uuid.uuid4().hex, time
        )
        status = _status_after(events) or "active"
        meta = {
            "game": created["game"],
            "status": status,
            "version": str(len(events)),
            "head_hash": envelopes[-1]["hash"],
            "created_at": time,
            "updated_at": time,
            "chance_mode": created["chance_mode"],
            "players": json.dumps(players),
        }
        private = {f"token:{sha256_hex(token)}": reader for reader, token in tokens.items()}
        if seed is not None:
            private["seed"] = seed
        keys = game_keys(game_id)
        reply = self._scripts.create(
            keys=[keys.events, keys.meta, keys.private], args=[json.dumps(meta), json.dumps(private), *payloads]
        )
        if text(reply[0]) == "exists":
            raise VersionConflict(game_id, 0, int(reply[1]))
        index.add(
            self._client, game_id, game=created["game"], status=status, players=players,
            created=index.epoch(time),
        )
        self._remember(game_id, _Head(len(events), envelopes[-1]["hash"], created["rules_version"]))
        return AppendResult(envelopes, 1, len(events), duplicate=False)

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: list[dict],
        *,
        command: dict | None,
        command_id: str,
        idempotency_key: str | None,
        charge: BucketCharge | None = None,
    ) -> AppendResult:
        """Append one command's events at ``expected_version`` + 1 onwards, or refuse.

        A seen idempotency key returns the range it recorded (``duplicate=True``)
        and appends nothing, whatever the game's version is now. With a
        ``charge`` the request is first taken from that rate-limit bucket, in
        the same script; an empty bucket raises :class:`RateLimited`.
        """
        if not events:
            raise ValueError("an append needs at least one event")
        keys = game_keys(game_id)
        command_hash = sha256_hex(canonical_json(command))
        status = _status_after(events)
        head = self._head(game_id, expected_version)
        for _attempt in range(2):
            time = now_iso()
            envelopes, payloads = self._seal_batch(game_id, events, head, command, command_id, time, expected_version)
            bucket = [charge.key] if charge else []
            rate = [charge.rate, charge.burst, charge.now] if charge else ["", "", ""]
            reply = self._scripts.append(
                keys=[keys.events, keys.meta, keys.idem, *bucket],
                args=[
                    expected_version, head.hash, idempotency_key or "", command_hash,
                    envelopes[-1]["hash"], time, status or "", *rate, *payloads,
                ],
            )
            outcome = text(reply[0])
            if outcome != "stale_head":
                break
            head, charge = self._read_head(game_id), None  # the first try took the request from the bucket
        if outcome == "ok":
            last = expected_version + len(events)
            self._remember(game_id, _Head(last, envelopes[-1]["hash"], head.rules_version))
            if status:
                index.set_status(self._client, game_id, status)
            return AppendResult(envelopes, expected_version + 1, last, duplicate=False)
        if outcome == "duplicate":
            first, last = int(reply[1]), int(reply[2])
            return AppendResult(self.read(game_id, first, last), first, last, duplicate=True)
        if outcome == "rate_limited":
            raise RateLimited(float(text(reply[1])))
        if outcome == "mismatch":
            raise IdempotencyMismatch(f"idempotency key {idempotency_key!r} was used for a different command")
        if outcome == "missing":
            raise GameNotFound(game_id)
        current = int(reply[1]) if outcome == "conflict" else self.version(game_id)
        raise VersionConflict(game_id, expected_version, current)

    def _seal_batch(
        self,
        game_id: str,
        events: list[Event],
        head: _Head,
        command: dict | None,
        command_id: str,
        time: str,
        after_version: int = 0,
    ) -> tuple[list[dict], list[str]]:
        """Envelopes chained from ``head``; the command rides in the first one, for audits."""
        envelopes, payloads = [], []
        prev_hash = head.hash
        for offset, event in enumerate(events, start=1):
            envelope, payload = seal(
                event, game_id=game_id, version=after_version + offset, prev_hash=prev_hash, command_id=command_id,
                time=time, rules_version=head.rules_version, command=command if offset == 1 else None,
            )
            envelopes.append(envelope)
            payloads.append(payload)
            prev_hash = envelope["hash"]
        return envelopes, payloads

    def _head(self, game_id: str, expected_version: int) -> _Head:
        cached = self._heads.get(game_id)
        if cached is not None and cached.version == expected_version:
            return cached
        return self._read_head(game_id)

    def _read_head(self, game_id: str) -> _Head:
        version, head_hash, game = self._client.hmget(game_keys(game_id).meta, "version", "head_hash", "game")
        if version is None:
            raise GameNotFound(game_id)
        return _Head(int(version), text(head_hash), self._rules_for(text(game)).rules_version)

    def note_head(self, game_id: str, match: Match, head_hash: str) -> None:
        """A match a caller folded from the stream, and the hash of its last event: an append right after it
        chains to that hash without asking Redis (the script still refuses if the game has moved on)."""
        self._remember(game_id, _Head(match.version, head_hash, match.rules.rules_version))

    def _remember(self, game_id: str, head: _Head) -> None:
        with self._heads_lock:
            if len(self._heads) >= _CACHED_HEADS and game_id not in self._heads:
                self._heads.pop(next(iter(self._heads)))
            self._heads[game_id] = head

    def version(self, game_id: str) -> int:
        version = self._client.hget(game_keys(game_id).meta, "version")
        if version is None:
            raise GameNotFound(game_id)
        return int(version)

    def read(
        self, game_id: str, from_version: int = 1, to_version: int | None = None, limit: int | None = None
    ) -> list[dict]:
        """Stored envelopes (unredacted: redact per reader before they leave the service)."""
        keys = game_keys(game_id)
        end = stream_id(to_version) if to_version is not None else "+"
        entries = self._client.xrange(keys.events, stream_id(max(from_version, 1)), end, count=limit)
        if not entries and not self._client.exists(keys.meta):
            raise GameNotFound(game_id)
        return [_envelope(fields) for _entry_id, fields in entries]

    def iter_pages(self, game_id: str, page_size: int = 1000) -> Iterator[list[dict]]:
        """The whole history in pages, so an export of a huge game never holds it all at once."""
        start = 1
        while True:
            page = self.read(game_id, start, limit=page_size)
            if not page:
                return
            yield page
            start = page[-1]["version"] + 1

    def load(self, game_id: str, at: int | None = None) -> Match:
        """The match at version ``at`` (default: now), from a verified snapshot plus the events after it."""
        match, head_hash = self._load(game_id, at)
        if at is None:
            self._remember(game_id, _Head(match.version, head_hash, match.rules.rules_version))
        return match

    def _load(self, game_id: str, at: int | None) -> tuple[Match, str]:
        """Fold from the snapshot if it checks out, else from the first event.

        A current load that folded ``snapshot_every`` events or more, or found a
        bad snapshot, saves what it built as the new snapshot. Every append of
        the service follows a load of the game, so snapshots keep within about
        ``snapshot_every`` events of the head without the append path ever
        replaying anything.
        """
        if at is not None and at < 1:
            raise VersionOutOfRange(f"versions start at 1, not {at}")
        keys = game_keys(game_id)
        stored = self._client.get(keys.snapshot)
        snapshot = snapshots.decode(game_id, stored)
        loaded = None
        if snapshot is not None and (at is None or snapshot.version <= at):
            loaded = self._from_snapshot(game_id, keys, snapshot, at)
        if loaded is None:
            match, head_hash = loaded = self._from_events(game_id, at)
            folded, rejected = match.version, stored is not None and at is None
        else:
            match, head_hash = loaded
            folded, rejected = match.version - snapshot.version, False
        if at is not None and match.version != at:
            raise VersionOutOfRange(f"game {game_id} is at version {match.version}, not yet at {at}")
        every = self._snapshot_every
        if at is None and every > 0 and (rejected or folded >= every):
            self._client.set(keys.snapshot, snapshots.encode(match, head_hash))
        return loaded

    def _from_events(self, game_id: str, at: int | None) -> tuple[Match, str]:
        entries = self.read(game_id, 1, at)
        return replay(entries, self._rules_for), entries[-1]["hash"]

    def _from_snapshot(
        self, game_id: str, keys: GameKeys, snapshot: snapshots.Snapshot, at: int | None
    ) -> tuple[Match, str] | None:
        """The snapshot's match with the later events folded in, if the stored event at its version agrees."""
        end = stream_id(at) if at is not None else "+"
        stored = self._client.xrange(keys.events, stream_id(snapshot.version), end)
        entries = [_envelope(fields) for _id, fields in stored]
        if not entries or entries[0]["version"] != snapshot.version or entries[0]["hash"] != snapshot.head_hash:
            snapshots.logger.warning("snapshot of game %s does not match its events; rebuilding", game_id)
            return None
        match = match_from_json(snapshot.match, self._rules_for(snapshot.match["created"]["game"]))
        for envelope in entries[1:]:
            apply_event(match, envelope)
        return match, entries[-1]["hash"]

    def reader_for_token(self, game_id: str, token: str) -> str | None:
        reader = self._client.hget(game_keys(game_id).private, f"token:{sha256_hex(token)}")
        return text(reader) if reader is not None else None

    def seed(self, game_id: str) -> str | None:
        seed = self._client.hget(game_keys(game_id).private, "seed")
        return text(seed) if seed is not None else None

    def meta(self, game_id: str) -> dict:
        """``game_id``, ``game``, ``status``, ``version``, ``head_hash``, ``created_at``, ``updated_at``,
        ``chance_mode`` and ``players`` (a list of names)."""
        meta = _meta(game_id, self._client.hgetall(game_keys(game_id).meta))
        if meta is None:
            raise GameNotFound(game_id)
        return meta

    def verify_chain(self, game_id: str) -> tuple[bool, int | None]:
        """Re-hash the whole history: ``(True, None)``, or ``(False, first bad version)``.

        Besides edited events this catches deleted ones, entries whose stream id
        disagrees with their version, and a meta head that the events do not reach.
        """
        meta = self.meta(game_id)
        prev_hash, version = GENESIS_HASH, 1
        keys = game_keys(game_id)
        start = "-"
        while True:
            entries = self._client.xrange(keys.events, start, "+", count=1000)
            for entry_id, fields in entries:
                envelope = _envelope(fields)
                if text(entry_id) != stream_id(version) or not links(envelope, prev_hash, version):
                    return False, version
                prev_hash, version = envelope["hash"], version + 1
            if len(entries) < 1000:
                break
            start = f"({text(entries[-1][0])}"
        if meta["version"] != version - 1 or meta["head_hash"] != prev_hash:
            return False, min(version, meta["version"])
        return True, None

    def list_games(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        player: str | None = None,
        created_after: datetime | str | float | None = None,
        created_before: datetime | str | float | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[list[dict], int]:
        """One page of game metas, newest first, and the number of games matching all filters.

        ``player`` matches a player's name case-insensitively; the created bounds are exclusive.
        """
        ids, total = index.query(
            self._client, game=game, status=status, player=player,
            created_after=created_after, created_before=created_before, offset=offset, limit=limit,
        )
        pipe = self._client.pipeline(transaction=False)
        for game_id in ids:
            pipe.hgetall(game_keys(game_id).meta)
        metas = [_meta(game_id, reply) for game_id, reply in zip(ids, pipe.execute(), strict=True)]
        return [meta for meta in metas if meta is not None], total

    def wait_for_events(self, game_id: str, after_version: int, timeout_ms: int) -> list[dict]:
        """Events after ``after_version``, waiting up to ``timeout_ms`` for one (XREAD BLOCK); ``[]`` on timeout."""
        keys = game_keys(game_id)
        if not self._client.exists(keys.meta):
            raise GameNotFound(game_id)
        reply = self._blocking_client.xread({keys.events: stream_id(after_version)}, block=max(timeout_ms, 1))
        return [_envelope(fields) for _stream, entries in reply or [] for _id, fields in entries]


def _status_after(events: list[Event]) -> str | None:
    statuses = [_STATUS_AFTER[event["type"]] for event in events if event["type"] in _STATUS_AFTER]
    return statuses[-1] if statuses else None


def _envelope(fields: dict) -> dict:
    """The envelope of a stream entry, whose one field is ``e``."""
    (payload,) = fields.values()
    return json.loads(payload)


def _meta(game_id: str, reply: dict) -> dict | None:
    if not reply:
        return None
    meta = text_hash(reply)
    return {
        "game_id": game_id,
        "game": meta["game"],
        "status": meta["status"],
        "version": int(meta["version"]),
        "head_hash": meta["head_hash"],
        "created_at": meta["created_at"],
        "updated_at": meta["updated_at"],
        "chance_mode": meta["chance_mode"],
        "players": json.loads(meta["players"]),
    }
