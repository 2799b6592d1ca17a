"""The state right after ``game_created``: the boards, the table and the chance decisions setup waits for."""
from __future__ import annotations

from domain.borealis import board as boards
from domain.borealis.catalogue import Catalogue
from domain.borealis.goals import GOAL_TYPES
from domain.borealis.table import HAND_SIZE, POOL_SIZE, queue_hand_draw, queue_pool_fill
from domain.borealis.turns import choose_first_player


def initial_state(created: dict, catalogue: Catalogue) -> dict:
    """The state right after ``game_created``: empty boards and table, setup's chance decisions queued."""
    state = _blank_state(created)
    _open_setup(state, catalogue)
    return state


def _blank_state(created: dict) -> dict:
    seats = [seat["seat"] for seat in created["seats"]]
    options = created["options"]
    state = {
        "seats": seats,
        "options": options,
        "phase": "setup",
        "chance": [],
        "deck": [],
        "discards": [],
        "pool": [None] * POOL_SIZE,
        "shown": [],
        "reshuffles": 0,
        "scoring_cards": [],
        "goals": [],
        "first_player": None,
        "order": [],
        "round": 0,
        "turn": 0,
        "step": "action",
        "refreshed_this_turn": False,
        "refreshed": [],
        "end_triggered": False,
        "players": {},
    }
    for seat in seats:
        state["players"][seat] = {
            **boards.new_board("I" if options["board_side"] == "I" else None),
            "mulligan": None,
            "goals_met": [],
            "goals_claimed": [],
            "farewell": None,
        }
    return state


def _open_setup(state: dict, catalogue: Catalogue) -> None:
    """Queue the chance decisions of setup, in the order §3 gives them."""
    options = state["options"]
    queue = state["chance"]
    if options["board_side"] == "II":
        if "side_two_boards" in options:
            assign_boards(state, options["side_two_boards"])
        else:
            queue.append({"kind": "boards"})  # BOR-SETUP-1: random by default, recorded
    if "first_player" in options:
        choose_first_player(state, options["first_player"])  # BOR-SETUP-2: named by the creator
    else:
        queue.append({"kind": "first_player"})  # BOR-SETUP-2: a recorded random choice
    queue.append({"kind": "scoring_cards"})  # BOR-SETUP-5
    queue.extend({"kind": "goal", "type": kind} for kind in GOAL_TYPES)  # BOR-SETUP-6
    state["deck"] = sorted(catalogue.cards)  # BOR-SETUP-3: drawn from at random, never ordered up front
    queue_pool_fill(state, list(range(POOL_SIZE)), "setup")  # BOR-SETUP-4
    if state["first_player"]:
        deal(state)


def assign_boards(state: dict, board_ids: list[str]) -> None:
    """BOR-SETUP-1, BOR-SETUP-7: side II gives each player a different board, in seat order."""
    for seat, board_id in zip(state["seats"], board_ids, strict=False):
        state["players"][seat]["board"] = board_id


def deal(state: dict) -> None:
    """BOR-SETUP-11: 4 hidden cards each, in seat order from the first player (ASSUMED order)."""
    for seat in state["order"]:
        queue_hand_draw(state, seat, HAND_SIZE, "deal")
