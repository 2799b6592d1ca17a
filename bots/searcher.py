"""The search bot as a policy: sample worlds from the seat's log, search them, answer with an offered move."""
from __future__ import annotations

import random
from collections.abc import Sequence

from bots.determinise import Determiniser, Inconsistent, LogEntry
from bots.games import knowledge_for
from bots.level import Level
from bots.search import Search
from domain.core.canonical import canonical_json
from domain.core.match import Match
from domain.registry import get_rules

WORLDS = 8
GAMES_REMEMBERED = 8


class SearchPolicy:
    """Information-set search at ``level`` (the level's settings for the game the log is of).

    The worlds sampled for a seat are kept between its turns and extended with the events since, so a game
    costs one determinisation per world rather than one per turn; a world the new events contradict is
    drawn anew. ``stats`` counts moves chosen, moves left to chance because no consistent world could be
    drawn, and the level's errors and hasty moves (each played without a search).
    """

    def __init__(self, level: Level, seed: int, worlds: int = WORLDS):
        self.level = level
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.stats = {"moves": 0, "unsampled": 0, "errors": 0, "hasty": 0}
        self._kept: dict[tuple[str, str], list[Match]] = {}

    def choose(self, seat: str, events: Sequence[LogEntry], legal_moves: list[dict]) -> dict:
        self.stats["moves"] += 1
        if len(legal_moves) == 1:
            return legal_moves[0]
        game = events[0]["data"]["game"]
        level = self.level.for_game(game)
        count = min(self.worlds, level.budget.iterations)
        worlds = self._worlds(Determiniser(get_rules(game), seat, events), (seat, canonical_json(events[0])), count)
        if not worlds:
            self.stats["unsampled"] += 1
            return self.rng.choice(legal_moves)
        knowledge = knowledge_for(game)
        # Each draw is made only by a level that may play such a move, so a level that never does plays the
        # games it always did.
        if level.errors and self.rng.random() < level.errors:
            self.stats["errors"] += 1
            kept = legal_moves if knowledge.prune is None else knowledge.prune(worlds[0].state, seat, legal_moves)
            return self.rng.choice(kept)
        if level.hasty and knowledge.rollout is not None and self.rng.random() < level.hasty:
            self.stats["hasty"] += 1
            return knowledge.rollout(worlds[0].state, seat, legal_moves, self.rng)
        return Search(knowledge, level.budget, self.rng).choose(worlds, seat, legal_moves)

    def _worlds(self, determiniser: Determiniser, key: tuple[str, str], count: int) -> list[Match]:
        kept = self._kept.pop(key, [])
        worlds = []
        for index in range(count):
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
