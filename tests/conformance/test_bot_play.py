"""Option sets of the golden playthroughs, played by search bots rather than uniformly.

Random play rarely reaches a game's real ending (a shared defeat early in Through Ice and Snow, vessels that
never come home in Northwest Passage); bots at a small fixed budget play deeper, so the final scoring paths
run under every check the conformance harness makes.
"""
from __future__ import annotations

import pytest

from bots import SearchPolicy
from bots.play import SeatLogs
from bots.search import Budget
from domain.registry import get_rules
from tests.conformance.harness import play_random_game
from tests.playthroughs.cases import CASES

BUDGET = Budget(iterations=6, rollout_depth=6)
# The 2-player cases of the games whose bot games finish within seconds at this budget; the others (Through
# Ice and Snow, Ice Expedition, more seats) take minutes per game on a shared machine and wait for a cheaper
# determinisation or a game evaluation.
FAST = [case for case in CASES if case.game in ("borealis", "northwest-passage") and case.players == 2]


class BotSeats:
    """One search bot per seat, each reading only its own redacted log of the batches so far."""

    def __init__(self, seed: int):
        self.bots: dict[str, SearchPolicy] = {}
        self.seed = seed

    def __call__(self, seat: str, moves: list[dict], batches: list[list[dict]]) -> dict:
        logs = SeatLogs([seat])
        for batch in batches:
            logs.add(batch)
        bot = self.bots.setdefault(seat, SearchPolicy(BUDGET, self.seed + len(self.bots)))
        return bot.choose(seat, logs.logs[seat], moves)


@pytest.mark.parametrize("case", FAST, ids=[f"{case.game}-{case.name}" for case in FAST])
def test_bot_play_conforms(case):
    report = play_random_game(get_rules(case.game), case.players, case.chance_mode, 11, case.options,
                              check_every=3, sample_moves_every=23, chooser=BotSeats(11))
    assert report.match.ended
