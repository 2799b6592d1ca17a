"""The game's course as the evolver sees it: setup, turns, rounds, goals, the end.

Everything here is ``apply``'s side: it trusts the event (``decide`` checked
the command) and changes the state in place.
"""
from __future__ import annotations

from domain.borealis import board as boards
from domain.borealis.catalogue import Catalogue
from domain.borealis.goals import requirement_met
from domain.borealis.table import HAND_SIZE, POOL_SIZE, queue_hand_draw, queue_pool_fill

END_TRIGGER_CARDS = 7
GOAL_TYPES = ("animal", "scientist", "vehicle")


def new_state(created: dict) -> dict:
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


def open_setup(state: dict, catalogue: Catalogue) -> None:
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


def choose_first_player(state: dict, seat: str) -> None:
    """BOR-SETUP-2; seat order is fixed, play goes round from the first player (BOR-TURN-1)."""
    seats = state["seats"]
    start = seats.index(seat)
    state["first_player"] = seat
    state["order"] = seats[start:] + seats[:start]


def deal(state: dict) -> None:
    """BOR-SETUP-11: 4 hidden cards each, in seat order from the first player (ASSUMED order)."""
    for seat in state["order"]:
        queue_hand_draw(state, seat, HAND_SIZE, "deal")


def resolve_setup_choice(state: dict, item: dict, outcome: list[str]) -> None:
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


def advance_phase(state: dict) -> None:
    """Leave setup once its draws are done; start round 1 once every mulligan is in (BOR-SETUP-12, 13)."""
    if state["chance"]:
        return
    if state["phase"] == "setup":
        state["phase"] = "mulligan"
    if state["phase"] == "mulligan" and all(p["mulligan"] is not None for p in state["players"].values()):
        state["phase"] = "play"
        state["round"] = 1  # BOR-SETUP-13
        state["turn"] = 0


def active_seat(state: dict) -> str | None:
    if state["phase"] != "play":
        return None
    return state["order"][state["turn"]]


def latch_goals(state: dict, seat: str, catalogue: Catalogue, returned: int) -> None:
    """BOR-GOAL-2: once a requirement is met at a checkpoint, it stays met (needed for late claims, BOR-GOAL-5)."""
    player = state["players"][seat]
    for goal in state["goals"]:
        goal_id = goal["goal_id"]
        if goal_id not in player["goals_met"] and requirement_met(catalogue.goals[goal_id], player,
                                                                  catalogue.cards, returned):
            player["goals_met"].append(goal_id)


def check_end_trigger(state: dict, seat: str) -> None:
    """BOR-OBS-5, BOR-END-1: 7 cards in one location triggers the end; the round is still finished."""
    stacks = state["players"][seat]["stacks"]
    if any(len(stack) >= END_TRIGGER_CARDS for stack in stacks.values()):
        state["end_triggered"] = True


def claim_goal(state: dict, seat: str, goal_id: str, stars: int) -> None:
    """BOR-GOAL-1: a 5-star token; the first claim opens the window until the end of this round (BOR-GOAL-3)."""
    goal = next(goal for goal in state["goals"] if goal["goal_id"] == goal_id)
    goal["claimed_by"].append(seat)
    if goal["first_claim_round"] is None:
        goal["first_claim_round"] = state["round"]
    player = state["players"][seat]
    player["goals_claimed"].append(goal_id)
    player["token_stars"] += stars


def end_turn(state: dict) -> None:
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
