"""The API process's cache of folded games, so a request replays only the events it has not seen.

A cached match is only ever the fold of a game's first ``version`` events,
and events never change once appended, so it is always right for that
version; every request still asks the store for the game's current version
and folds what is new. Cached matches are shared by request threads and
never mutated: folding works on a copy.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from domain.core.match import Match, apply_event

# Beyond this many new events the store's snapshot is the quicker way to the head.
FOLD_LIMIT = 100


class MatchCache:
    def __init__(self, store, size: int = 512):
        self._store = store
        self._size = size
        self._matches: OrderedDict[str, Match] = OrderedDict()
        self._lock = threading.Lock()

    def current(self, game_id: str, version: int) -> Match:
        """The game at ``version`` (its version in the meta just read), or later if it has moved on since."""
        cached = self._get(game_id)
        if cached is not None and cached.version == version:
            return cached
        if cached is not None and 0 < version - cached.version <= FOLD_LIMIT:
            match = cached.copy()
            for envelope in self._store.read(game_id, from_version=cached.version + 1, to_version=version):
                apply_event(match, envelope)
        else:
            match = self._store.load(game_id)
        self.remember(game_id, match)
        return match

    def remember(self, game_id: str, match: Match) -> None:
        """Keep ``match`` unless a later version of the game is cached already."""
        with self._lock:
            cached = self._matches.get(game_id)
            if cached is None or cached.version < match.version:
                self._matches[game_id] = match
            self._matches.move_to_end(game_id)
            while len(self._matches) > self._size:
                self._matches.popitem(last=False)

    def _get(self, game_id: str) -> Match | None:
        with self._lock:
            return self._matches.get(game_id)
