"""The event store: one Redis stream per game, appended by one Lua script per command.

The stream is the record; meta, index and snapshot are derived from it and
kept for speed. An append computes envelopes and their hash chain in Python
(Lua has no SHA-256) from the game's head hash, and the script refuses them
unless the game is still at the expected version with that head, so a race
fails instead of forking history.
"""
from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

import orjson
import redis
from redis.client import NEVER_DECODE
from redis.commands.core import Script
from redis.typing import EncodableT, StreamEntry, StreamRangeResponse

from domain import registry
from domain.core.canonical import canonical_json, sha256_hex
from domain.core.events import Event, JsonObject
from domain.core.match import Match, apply_event, match_from_json, match_to_json, replay
from domain.core.rules import Rules
from domain.core.takeback import Earlier
from service.store import compaction, index, replication, seats, snapshots
from service.store.connection import StoreClient
from service.store.envelope import GENESIS_HASH, Envelope, links, seal
from service.store.errors import GameNotFound, IdempotencyMismatch, NotReplicated, RateLimited, VersionConflict
from service.store.keys import GameKeys, game_keys, stream_id
from service.store.lua import BucketCharge, register
from service.store.replication import Replication
from service.store.replies import text, text_hash

# Event types after which a game has a new status in the index.
_STATUS_AFTER = {"game_ended": "ended", "game_scored": "scored"}
_CACHED_HEADS = 10_000

log = logging.getLogger("cairn.store")


class VersionOutOfRange(ValueError):
    """A past version asked for that the game has not reached (or below 1)."""


@dataclass(frozen=True)
class SnapshotCheck:
    """The stored snapshot against the events: ``finding`` is ``None`` when it is their fold, else why not
    (a :class:`~service.store.snapshots.BadSnapshot` code, or ``chain_broken`` when the events up to its
    version do not verify). ``version`` is ``None`` when the snapshot could not be read at all."""

    version: int | None
    finding: str | None

    @property
    def ok(self) -> bool:
        return self.finding is None


@dataclass(frozen=True)
class Integrity:
    """A game's history as one check saw it: at ``version``, intact unless ``first_bad_version`` is set; and
    its snapshot, if it has one. A bad snapshot is a finding of its own, not a break of the chain."""

    version: int
    head_hash: str
    first_bad_version: int | None
    snapshot: SnapshotCheck | None

    @property
    def ok(self) -> bool:
        return self.first_bad_version is None


