"""Random legal play under the options the generic conformance run does not use, and the replay speed."""
from __future__ import annotations

import time

import pytest

from domain.borealis import RULES
from domain.core import SERVER, TABLE
from domain.core.match import replay
from tests.conformance.harness import play_random_game


@pytest.mark.parametrize(("options", "players", "mode"), [
    ({"goal_claim_mode": "manual"}, 3, SERVER),
    ({"goal_claim_mode": "manual", "board_side": "II"}, 4, TABLE),
    ({"board_side": "II", "refresh_limit": "table_per_round"}, 2, SERVER),
])
def test_random_play_conforms_with_options(options, players, mode):
    """BOR-GOAL-6 manual claims out of turn, BOR-SETUP-1 side II, §11 A4 table refresh limit."""
    report = play_random_game(RULES, players, mode, 11, options=options, check_every=3, sample_moves_every=11)
    assert report.match.ended
    assert RULES.final_score(report.match.state)["ranking"][0]["rank"] == 1


def test_a_complete_game_replays_in_well_under_50_ms():
    report = play_random_game(RULES, 4, SERVER, 5, check_every=1000, sample_moves_every=1000)
    started = time.perf_counter()
    match = replay(report.events, lambda name: RULES)
    elapsed = time.perf_counter() - started
    assert match.ended and len(report.events) > 300
    assert elapsed < 0.05
