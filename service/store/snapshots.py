"""Snapshots: a cache of the fold of a game's first ``version`` events, never trusted over the events.

The store saves one when a load had to fold ``snapshot_every`` events or more,
so loading a game costs at most about that many events, however long it is.

Anyone who can write to Redis can write a snapshot key, so a snapshot is
believed only if it carries a MAC (HMAC-SHA256) made with the service's
snapshot key over the game id, the version and the snapshot's bytes. An
edit, a truncation, a snapshot copied from another game or left by a release
that wrote none all fail it before a byte of the body is parsed. The store
also refuses a snapshot whose ``head_hash`` is not the hash of the stored
event at its version. A snapshot refused for any reason is a
:class:`BadSnapshot`; the store then rebuilds the game from its events.

Stored form: one ASCII header line, ``cairn-snapshot-2 <version> <mac hex>``,
then the canonical JSON of ``{"head_hash", "match"}``.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import re
from dataclasses import dataclass
from typing import Any

import orjson

from domain.core.canonical import canonical_json
from domain.core.events import JsonObject
from domain.core.match import Match, match_to_json

logger = logging.getLogger("cairn.store")

FORMAT = b"cairn-snapshot-2"
_HEADER = re.compile(rb"cairn-snapshot-2 ([1-9][0-9]{0,17}) ([0-9a-f]{64})")


class BadSnapshot(ValueError):
    """A snapshot that does not check out; ``code`` says how (the integrity check reports it)."""

    def __init__(self, code: str, detail: str, version: int | None = None) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.version = version


@dataclass(frozen=True)
class Snapshot:
    match: JsonObject
    head_hash: str

    @property
    def version(self) -> int:
        version: int = self.match["version"]
        return version


def encode(key: bytes, game_id: str, match: Match[Any], head_hash: str) -> bytes:
    """The stored form of ``match`` (whose last event hashed to ``head_hash``), MAC'd for ``game_id``."""
    body = canonical_json({"head_hash": head_hash, "match": match_to_json(match)}).encode()
    return b"%s %d %s\n%s" % (FORMAT, match.version, _mac(key, game_id, match.version, body).encode(), body)


def decode(key: bytes | None, game_id: str, payload: bytes) -> Snapshot:
    """The snapshot ``payload`` holds if its MAC checks out for ``game_id``, else :class:`BadSnapshot`.

    Without a ``key`` no snapshot can be believed.
    """
    header, _newline, body = payload.partition(b"\n")
    parsed = _HEADER.fullmatch(header)
    if key is None or parsed is None:
        raise BadSnapshot("bad_mac", "not a signed snapshot")
    version = int(parsed[1])
    if not hmac.compare_digest(_mac(key, game_id, version, body).encode(), parsed[2]):
        raise BadSnapshot("bad_mac", "its MAC does not match")
    try:
        value = orjson.loads(body)
        snapshot = Snapshot(match=value["match"], head_hash=value["head_hash"])
        well_formed = isinstance(snapshot.head_hash, str) and snapshot.version == version
    except (ValueError, KeyError, TypeError):
        well_formed = False
    if not well_formed:
        raise BadSnapshot("malformed", "signed, but not a snapshot this release can read", version)
    return snapshot


def _mac(key: bytes, game_id: str, version: int, body: bytes) -> str:
    signed = b"%s\n%s\n%d\n%s" % (FORMAT, game_id.encode(), version, body)
    return hmac.new(key, signed, hashlib.sha256).hexdigest()
