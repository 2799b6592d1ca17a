"""Redis key names. Every key of one game carries the hash tag ``{G}``, so on a
Redis Cluster a game's keys share one slot and its Lua append stays legal.
The index keys span games, so they cannot share a game's slot; they carry the
hash tag ``{index}`` instead, which keeps them in one slot of their own, where
an intersection of two of them (or a transaction over several) is legal."""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

INDEX_PREFIX = "cairn:{index}:"
INDEX_ALL = f"{INDEX_PREFIX}all"


@dataclass(frozen=True)
class GameKeys:
    events: str
    meta: str
    idem: str
    snapshot: str
    private: str
    compacted: str


def game_keys(game_id: str) -> GameKeys:
    tag = f"cairn:{{{game_id}}}"
    return GameKeys(
        events=f"{tag}:events",
        meta=f"{tag}:meta",
        idem=f"{tag}:idem",
        snapshot=f"{tag}:snapshot",
        private=f"{tag}:private",
        compacted=f"{tag}:compacted",
    )


def token_bucket(game_id: str, token_hash: str) -> str:
    """A game token's rate-limit bucket, in the game's slot so that a move's append can charge it."""
    return f"cairn:{{{game_id}}}:ratelimit:{token_hash}"


def index_key(*, game: str | None = None, status: str | None = None, player: str | None = None) -> str:
    """The index set of the games with all the given properties: ``cairn:{index}:all`` for none, else e.g.
    ``cairn:{index}:game=borealis&status=active&player=ann`` (values percent-encoded, so no name can forge
    another combination's key; ``player`` as the index files it, lowercased)."""
    given = [f"{kind}={quote(value, safe='')}" for kind, value in (("game", game), ("status", status),
                                                                     ("player", player)) if value is not None]
    return f"{INDEX_PREFIX}{'&'.join(given)}" if given else INDEX_ALL


def stream_id(version: int) -> str:
    """Stream entry ids encode versions, so a racing append cannot fork history."""
    return f"{version}-0"
