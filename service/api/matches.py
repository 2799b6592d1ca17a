"""The API process's cache of folded games, so a request replays only the events it has not seen.

A cached match is only ever the fold of a game's first ``version`` events,
and events never change once appended, so it is always right for that
version; every request still asks the store for the game's current version
and folds what is new. A match handed out by :meth:`MatchCache.current` may
be read by several request threads at once and is never mutated: folding
works on a copy. :meth:`MatchCache.take` hands a match to a move to fold
into, out of the cache (copied only if it was ever handed out so) or loaded
by the store when the cache holds none within reach: a miss costs a load,
never a different answer.

Beside them it keeps what it read of a game's secrets: which reader each
token stands for, and the committed seed. The seed never changes; the
tokens change only by a table event (a join, a rotation), whose version a
folded match knows (``Match.table.tokens_changed_at``), so a move checks
that the tokens it knows are not older than the game it is decided on. A move whose token
and seed are known here, and whose game is cached at its expected version
or a few events short of it, needs at most one read before its append.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import NamedTuple

from domain.core.match import Match, apply_event, seat_ids

# Beyond this many new events the store's snapshot is the quicker way to the head.
FOLD_LIMIT = 100


@dataclass
class GameFacts:
    """A game's secrets, read whole from its private hash: readers by ``sha256(token)``, and the seed
    (``None`` in table mode); its seats, and the version the game had at most when they were read
    (``as_of``): a token event after it means the readers may be out of date."""

    readers: dict[str, str] = field(default_factory=dict)
    seed: str | None = None
    seat_count: int = 0
    as_of: int = 1
    seats: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.seats = seat_ids(self.seat_count)


class KnownMove(NamedTuple):
    """A move whose token this process knows: the token's hash and its game's facts, read once by the
    prelude and kept for the request, so an eviction from the cache meanwhile changes nothing."""

    token_hash: str
    facts: GameFacts


class MatchCache:
    def __init__(self, store, size: int = 512):
        self._store = store
        self._size = size
        self._matches: OrderedDict[str, Match] = OrderedDict()
        self._shared: set[str] = set()  # games whose cached match current() has handed out
        self._facts: OrderedDict[str, GameFacts] = OrderedDict()
        self._lock = threading.Lock()

    def current(self, game_id: str, version: int) -> Match:
        """The game at ``version`` (its version in the meta just read), or later if it has moved on since.

        The match stays cached and may be read by other threads meanwhile: the caller must not change it.
        """
        with self._lock:
            cached = self._matches.get(game_id)
            if cached is not None:
                self._shared.add(game_id)
        if cached is not None and cached.version == version:
            return cached
        if cached is not None and 0 < version - cached.version <= FOLD_LIMIT:
            match = self._bring_forward(game_id, cached.copy(), version)
        else:
            match = self._store.load(game_id)
        self.remember(game_id, match, shared=True)
        return match

    def take(self, game_id: str, version: int) -> Match:
        """The game for the caller to fold into, taken out of the cache: at ``version`` when it has
        reached that version, else as it stands (the caller compares versions). The cached match serves
        when it is at most :data:`FOLD_LIMIT` events short of ``version`` (a copy if :meth:`current`
        handed it out), brought forward by the events it lacks; otherwise the store loads the game.
        The caller gives it back with :meth:`remember`, or drops it."""
        with self._lock:
            cached = self._matches.pop(game_id, None)
            shared = game_id in self._shared
            self._shared.discard(game_id)
        if cached is None or version - cached.version > FOLD_LIMIT:
            return self._store.load(game_id)
        if shared:
            cached = cached.copy()
        if cached.version < version:
            self._bring_forward(game_id, cached, version)
        return cached

    def _bring_forward(self, game_id: str, match: Match, version: int) -> Match:
        """Fold into ``match`` the stored events after it, up to ``version``; the store notes the new head."""
        envelopes = self._store.read(game_id, from_version=match.version + 1, to_version=version)
        earlier = self._store.earlier(game_id)
        for envelope in envelopes:
            apply_event(match, envelope, earlier)
        if envelopes:
            self._store.note_head(game_id, match, envelopes[-1]["hash"])
        return match

    def remember(self, game_id: str, match: Match, shared: bool = False) -> None:
        """Keep ``match`` unless a later version of the game is cached already. ``shared``: the caller goes
        on reading it, so :meth:`take` must copy it; else the caller gives it up."""
        with self._lock:
            cached = self._matches.get(game_id)
            if cached is None or cached.version < match.version:
                self._matches[game_id] = match
                if shared:
                    self._shared.add(game_id)
                else:
                    self._shared.discard(game_id)
            self._matches.move_to_end(game_id)
            while len(self._matches) > self._size:
                dropped, _match = self._matches.popitem(last=False)
                self._shared.discard(dropped)

    def facts(self, game_id: str) -> GameFacts | None:
        with self._lock:
            return self._facts.get(game_id)

    def learn(self, game_id: str, readers: dict[str, str], seed: str | None, seat_count: int, as_of: int) -> None:
        """Keep what the game's private hash holds: its token hashes' readers, and its seed; the game had
        ``seat_count`` seats and was at version ``as_of`` at most when they were read."""
        with self._lock:
            self._facts[game_id] = GameFacts(readers, seed, seat_count, as_of)
            self._facts.move_to_end(game_id)
            while len(self._facts) > self._size:
                self._facts.popitem(last=False)
