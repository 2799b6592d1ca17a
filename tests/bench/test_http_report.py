"""The HTTP benchmark says by how much a ratio target is missed, and what a request may cost to meet it."""
from __future__ import annotations

from bench._loadgen import Outcome
from bench.http import Pairs, ceiling, shortfall


def test_a_missed_ratio_names_each_level_short_of_it_and_by_how_much():
    levels = [Pairs(1), Pairs(8), Pairs(32)]
    assert shortfall(levels, [0.54, 0.64, 0.50], 0.6) == " (short at 1 clients by 0.06, 32 clients by 0.10)"
    assert shortfall(levels, [0.6, 0.64, 0.61], 0.6) == ""


def test_the_ceiling_is_the_baseline_cpu_over_the_target():
    assert ceiling(0.56, 1.09, 0.6) == "at 0.6 a request may cost at most 0.93 ms of server CPU, 0.16 ms less than now"
    assert ceiling(0.56, 0.90, 0.6).endswith("now within it")


def test_pairs_ratio_each_round_to_its_own_baseline():
    pairs = Pairs(8, baseline=[outcome(1000), outcome(2000)], cairn={"submission": [outcome(600), outcome(1000)]})
    assert pairs.ratios("submission") == [0.6, 0.5]


def outcome(rate: float) -> Outcome:
    return Outcome(steps=int(rate), seconds=1.0)
