"""Every option set of the golden playthroughs, played deep enough to reach the game's normal end.

Random play rarely reaches a game's real ending (a shared defeat early in Through Ice and Snow, vessels that
never come home in Northwest Passage, the day limit in I C E Expedition), so the final scoring paths would
never run under the harness's checks. Here each seat plays the rollout policy its game declares in
``bots/games`` (on the live state, as a rollout plays its determinised world; a game without one is played
uniformly); every check of the harness runs as in random play, and each
game must end the way the game normally ends (``bots.endings``).
"""
from __future__ import annotations

import random

import pytest

from bots import Level, SearchPolicy
from bots.endings import ending, is_normal
from bots.games import knowledge_for
from bots.play import SeatLogs
from bots.search import Budget
from domain.core.match import Match
from domain.registry import get_rules
from tests.conformance.harness import play_random_game
from tests.playthroughs.cases import CASES, Case

LEVEL = Level(Budget(iterations=6, rollout_depth=6))


def case_id(case: Case) -> str:
    return f"{case.game}-{case.name}"


CHECK_EVERY, SAMPLE_MOVES_EVERY = 3, 23
# The solo scenarios of Through Ice and Snow, whose prestige the rollout policy does not yet keep above 0 to
# the final voyage: their games are checked as deeply as the policy plays them.
SHORT_OF_THE_END = {case_id(case) for case in CASES if case.game == "through-ice-and-snow" and case.players == 1}


class BotSeats:
    """One search bot per seat, each reading only its own redacted log of the batches so far."""

    def __init__(self, seed: int):
        self.bots: dict[str, SearchPolicy] = {}
        self.seed = seed

    def __call__(self, match: Match, seat: str, moves: list[dict], batches: list[list[dict]]) -> dict:
        logs = SeatLogs([seat])
        for batch in batches:
            logs.add(batch)
        bot = self.bots.setdefault(seat, SearchPolicy(LEVEL, self.seed + len(self.bots)))
        return bot.choose(seat, logs.logs[seat], moves)


class RolloutSeats:
    """Every seat plays the game's rollout policy."""

    def __init__(self, game: str, seed: int):
        self.rollout = knowledge_for(game).rollout
        self.rng = random.Random(seed)

    def __call__(self, match: Match, seat: str, moves: list[dict], batches: list[list[dict]]) -> dict:
        return self.rollout(match.state, seat, moves, self.rng)


def play_deep(case: Case, seed: int, chooser=None) -> Match:
    if chooser is None and knowledge_for(case.game).rollout:
        chooser = RolloutSeats(case.game, seed)
    report = play_random_game(get_rules(case.game), case.players, case.chance_mode, seed, case.options,
                              check_every=CHECK_EVERY, sample_moves_every=SAMPLE_MOVES_EVERY, chooser=chooser)
    return report.match


@pytest.mark.parametrize("case", CASES, ids=[case_id(case) for case in CASES])
def test_deep_play_conforms_and_reaches_the_normal_end(case):
    match = play_deep(case, 1)
    end = ending(match)
    assert match.ended
    if case_id(case) not in SHORT_OF_THE_END:
        assert is_normal(case.game, end), f"{case_id(case)} ended with {end}"


# The search bot itself, reading only its own log, under the same checks: one case, its games being slow.
SEARCHED = [case for case in CASES if case.game == "borealis" and case.players == 2][:1]


@pytest.mark.parametrize("case", SEARCHED, ids=[case_id(case) for case in SEARCHED])
def test_search_bots_play_conforms(case):
    assert play_deep(case, 11, BotSeats(11)).ended
