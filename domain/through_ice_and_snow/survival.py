"""Survival module (spec 8.1, TIS-SURV): the first action above each column's warehouse in a round costs a
resource deposited into that warehouse.

Switched on by the option ``survival``, and always on in the single-player scenarios (TIS-SURV-1).
"""
from __future__ import annotations

from domain.through_ice_and_snow import actions, board, flow
from domain.through_ice_and_snow.board import State, owned
from domain.through_ice_and_snow.catalogue import CAT, RESOURCES

FIELD = "survival_deposit"


def active(state: State) -> bool:
    """TIS-SURV-1: the option, or any single-player scenario."""
    return bool(state["options"].get("survival") or state["options"].get("scenario"))


def surcharge_due(state: State, space_id: str) -> bool:
    """TIS-SURV-2 / TIS-SURV-4: only spaces above a column's warehouse, until someone pays for that column this
    round; warehouse actions, spaces below, Ice Fishing, event cards and final-round actions never pay."""
    if not active(state) or space_id == actions.EVENT_SPACE:
        return False
    space = CAT.spaces[space_id]
    return space["position"] == "above" and space["column"] not in state["survival_paid"]


def with_deposits(state: State, seat: int, space_id: str, choices: list[dict]) -> list[dict]:
    """TIS-SURV-2 / TIS-SURV-3: each choice of the space, paired with every resource the player can put in the
    warehouse and still meet the action's own requirements (its wood, rifles, dogs) afterwards."""
    if not surcharge_due(state, space_id):
        return choices
    player = state["players"][seat]
    paired: list[dict] = []
    for kind in RESOURCES:
        if not owned(player, kind):
            continue
        key = "dogs" if kind == "dog" else kind
        player[key] -= 1
        try:
            if actions.space_refusal(state, seat, space_id) is None:
                still = actions.extras(state, seat, space_id, until=with_deposits)
                paired.extend({**choice, FIELD: kind} for choice in choices if choice in still)
        finally:
            player[key] += 1
    return paired


def deposit(state: State, seat: int, command: dict) -> None:
    """TIS-SURV-2: the resource goes into the column's warehouse box first; TIS-SURV-3: it stays there (open to
    Resource Collection) and the column is paid for the round, whatever the box holds later."""
    kind = command.get(FIELD)
    if kind is None:
        return
    player = state["players"][seat]
    player["dogs" if kind == "dog" else kind] -= 1
    column = CAT.spaces[command["space"]]["column"]
    box = state["warehouses"][column]
    box[kind] = box.get(kind, 0) + 1
    state["survival_paid"].append(column)


def new_round(state: State) -> None:
    """TIS-SURV-3: the per-round flag of each column, kept apart from the box contents."""
    state["survival_paid"] = []


def add_state(state: State) -> None:
    state["survival_paid"] = []


board.NEW_STATE.append(add_state)
board.PUBLIC_KEYS.append("survival_paid")
actions.CHOICE_HOOKS.append(with_deposits)
actions.MODULE_CHOICES[FIELD] = "TIS-SURV-2"
actions.BEFORE_EFFECT.append(deposit)
flow.ACTION_START.append(new_round)
