"""Turning score sheets and provisional points into rewards in [0, 1], one per seat.

Every ranked ending is worth more to every seat than a shared defeat (0): a seat that cannot win still
prefers the expedition to reach its end. Within a ranked ending the place counts most and the margin
breaks ties between equal places.
"""
from __future__ import annotations

import math

RANKED_FLOOR = 0.3
PLACE_WEIGHT = 0.6
MARGIN_WEIGHT = 0.1
MARGIN_SCALE = 10.0


def points_reward(points: dict[str, float], floor: float = RANKED_FLOOR,
                  place_weight: float = PLACE_WEIGHT) -> dict[str, float]:
    """Rewards from points alone: share of opponents beaten (ties count half) and the margin to the best other.

    A position far from its end may be judged by the margin alone (``place_weight=0``): a one-point lead
    there says little about the final places, and weighing the place would make a point worth a cliff."""
    seats = list(points)
    if len(seats) == 1:
        (seat,) = seats
        return {seat: floor + (1 - floor) * _squash(points[seat])}
    rewards = {}
    for seat in seats:
        others = [points[other] for other in seats if other != seat]
        beaten = sum(1.0 if points[seat] > other else 0.5 if points[seat] == other else 0.0 for other in others)
        place = beaten / len(others)
        margin = _squash(points[seat] - max(others))
        scale = 1 - floor
        rewards[seat] = floor + scale * (place_weight * place + MARGIN_WEIGHT * margin) / (place_weight + MARGIN_WEIGHT)
    return rewards


def _squash(value: float) -> float:
    return 0.5 + 0.5 * math.tanh(value / MARGIN_SCALE)


def sheet_reward(sheet: dict, seats: list[str]) -> dict[str, float]:
    """Rewards of an ended game from its score sheet (``Rules.final_score``)."""
    outcome = sheet.get("outcome")
    if outcome == "won":
        return dict.fromkeys(seats, 1.0)
    totals = sheet.get("totals") or {}
    if outcome != "ranked" or not totals:
        return dict.fromkeys(seats, 0.0)
    rewards = points_reward({seat: totals.get(seat, 0) for seat in seats})
    ranking = sheet.get("ranking") or []
    rank_of = {seat: entry["rank"] for entry in ranking for seat in entry["seats"]}
    if len(seats) > 1 and rank_of:
        # The sheet's ranking (with its tie-breaks) decides places; the points only the margin.
        for seat in seats:
            mine = rank_of.get(seat, len(seats))
            others = [rank_of.get(other, len(seats)) for other in seats if other != seat]
            place = sum(1.0 if mine < other else 0.5 if mine == other else 0.0 for other in others) / len(others)
            margin = _squash(totals.get(seat, 0) - max(totals.get(other, 0) for other in seats if other != seat))
            rewards[seat] = RANKED_FLOOR + (1 - RANKED_FLOOR) * (
                PLACE_WEIGHT * place + MARGIN_WEIGHT * margin) / (PLACE_WEIGHT + MARGIN_WEIGHT)
    return rewards


def winners(sheet: dict) -> list[str]:
    """The seats in first place of a ranked sheet, every seat of a won solo game, none of a defeat."""
    if sheet.get("outcome") == "won":
        return list(sheet.get("totals") or {}) or ["p1"]
    ranking = sheet.get("ranking") or []
    if sheet.get("outcome") != "ranked" or not ranking:
        return []
    return list(ranking[0]["seats"])
