"""The search bot as a policy: sample worlds from the seat's log, search them, answer with an offered move."""
from __future__ import annotations

import random
from collections.abc import Sequence

from bots.determinise import Determiniser, Inconsistent, LogEntry
from bots.games import knowledge_for
from bots.search import Budget, Search
from domain.core.canonical import canonical_json
from domain.core.match import Match
from domain.registry import get_rules

WORLDS = 8
GAMES_REMEMBERED = 8


class SearchPolicy:
    """Information-set search within ``budget``.

    The worlds sampled for a seat are kept between its turns and extended with the events since, so a game
    costs one determinisation per world rather than one per turn; a world the new events contradict is
    drawn anew. ``stats`` counts moves chosen and moves left to chance because no consistent world could
    be drawn.
    """

    def __init__(self, budget: Budget, seed: int, worlds: int = WORLDS):
        self.budget = budget
        self.rng = random.Random(seed)
        self.worlds = min(worlds, budget.iterations)
        self.stats = {"moves": 0, "unsampled": 0}
        self._kept: dict[tuple[str, str], list[Match]] = {}

    def choose(self, seat: str, events: Sequence[LogEntry], legal_moves: list[dict]) -> dict:
        self.stats["moves"] += 1
        if len(legal_moves) == 1:
            return legal_moves[0]
        game = events[0]["data"]["game"]
        worlds = self._worlds(Determiniser(get_rules(game), seat, events), (seat, canonical_json(events[0])))
        if not worlds:
            self.stats["unsampled"] += 1
            return self.rng.choice(legal_moves)
        return Search(knowledge_for(game), self.budget, self.rng).choose(worlds, seat, legal_moves)

    def _worlds(self, determiniser: Determiniser, key: tuple[str, str]) -> list[Match]:
        kept = self._kept.pop(key, [])
        worlds = []
        for index in range(self.worlds):
            world = kept[index] if index < len(kept) and kept[index].version <= len(determiniser.events) else None
            try:
                worlds.append(determiniser.sample(self.rng, world))
            except Inconsistent:
                try:
                    worlds.append(determiniser.sample(self.rng))
                except Inconsistent:
                    continue
        self._kept[key] = worlds
        while len(self._kept) > GAMES_REMEMBERED:
            del self._kept[next(iter(self._kept))]
        return worlds
