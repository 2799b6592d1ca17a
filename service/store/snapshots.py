"""Snapshots: a cache of the fold of a game's first ``version`` events, never trusted over the events.

The store saves one when a load had to fold ``snapshot_every`` events or more,
so loading a game costs at most about that many events, however long it is.

A snapshot carries the checksum of its match and the hash of the event it
stands for. :func:`decode` refuses one whose checksum does not match (edited,
truncated, written by a buggy release), and the store refuses one whose
``head_hash`` is not the hash of the stored event at its version; either way
the game is rebuilt from its events.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from domain.core.canonical import canonical_json, sha256_hex
from domain.core.match import Match, match_to_json

logger = logging.getLogger("cairn.store")


@dataclass(frozen=True)
class Snapshot:
    match: dict
    head_hash: str

    @property
    def version(self) -> int:
        return self.match["version"]


def encode(match: Match, head_hash: str) -> str:
    """``{"checksum", "head_hash", "match"}`` as canonical JSON, the match encoded once."""
    body = canonical_json(match_to_json(match))
    return f'{{"checksum":"{sha256_hex(body)}","head_hash":"{head_hash}","match":{body}}}'


def decode(game_id: str, payload: bytes | str | None) -> Snapshot | None:
    """The snapshot if it is intact, else ``None`` (logged: a bad snapshot means something wrote over it)."""
    if payload is None:
        return None
    try:
        value = json.loads(payload)
        intact = value["checksum"] == sha256_hex(canonical_json(value["match"]))
        snapshot = Snapshot(match=value["match"], head_hash=value["head_hash"])
    except (ValueError, KeyError, TypeError):
        intact = False
    if not intact:
        logger.warning("snapshot of game %s fails its checksum; rebuilding from events", game_id)
        return None
    return snapshot
