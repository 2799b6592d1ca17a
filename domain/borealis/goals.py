"""Goal requirements (BOR-GOAL-1): each goal card's test, with its threshold from ``data/goals.json``, and
which goals a player may still claim.

A requirement looks only at the player's own board and last action, so a
player's status can change only during their own turn (BOR-GOAL-2).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from domain.borealis.board import CAMPS, COLOURS, LOCATIONS
from domain.borealis.catalogue import Card, Goal

GOAL_TYPES = ("animal", "scientist", "vehicle")

Test = Callable[[dict, dict[str, Card], int, int], bool]


def _cards_in_play(board: dict, cards: dict[str, Card]) -> list[Card]:
    return [cards[card_id] for location in LOCATIONS for card_id in board["stacks"][location]]


def _one_colour_in_camps(board, cards, returned, threshold):
    return any(sum(board["scientists"][camp][colour] for camp in CAMPS) >= threshold for colour in COLOURS)


def _scientists_in_one_camp(board, cards, returned, threshold):
    return any(sum(board["scientists"][camp].values()) >= threshold for camp in CAMPS)


def _returned_by_one_reorganise(board, cards, returned, threshold):
    return returned >= threshold


def _at_most_scientists_per_location(board, cards, returned, threshold):
    return all(sum(board["scientists"][location].values()) <= threshold for location in LOCATIONS)


def _cards_in_each_location(board, cards, returned, threshold):
    return all(len(board["stacks"][location]) >= threshold for location in LOCATIONS)


def _cards_in_one_location(board, cards, returned, threshold):
    return any(len(board["stacks"][location]) >= threshold for location in LOCATIONS)


def _species_in_play(board, cards, returned, threshold):
    return len({card.species for card in _cards_in_play(board, cards)}) >= threshold


def _cards_of_one_species(board, cards, returned, threshold):
    counts = Counter(card.species for card in _cards_in_play(board, cards))
    return max(counts.values(), default=0) >= threshold


def _cards_of_one_vehicle(board, cards, returned, threshold):
    counts = Counter(card.vehicle for card in _cards_in_play(board, cards))
    return max(counts.values(), default=0) >= threshold


def _every_flag_at_least(board, cards, returned, threshold):
    return min(board["flags"].values()) >= threshold


def _some_flag_at_least(board, cards, returned, threshold):
    return max(board["flags"].values()) >= threshold


def _flag_gap_at_least(board, cards, returned, threshold):
    return max(board["flags"].values()) - min(board["flags"].values()) >= threshold


TESTS: dict[str, Test] = {
    "one_colour_in_camps": _one_colour_in_camps,
    "scientists_in_one_camp": _scientists_in_one_camp,
    "returned_by_one_reorganise": _returned_by_one_reorganise,
    "at_most_scientists_per_location": _at_most_scientists_per_location,
    "cards_in_each_location": _cards_in_each_location,
    "cards_in_one_location": _cards_in_one_location,
    "species_in_play": _species_in_play,
    "cards_of_one_species": _cards_of_one_species,
    "cards_of_one_vehicle": _cards_of_one_vehicle,
    "every_flag_at_least": _every_flag_at_least,
    "some_flag_at_least": _some_flag_at_least,
    "flag_gap_at_least": _flag_gap_at_least,
}


def requirement_met(goal: Goal, board: dict, cards: dict[str, Card], returned: int = 0) -> bool:
    """BOR-GOAL-1: ``returned`` is the number of scientists the action just brought back from the camps."""
    return TESTS[goal.test](board, cards, returned, goal.threshold)


def goal_available(goal: dict, seat_count: int) -> bool:
    """A goal can still be claimed: not removed (BOR-GOAL-4) and a 5-star token left (BOR-GOAL-1)."""
    return not goal["removed"] and len(goal["claimed_by"]) < seat_count


def claimable_goals(state: dict, seat: str) -> list[str]:
    """Goals ``seat`` may claim now in ``manual`` mode: available, not yet claimed by it, requirement met once."""
    if state["phase"] != "play":
        return []
    player = state["players"][seat]
    return [
        goal["goal_id"] for goal in state["goals"]
        if goal_available(goal, len(state["seats"]))
        and goal["goal_id"] not in player["goals_claimed"]
        and goal["goal_id"] in player["goals_met"]
    ]
