"""Folding one event into the state: setup's draws, turns, rounds, goals, the end.

Total, no checks, no randomness: ``decide`` checked the command and wrote every
outcome into the event, so here it is only carried out, in place.
"""
from __future__ import annotations

from domain.borealis import board as boards
from domain.borealis import table
from domain.borealis.catalogue import Catalogue
from domain.borealis.goals import requirement_met
from domain.borealis.setup import assign_boards, deal
from domain.borealis.turns import choose_first_player
from domain.core import full_data

END_TRIGGER_CARDS = 7


def apply(state: dict, event: dict, catalogue: Catalogue) -> dict:
    kind = event["type"]
    data = full_data(event)
    seat = event.get("seat")
    if kind == "chance_resolved":
        item = state["chance"][0]
        if item["kind"] in ("hand", "pool"):
            table.resolve_draw(state, item, data["outcome"])
        else:
            _resolve_setup_choice(state, item, data["outcome"])
    else:
        _apply_move(state, kind, seat, data, catalogue)
    table.settle_draws(state)
    _advance_phase(state)
    return state


def _apply_move(state: dict, kind: str, seat: str, data: dict, catalogue: Catalogue) -> None:
    player = state["players"].get(seat)
    if kind == "mulligan":
        _discard_from_hand(state, player, data["discard_card_ids"])  # BOR-SETUP-12
        table.queue_hand_draw(state, seat, len(data["discard_card_ids"]), "mulligan")
        player["mulligan"] = data["discard_card_ids"]
    elif kind == "card_observed":
        card = catalogue.cards[data["card_id"]]
        player["hand"].remove(card.card_id)
        boards.observe(player, card, data["location"], catalogue.boards[player["board"]][data["location"]])
        _check_end_trigger(state, seat)
        _latch_goals(state, seat, catalogue, 0)
        state["step"] = "take"
    elif kind == "pool_refreshed":
        player["token_stars"] -= data["paid"]
        table.discard(state, data["discard_card_ids"])
        state["pool"] = [None] * table.POOL_SIZE
        table.queue_pool_fill(state, list(range(table.POOL_SIZE)), "refresh")
        state["refreshed_this_turn"] = True
        state["refreshed"].append(seat)
    elif kind == "card_taken":
        slot = data["pool_slot"]
        player["hand"].append(state["pool"][slot])
        state["pool"][slot] = None
        table.queue_pool_fill(state, [slot], "refill")
    elif kind == "blind_draw":
        table.queue_hand_draw(state, seat, 1, "blind_draw")
    elif kind == "reorganised":
        _discard_from_hand(state, player, data["discard_card_ids"])  # BOR-REO-1
        table.queue_hand_draw(state, seat, len(data["discard_card_ids"]), "reorganise")  # BOR-REO-2
        returned = boards.reorganise(player, data["target_location"])
        _latch_goals(state, seat, catalogue, returned)
    elif kind == "goal_claimed":
        _claim_goal(state, seat, data["goal_id"], data["stars"])
    elif kind == "turn_ended":
        _end_turn(state)
    elif kind == "farewell_location_chosen":
        player["farewell"] = data["location"]
        if all(p["farewell"] for p in state["players"].values()):
            state["phase"] = "over"


def _discard_from_hand(state: dict, player: dict, card_ids: list[str]) -> None:
    for card_id in card_ids:
        player["hand"].remove(card_id)
    table.discard(state, card_ids)


def _resolve_setup_choice(state: dict, item: dict, outcome: list[str]) -> None:
    kind = item["kind"]
    state["chance"].pop(0)
    if kind == "boards":
        assign_boards(state, outcome)
    elif kind == "first_player":
        choose_first_player(state, outcome[0])
        deal(state)
    elif kind == "scoring_cards":
        state["scoring_cards"] = list(outcome)
    else:
        state["goals"].append(
            {"goal_id": outcome[0], "type": item["type"], "claimed_by": [], "first_claim_round": None,
             "removed": False}
        )


def _advance_phase(state: dict) -> None:
    """Leave setup once its draws are done; start round 1 once every mulligan is in (BOR-SETUP-12, 13)."""
    if state["chance"]:
        return
    if state["phase"] == "setup":
        state["phase"] = "mulligan"
    if state["phase"] == "mulligan" and all(p["mulligan"] is not None for p in state["players"].values()):
        state["phase"] = "play"
        state["round"] = 1  # BOR-SETUP-13
        state["turn"] = 0


def _latch_goals(state: dict, seat: str, catalogue: Catalogue, returned: int) -> None:
    """BOR-GOAL-2: once a requirement is met at a checkpoint, it stays met (needed for late claims, BOR-GOAL-5)."""
    player = state["players"][seat]
    for goal in state["goals"]:
        goal_id = goal["goal_id"]
        if goal_id not in player["goals_met"] and requirement_met(catalogue.goals[goal_id], player,
                                                                  catalogue.cards, returned):
            player["goals_met"].append(goal_id)


def _check_end_trigger(state: dict, seat: str) -> None:
    """BOR-OBS-5, BOR-END-1: 7 cards in one location triggers the end; the round is still finished."""
    stacks = state["players"][seat]["stacks"]
    if any(len(stack) >= END_TRIGGER_CARDS for stack in stacks.values()):
        state["end_triggered"] = True


def _claim_goal(state: dict, seat: str, goal_id: str, stars: int) -> None:
    """BOR-GOAL-1: a 5-star token; the first claim opens the window until the end of this round (BOR-GOAL-3)."""
    goal = next(goal for goal in state["goals"] if goal["goal_id"] == goal_id)
    goal["claimed_by"].append(seat)
    if goal["first_claim_round"] is None:
        goal["first_claim_round"] = state["round"]
    player = state["players"][seat]
    player["goals_claimed"].append(goal_id)
    player["token_stars"] += stars


def _end_turn(state: dict) -> None:
    """BOR-TURN-1..3 and the end of round, BOR-ROUND-1."""
    state["turn"] += 1
    state["step"] = "action"
    state["refreshed_this_turn"] = False
    if state["turn"] < len(state["order"]):
        return
    for goal in state["goals"]:
        # A goal nobody has claimed stays available all game (BOR-GOAL-7).
        if goal["first_claim_round"] == state["round"]:
            goal["removed"] = True  # BOR-ROUND-1 (1), BOR-GOAL-4: the card and its unclaimed tokens leave
    state["refreshed"] = []  # BOR-ROUND-1 (2)
    if state["end_triggered"]:
        # BOR-ROUND-1 (3), BOR-END-1: every player has had the same number of turns.
        state["phase"] = "farewell" if "farewell_party" in state["scoring_cards"] else "over"
        return
    state["round"] += 1  # BOR-TURN-3: the same first player starts the next round
    state["turn"] = 0


