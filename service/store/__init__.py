"""The Redis Streams event store: append-only game histories with a hash chain, snapshots and an index."""
from service.store.durability import Durability, configure_durability
from service.store.errors import GameNotFound, IdempotencyMismatch, NotReplicated, RateLimited, VersionConflict
from service.store.lua import BucketCharge
from service.store.replication import Replication
from service.store.store import AppendResult, EventStore, Integrity, SnapshotCheck, VersionOutOfRange

__all__ = [
    "AppendResult",
    "BucketCharge",
    "Durability",
    "EventStore",
    "GameNotFound",
    "IdempotencyMismatch",
    "Integrity",
    "NotReplicated",
    "RateLimited",
    "Replication",
    "SnapshotCheck",
    "VersionConflict",
    "VersionOutOfRange",
    "configure_durability",
]