@dataclass
class AppendResult:
    envelopes: list[Envelope]
    first_version: int
    last_version: int
    duplicate: bool
    # What the charged rate-limit bucket held after the append took from it; None when nothing was charged.
    requests_left: float | None = None


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
        client: StoreClient,
        snapshot_every: int = 200,
        rules_for: Callable[[str], Rules[Any]] = registry.get_rules,
        snapshot_key: bytes | None = None,
        replication: Replication | None = None,
        on_ended: Callable[[str], object] | None = None,
    ) -> None:
        """Snapshots are MAC'd with ``snapshot_key`` (see :mod:`service.store.snapshot_key`); without one they
        are neither believed nor written. ``snapshot_every`` <= 0 stops writing them. With ``replication``
        a creation or an append that too few replicas confirm raises :class:`NotReplicated`: the append
        may be applied (a retry with its idempotency key is safe), the creation is undone. ``on_ended`` is
        called with a game's id when an append has ended the game, once: a retry that the idempotency key
        answers appends nothing and calls nothing (the service enqueues the game's scoring there)."""
        self._client = client
        self._on_ended = on_ended
        self._replication = replication
        self._snapshot_every = snapshot_every
        self._snapshot_key = snapshot_key
        self._rules_for = rules_for
        self._scripts = register(client)
        self._change_token = client.register_script(seats.CHANGE_TOKEN)
        self._heads: dict[str, _Head] = {}
        self._heads_lock = threading.Lock()

    def create(
        self, game_id: str, events: list[Event], *, seed: str | None, tokens: dict[str, str], players: list[str],
        open_seats: list[str] | None = None, time: str | None = None,
    ) -> AppendResult:
        """Record a new game (``events`` from ``domain.core.match.create``); tokens are stored hashed only, and
        ``open_seats`` have none until taken (:meth:`change_token`).

        A game id already taken raises :class:`VersionConflict` (expected version 0). A creation too few
        replicas confirm is undone before :class:`NotReplicated` is raised: its tokens are never given out,
        so a game kept then would be one nobody can play, listed for ever. The undo follows the creation
        down the master's replication stream, so a replica that had the creation drops it too; only a
        master lost between the two leaves the game on its promoted replica, with no token given out.

        ``time`` is the events' time when the caller took it already (to start the game's clock at it).
        """
        created = events[0]["data"]
        time = time or now_iso()
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
            "open_seats": json.dumps(open_seats or []),
        }
        private = {f"token:{sha256_hex(token)}": reader for reader, token in tokens.items()}
        if seed is not None:
            private["seed"] = seed
        keys = game_keys(game_id)
        index.expect_change(self._client, game_id)
        reply, confirmed = self._run(
            self._scripts.create, [keys.events, keys.meta, keys.private],
            [json.dumps(meta), json.dumps(private), *payloads],
        )
        if text(reply[0]) == "exists":
            raise VersionConflict(game_id, 0, int(reply[1]))
        replicas = self._replication.replicas if self._replication is not None else 0
        if confirmed is not None and confirmed < replicas:
            self._undo_create(game_id, keys, len(events), envelopes[-1]["hash"])
            raise NotReplicated(game_id, confirmed, replicas)
        try:
            index.add(
                self._client, game_id, game=created["game"], status=status, players=players,
                created=index.epoch(time),
            )
            if open_seats:
                seats.list_open(self._client, game_id, created["game"], index.epoch(time))
        except redis.RedisError as error:
            log.warning("game %s created, its index entries left to the sweep: %s", game_id, error)
        self._remember(game_id, _Head(len(events), envelopes[-1]["hash"], created["rules_version"]))
        return AppendResult(envelopes, 1, len(events), duplicate=False)

    def _undo_create(self, game_id: str, keys: GameKeys, version: int, head_hash: str) -> None:
        """Delete a game whose creation was not replicated, and its note in the index's journal (it was never
        indexed). Should Redis fail now, the game stays stored with no token given out, and is logged."""
        try:
            self._scripts.undo_create(keys=[keys.events, keys.meta, keys.private], args=[version, head_hash])
            self._client.zrem(index.PENDING, game_id)
        except redis.RedisError as error:
            log.warning("game %s was not replicated and could not be undone, no token was given out: %s",
                        game_id, error)

    def _run(self, script: Script, keys: list[str], args: list[EncodableT]) -> tuple[list[Any], int | None]:
        """A script's reply, and how many replicas confirmed it (``None`` when none are asked for)."""
        if self._replication is None:
            reply: list[Any] = script(keys=keys, args=args)
            return reply, None
        return replication.run(self._client, script, keys, args, self._replication)

    def _check_replicated(self, game_id: str, confirmed: int | None) -> None:
        if confirmed is not None and self._replication is not None and confirmed < self._replication.replicas:
            raise NotReplicated(game_id, confirmed, self._replication.replicas)

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: list[Event],
        *,
        command: JsonObject | None,
        command_id: str,
        idempotency_key: str | None,
        charge: BucketCharge | None = None,
        time: str | None = None,
    ) -> AppendResult:
        """Append one command's events at ``expected_version`` + 1 onwards, or refuse.

        A seen idempotency key returns the range it recorded (``duplicate=True``)
        and appends nothing, whatever the game's version is now. With a
        ``charge`` the request is first taken from that rate-limit bucket, in
        the same script; an empty bucket raises :class:`RateLimited`. ``time`` (the :func:`now_iso` the caller
        decided the events at, for a game's clock) is the events' time, else it is taken now.
        """
        if not events:
            raise ValueError("an append needs at least one event")
        keys = game_keys(game_id)
        command_hash = sha256_hex(canonical_json(command))
        status = _status_after(events)
        head = self._head(game_id, expected_version)
        if status:
            index.expect_change(self._client, game_id)
        left: float | None = None
        for _attempt in range(2):
            stamp = time or now_iso()
            envelopes, payloads = self._seal_batch(game_id, events, head, command, command_id, stamp,
                                                   expected_version)
            bucket = [charge.key] if charge else []
            rate = [charge.rate, charge.burst, charge.now] if charge else ["", "", ""]
            reply, confirmed = self._run(
                self._scripts.append, [keys.events, keys.meta, keys.idem, *bucket],
                [
                    expected_version, head.hash, idempotency_key or "", command_hash,
                    envelopes[-1]["hash"], stamp, status or "", *rate, *payloads,
                ],
            )
            outcome = text(reply[0])
            charged = {"ok": 3, "duplicate": 3, "stale_head": 1}.get(outcome)
            if charged is not None and text(reply[charged]):
                left = float(text(reply[charged]))
            if outcome != "stale_head":
                break
            head, charge = self._read_head(game_id), None  # the first try took the request from the bucket
        if outcome == "ok":
            last = expected_version + len(events)
            self._remember(game_id, _Head(last, envelopes[-1]["hash"], head.rules_version))
            if status:
                self._index_status(game_id, status)
            if status == "ended" and self._on_ended is not None:
                self._announce_end(game_id, self._on_ended)
            self._check_replicated(game_id, confirmed)
            return AppendResult(envelopes, expected_version + 1, last, duplicate=False, requests_left=left)
        if outcome == "duplicate":
            self._check_replicated(game_id, confirmed)
            first, last = int(reply[1]), int(reply[2])
            return AppendResult(self.read(game_id, first, last), first, last, duplicate=True, requests_left=left)
        if outcome == "rate_limited":
            raise RateLimited(float(text(reply[1])))
        if outcome == "mismatch":
            raise IdempotencyMismatch(f"idempotency key {idempotency_key!r} was used for a different command")
        if outcome == "missing":
            raise GameNotFound(game_id)
        current = int(reply[1]) if outcome == "conflict" else self.version(game_id)
        raise VersionConflict(game_id, expected_version, current)

    def _index_status(self, game_id: str, status: str) -> None:
        """The append is in: an index that cannot be written now is the sweep's to repair, not the move's."""
        try:
            index.set_status(self._client, game_id, status)
        except redis.RedisError as error:
            log.warning("game %s is %s, its index entries left to the sweep: %s", game_id, status, error)

    def _announce_end(self, game_id: str, on_ended: Callable[[str], object]) -> None:
        """The append is in: what cannot be told of its end now (the job queue's Redis is down) is left to
        the workers' sweep of ended games and to the next ``GET /games/{id}/score``, not failed with the move."""
        try:
            on_ended(game_id)
        except redis.RedisError as error:
            log.warning("game %s ended, its scoring left to the sweep: %s", game_id, error)

    def _seal_batch(
        self,
        game_id: str,
        events: list[Event],
        head: _Head,
        command: JsonObject | None,
        command_id: str,
        time: str,
        after_version: int = 0,
    ) -> tuple[list[Envelope], list[str]]:
        """Envelopes chained from ``head``; the command rides in the first one, for audits."""
        envelopes: list[Envelope] = []
        payloads: list[str] = []
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

    def note_head(self, game_id: str, match: Match[Any], head_hash: str) -> None:
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
    ) -> list[Envelope]:
        """Stored envelopes (unredacted: redact per reader before they leave the service), from the stream or,
        for a compacted game, from its compacted value (and any stream entries after it).

        The stream is read first: compaction writes the value and deletes the
        stream in one step, so a read that finds no stream entry where it
        starts finds the value.
        """
        keys = game_keys(game_id)
        first = max(from_version, 1)
        end = stream_id(to_version) if to_version is not None else "+"
        entries = self._client.xrange(keys.events, stream_id(first), end, count=limit) or []
        envelopes = [_envelope(fields) for _entry_id, fields in entries]
        if envelopes and envelopes[0]["version"] == first:
            return envelopes
        compacted = compaction.read(self._client, game_id)
        if compacted is None:
            if not envelopes and not self._client.exists(keys.meta):
                raise GameNotFound(game_id)
            return envelopes
        later = [envelope for envelope in envelopes if envelope["version"] > compacted.version]
        return (compacted.envelopes(first, to_version, limit) + later)[:limit]

    def iter_pages(self, game_id: str, page_size: int = 1000) -> Iterator[list[Envelope]]:
        """The whole history in pages, so an export of a huge game never holds it all at once."""
        start = 1
        while True:
            page = self.read(game_id, start, limit=page_size)
            if not page:
                return
            yield page
            start = page[-1]["version"] + 1

    def load(self, game_id: str, at: int | None = None) -> Match[Any]:
        """The match at version ``at`` (default: now), from a verified snapshot plus the events after it."""
        match, head_hash = self._load(game_id, at)
        if at is None:
            self._remember(game_id, _Head(match.version, head_hash, match.rules.rules_version))
        return match

    def earlier(self, game_id: str) -> Earlier:
        """The game's state at an earlier version, loaded: what folding ``moves_taken_back`` rewinds to."""
        return lambda version: self._load(game_id, version)[0].state

    def _load(self, game_id: str, at: int | None) -> tuple[Match[Any], str]:
        """Fold from the snapshot if it checks out, else from the first event.

        A current load that folded ``snapshot_every`` events or more saves what
        it built as the new snapshot; a process that folds its moves in place
        saves them through :meth:`keep_snapshot`, so snapshots keep within about
        ``snapshot_every`` events of the head without the append path ever
        replaying anything. Any load that
        finds a bad snapshot replaces it with a good one (of the head), so the
        warning it logs is logged once.
        """
        if at is not None and at < 1:
            raise VersionOutOfRange(f"versions start at 1, not {at}")
        keys = game_keys(game_id)
        loaded, rejected = None, False
        stored = self._stored_snapshot(keys)
        if stored is not None:
            try:
                snapshot = snapshots.decode(self._snapshot_key, game_id, stored)
                if at is None or snapshot.version <= at:
                    loaded = self._from_snapshot(game_id, keys, snapshot, at)
            except snapshots.BadSnapshot as bad:
                snapshots.logger.warning("snapshot of game %s ignored (%s); rebuilding from events", game_id, bad)
                rejected = True
        if loaded is None:
            match, head_hash = loaded = self._from_events(game_id, at)
            folded = match.version
        else:
            match, head_hash = loaded
            folded = match.version - snapshot.version
        if at is not None and match.version != at:
            raise VersionOutOfRange(f"game {game_id} is at version {match.version}, not yet at {at}")
        if self._snapshot_key is None or self._snapshot_every <= 0:
            return loaded
        if rejected and at is not None:
            self._save_snapshot(game_id, keys, *self._fold_to_head(game_id, match.copy(), head_hash))
        elif rejected or (at is None and folded >= self._snapshot_every):
            self._save_snapshot(game_id, keys, match, head_hash)
        return loaded

    def keep_snapshot(self, game_id: str, match: Match[Any], head_hash: str, appended: int) -> None:
        """Save a snapshot of ``match``, which the caller folded in place through an append of ``appended``
        events ending at ``head_hash``, when one is due: the append ended the game, or its version crossed a
        multiple of ``snapshot_every``.

        A process that folds its games' moves in place loads nothing, so :meth:`load` never gets to save one
        for it; without this every load elsewhere (the scoring job right after the end, an export, another
        API process, a restart) would replay the whole history. The append is in whatever happens here: a
        snapshot Redis cannot take now is only a slower load later.
        """
        every = self._snapshot_every
        if self._snapshot_key is None or every <= 0:
            return
        if match.ended or match.version // every > (match.version - appended) // every:
            try:
                self._save_snapshot(game_id, game_keys(game_id), match, head_hash)
            except redis.RedisError as error:
                log.warning("game %s: its snapshot at version %d was not saved: %s", game_id, match.version, error)

    def _stored_snapshot(self, keys: GameKeys) -> bytes | None:
        """The snapshot's raw bytes, never decoded as text: whatever they are, they must not fail the read."""
        stored: bytes | None = self._client.execute_command("GET", keys.snapshot, **{NEVER_DECODE: []})
        return stored

    def _save_snapshot(self, game_id: str, keys: GameKeys, match: Match[Any], head_hash: str) -> None:
        """Saved only while the game is live: a compacted game keeps no snapshot, which would outweigh it."""
        if self._snapshot_key is not None:
            snapshot = snapshots.encode(self._snapshot_key, game_id, match, head_hash)
            compaction.save_snapshot(self._client, game_id, snapshot)

    def _fold_to_head(self, game_id: str, match: Match[Any], head_hash: str) -> tuple[Match[Any], str]:
        later = self.read(game_id, match.version + 1)
        earlier = self.earlier(game_id)
        for envelope in later:
            apply_event(match, envelope, earlier)
        return match, later[-1]["hash"] if later else head_hash

    def _from_events(self, game_id: str, at: int | None) -> tuple[Match[Any], str]:
        entries = self.read(game_id, 1, at)
        return replay(entries, self._rules_for), entries[-1]["hash"]

    def _from_snapshot(
        self, game_id: str, keys: GameKeys, snapshot: snapshots.Snapshot, at: int | None
    ) -> tuple[Match[Any], str]:
        """The snapshot's match with the later events folded in, if the stored event at its version agrees.

        Its MAC says the service wrote it, not that it stands for these events:
        the stream may have been restored from an older backup, or a release
        may have written a match it cannot read back.
        """
        end = stream_id(at) if at is not None else "+"
        stored = self._client.xrange(keys.events, stream_id(snapshot.version), end) or []
        entries = [_envelope(fields) for _id, fields in stored]
        if not entries or entries[0]["version"] != snapshot.version:
            raise snapshots.BadSnapshot("beyond_stream", "no stored event at its version", snapshot.version)
        if entries[0]["hash"] != snapshot.head_hash:
            raise snapshots.BadSnapshot("wrong_head", "the stored event at its version is another", snapshot.version)
        try:
            match = match_from_json(snapshot.match, self._rules_for(snapshot.match["created"]["game"]))
        except (KeyError, TypeError, ValueError) as unreadable:
            raise snapshots.BadSnapshot("malformed", f"its match does not load ({unreadable!r})") from None
        earlier = self.earlier(game_id)
        for envelope in entries[1:]:
            apply_event(match, envelope, earlier)
        return match, entries[-1]["hash"]

    def change_token(
        self, game_id: str, expected_version: int, events: list[Event], *, command: JsonObject, reader: str,
        token: str, open_seats: list[str], players: list[str], time: str | None = None,
    ) -> AppendResult:
        """Append a table event that gives ``reader`` the new ``token`` (a join, a rotation), removing any
        token it held, in one step (:mod:`service.store.seats`); :class:`VersionConflict` if the game is no
        longer at ``expected_version``. ``open_seats`` and ``players`` are the meta's after the event; ``time``
        is the event's, as :meth:`append` takes it."""
        keys = game_keys(game_id)
        head = self._head(game_id, expected_version)
        for _attempt in range(2):
            stamp = time or now_iso()
            envelopes, payloads = self._seal_batch(game_id, events, head, command, uuid.uuid4().hex, stamp,
                                                   expected_version)
            reply, confirmed = self._run(
                self._change_token, [keys.events, keys.meta, keys.private],
                [expected_version, head.hash, envelopes[-1]["hash"], stamp, reader, f"token:{sha256_hex(token)}",
                 json.dumps(open_seats), json.dumps(players), *payloads],
            )
            outcome = text(reply[0])
            if outcome != "stale_head":
                break
            head = self._read_head(game_id)
        if outcome == "missing":
            raise GameNotFound(game_id)
        if outcome != "ok":
            raise VersionConflict(game_id, expected_version, int(reply[1]) if outcome == "conflict"
                                  else self.version(game_id))
        last = expected_version + len(events)
        self._remember(game_id, _Head(last, envelopes[-1]["hash"], head.rules_version))
        self._check_replicated(game_id, confirmed)
        return AppendResult(envelopes, expected_version + 1, last, duplicate=False)

    def reader_for_token(self, game_id: str, token: str) -> str | None:
        reader = self._client.hget(game_keys(game_id).private, f"token:{sha256_hex(token)}")
        return text(reader) if reader is not None else None

    def seed(self, game_id: str) -> str | None:
        seed = self._client.hget(game_keys(game_id).private, "seed")
        return text(seed) if seed is not None else None

    def meta(self, game_id: str) -> JsonObject:
        """``game_id``, ``game``, ``status``, ``version``, ``head_hash``, ``created_at``, ``updated_at``,
        ``chance_mode`` and ``players`` (a list of names)."""
        meta = _meta(game_id, self._client.hgetall(game_keys(game_id).meta))
        if meta is None:
            raise GameNotFound(game_id)
        return meta

    def verify_chain(self, game_id: str) -> Integrity:
        """Re-hash the whole history as of one moment, and check the snapshot against the events it stands for.

        Besides edited events this catches deleted ones, entries whose stream id
        disagrees with their version, and a meta head that the events do not
        reach. The meta and the stream's last entry id are read in one step and
        the stream is verified up to that entry only, so an append landing
        meanwhile is neither half seen nor taken for a break. The snapshot is
        read before that step: a snapshot the service wrote stands for a version
        the stream had reached by then. A compacted game is verified from its
        compacted value; one compacted while its stream was being read is
        verified again from the value, rather than taken for a break.
        """
        checked, saw_compacted = self._verify_chain(game_id)
        if not checked.ok and not saw_compacted and compaction.read(self._client, game_id) is not None:
            checked, _saw = self._verify_chain(game_id)
        return checked

    def _verify_chain(self, game_id: str) -> tuple[Integrity, bool]:
        keys = game_keys(game_id)
        stored = self._stored_snapshot(keys)
        reply = self._scripts.head(keys=[keys.events, keys.meta])
        if text(reply[0]) == "missing":
            raise GameNotFound(game_id)
        version, head_hash, last_id = int(reply[1]), text(reply[2]), text(reply[3])
        compacted = compaction.read(self._client, game_id)
        verified, prev_hash, first_bad = 0, GENESIS_HASH, None
        for entry_id, envelope in self._history(keys, compacted, last_id):
            if entry_id != stream_id(verified + 1) or not links(envelope, prev_hash, verified + 1):
                first_bad = verified + 1
                break
            prev_hash, verified = envelope["hash"], verified + 1
        if first_bad is None and (version != verified or head_hash != prev_hash):
            first_bad = min(verified + 1, version)
        intact_to = verified if first_bad is None else first_bad - 1
        snapshot = None if stored is None else self._check_snapshot(game_id, stored, intact_to, version)
        checked = Integrity(version=version, head_hash=head_hash, first_bad_version=first_bad, snapshot=snapshot)
        return checked, compacted is not None

    def _history(
        self, keys: GameKeys, compacted: compaction.Compacted | None, last_id: str
    ) -> Iterator[tuple[str, Envelope]]:
        """Each stored event up to the stream entry ``last_id`` with the id it is stored under: the compacted
        value's in order, then the stream's."""
        done = 0
        if compacted is not None:
            for done, envelope in enumerate(compacted.envelopes(), start=1):
                yield stream_id(done), envelope
        if last_id and int(last_id.split("-")[0]) > done:
            start = f"({stream_id(done)}" if done else "-"
            for entry_id, fields in self._entries_up_to(keys, last_id, start):
                yield text(entry_id), _envelope(fields)

    def _entries_up_to(
        self, keys: GameKeys, last_id: str, start: str = "-", page_size: int = 1000
    ) -> Iterator[StreamEntry]:
        while True:
            entries = self._client.xrange(keys.events, start, last_id, count=page_size) or []
            yield from entries
            if len(entries) < page_size:
                return
            start = f"({text(entries[-1][0])}"

    def _check_snapshot(self, game_id: str, stored: bytes, intact_to: int, version: int) -> SnapshotCheck:
        """Whether the stored snapshot is the fold of the events up to its version, which verified up to
        ``intact_to`` of the ``version`` the game was at."""
        try:
            snapshot = snapshots.decode(self._snapshot_key, game_id, stored)
        except snapshots.BadSnapshot as bad:
            return SnapshotCheck(bad.version, bad.code)
        if snapshot.version > version:
            return SnapshotCheck(snapshot.version, "beyond_stream")
        if snapshot.version > intact_to:
            return SnapshotCheck(snapshot.version, "chain_broken")
        match, head_hash = self._from_events(game_id, snapshot.version)
        if head_hash != snapshot.head_hash:
            return SnapshotCheck(snapshot.version, "wrong_head")
        if canonical_json(match_to_json(match)) != canonical_json(snapshot.match):
            return SnapshotCheck(snapshot.version, "wrong_state")
        return SnapshotCheck(snapshot.version, None)

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
        open_seats: bool = False,
    ) -> tuple[list[JsonObject], int]:
        """One page of game metas, newest first, and the number of games matching all filters.

        ``player`` matches a player's name case-insensitively; the created bounds are exclusive. With
        ``open_seats`` only games with a seat still open are listed (by ``game`` at most: the caller
        refuses the other filters with it).
        """
        ids, total = index.query(
            self._client, game=game, status=status, player=player,
            created_after=created_after, created_before=created_before, offset=offset, limit=limit,
            listed_in=seats.open_key(game) if open_seats else None,
        )
        pipe = self._client.pipeline(transaction=False)
        for game_id in ids:
            pipe.hgetall(game_keys(game_id).meta)
        metas = [_meta(game_id, reply) for game_id, reply in zip(ids, pipe.execute(), strict=True)]
        return [meta for meta in metas if meta is not None], total

    def wait_for_events(
        self, game_id: str, after_version: int, timeout_ms: int, *, client: StoreClient | None = None,
        count: int | None = None,
    ) -> list[Envelope]:
        """Up to ``count`` events after ``after_version``, waiting up to ``timeout_ms`` for one (XREAD BLOCK);
        ``[]`` on timeout.

        ``client`` (default: the store's own) is the one that blocks: its read timeout must be longer
        than ``timeout_ms``, or the wait ends in a ``TimeoutError`` instead of ``[]``.
        """
        keys = game_keys(game_id)
        blocking = client or self._client
        # A list of (stream, entries) pairs: redis-py's type also admits the dict that RESP3 would send.
        reply = cast(list[tuple[str, StreamRangeResponse]], blocking.xread(
            {keys.events: stream_id(after_version)}, count=count, block=max(timeout_ms, 1)))
        if not reply:
            if not self._client.exists(keys.meta):
                raise GameNotFound(game_id)
            return self.read(game_id, after_version + 1, limit=count)
        return [_envelope(fields) for _stream, entries in reply or [] for _id, fields in entries]


def _status_after(events: list[Event]) -> str | None:
    statuses = [_STATUS_AFTER[event["type"]] for event in events if event["type"] in _STATUS_AFTER]
    return statuses[-1] if statuses else None


def _envelope(fields: Mapping[Any, Any] | None) -> Envelope:
    """The envelope of a stream entry, whose one field is ``e``: orjson, since a scoring or an export reads a
    whole history, and the standard library's decoder was a third of a scoring job's time."""
    (payload,) = (fields or {}).values()
    envelope: Envelope = orjson.loads(payload)
    return envelope


def _meta(game_id: str, reply: Mapping[Any, Any]) -> JsonObject | None:
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
        "open_seats": json.loads(meta.get("open_seats") or "[]"),
    }
