"""The complete list of legal moves of a seat, each accepted as it stands by :mod:`domain.borealis.decide`."""
from __future__ import annotations

from itertools import combinations

from domain.borealis import board as boards
from domain.borealis.catalogue import Catalogue
from domain.borealis.decide import MAX_DISCARDS, refresh_blocker
from domain.borealis.goals import claimable_goals
from domain.borealis.turns import active_seat


def _subsets(hand: list[str]) -> list[list[str]]:
    return [list(cards) for size in range(min(len(hand), MAX_DISCARDS) + 1) for cards in combinations(hand, size)]


def legal_moves(state: dict, seat: str, catalogue: Catalogue) -> list[dict]:
    phase = state["phase"]
    player = state["players"][seat]
    if phase == "mulligan":
        if player["mulligan"] is not None:
            return []
        return [{"type": "mulligan", "discard_card_ids": cards} for cards in _subsets(player["hand"])]
    if phase == "farewell":
        if player["farewell"] is not None:
            return []
        return [{"type": "choose_farewell_location", "location": location} for location in boards.LOCATIONS]
    moves: list[dict] = []
    if active_seat(state) == seat and state["step"] == "action":
        moves += _action_moves(player, catalogue)
    elif active_seat(state) == seat:
        moves += _take_moves(state, seat)
    if state["options"]["goal_claim_mode"] == "manual":
        moves += [{"type": "claim_goal", "goal_id": goal_id} for goal_id in claimable_goals(state, seat)]
    return moves


def _action_moves(player: dict, catalogue: Catalogue) -> list[dict]:
    moves = [
        {"type": "observe", "card_id": card_id, "location": location}
        for card_id in player["hand"]
        for location in boards.playable_locations(player, catalogue.cards[card_id])
    ]
    # BOR-TURN-2: Reorganise is always legal, even with no discards and empty camps (a pass, BOR-REO-5).
    targets = boards.LOCATIONS if boards.scientists_in_camps(player) else (None,)
    for cards in _subsets(player["hand"]):
        for target in targets:
            move = {"type": "reorganise", "discard_card_ids": cards}
            if target:
                move["target_location"] = target
            moves.append(move)
    return moves


def _take_moves(state: dict, seat: str) -> list[dict]:
    moves = [{"type": "take_card", "pool_slot": slot} for slot, card in enumerate(state["pool"]) if card]
    if not state["refreshed_this_turn"] and (state["deck"] or state["discards"]):
        moves.append({"type": "draw_blind"})
    if refresh_blocker(state, seat) is None:
        moves.append({"type": "refresh_pool"})
    return moves
