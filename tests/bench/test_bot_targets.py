"""The bots bench judges every target of the brief: wins with their interval, normal ends, time per move."""
from __future__ import annotations

from bench.bots import PAIRINGS, Result, Tally, targets


def tally(wins: int, games: int, normal: int, seconds: float, longest: float = 0.0) -> Tally:
    out = Tally()
    for index in range(games):
        out.add(Result(1.0 if index < wins else 0.0, "end", index < normal, 10, seconds * 10, longest))
    return out


def verdicts(pairing, counted: Tally) -> list[bool]:
    return [met for _, met in targets(pairing, counted)]


def test_the_strong_level_is_measured_against_medium():
    assert PAIRINGS == (("weak", "random"), ("medium", "weak"), ("strong", "medium"))


def test_weak_against_random_needs_95_percent_and_a_lower_bound_of_85():
    assert verdicts(("weak", "random"), tally(40, 40, 40, 0.05)) == [True, True, True]
    assert verdicts(("weak", "random"), tally(37, 40, 40, 0.05))[0] is False  # 92.5 %
    assert verdicts(("weak", "random"), tally(19, 20, 20, 0.05))[0] is False  # 95 %, but the bound is 76 %


def test_the_stronger_levels_need_70_percent_with_a_lower_bound_above_55():
    assert verdicts(("medium", "weak"), tally(32, 40, 40, 0.2))[0] is True  # 80 %, bound 65 %
    assert verdicts(("medium", "weak"), tally(28, 40, 40, 0.2))[0] is False  # 70 %, bound 55 %


def test_normal_ends_and_time_per_move():
    assert verdicts(("medium", "weak"), tally(32, 40, 35, 0.2))[1] is False  # 87.5 % normal ends
    assert verdicts(("weak", "random"), tally(40, 40, 40, 0.12))[2] is False
    assert verdicts(("medium", "weak"), tally(32, 40, 40, 0.6))[2] is False
    assert verdicts(("strong", "medium"), tally(32, 40, 40, 3.0, longest=5.2))[2] is True
    assert verdicts(("strong", "medium"), tally(32, 40, 40, 3.0, longest=6.0))[2] is False
