"""Borealis: a position is worth the score sheet it would get if the expedition ended now.

Borealis always reaches its scoring, so uniform rollouts serve; what the search lacks is a judgement where a
rollout stops short of the end. The game's own scoring applied to the position (species sets, flags, card
stars, the scoring cards and star tokens held so far) gives it.
"""
from __future__ import annotations

from bots.games import Scores
from bots.outcome import points_reward
from domain.registry import get_rules


def evaluate(state: dict, seats: list[str]) -> Scores:
    totals = get_rules("borealis").final_score(state)["totals"]
    return points_reward({seat: float(totals.get(seat, 0)) for seat in seats})
