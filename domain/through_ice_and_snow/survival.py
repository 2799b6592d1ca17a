"""Survival module (spec 8.1, TIS-SURV): the first action above each column's warehouse in a round costs a
resource deposited into that warehouse.

Played with the option ``survival``, and always in the single-player scenarios (TIS-SURV-1).
"""
from __future__ import annotations

from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions
from domain.through_ice_and_snow.board import State, owned
from domain.through_ice_and_snow.catalogue import CAT, RESOURCES

FIELD = "survival_deposit"


def surcharge_due(state: State, space_id: str) -> bool:
    """TIS-SURV-2 / TIS-SURV-4: only spaces above a column's warehouse, until someone pays for that column this
    round; warehouse actions, spaces below, Ice Fishing, event cards and final-round actions never pay."""
    if space_id == actions.EVENT_SPACE:
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


# The record of the columns paid for this round is in every match, Survival played or not (an empty list
# then): every recorded game and view has always held it.
RECORD = RulePart("survival_record", hooks={"new_state": (add_state,), "public_keys": ("survival_paid",),
                                            "action_start": (new_round,)})
PART = RulePart(
    "survival",
    hooks={"choices": (with_deposits,), "before_effect": (deposit,)},
    entries={"module_choices": {FIELD: "TIS-SURV-2"}},
)
