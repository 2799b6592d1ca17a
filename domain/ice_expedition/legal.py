"""The complete list of legal moves of a seat: the choices of the decision the game waits for, else the
actions of the active player's turn."""
from __future__ import annotations

from domain.ice_expedition.decisions import wait_moves
from domain.ice_expedition.flow import Flow, waiting_step
from domain.ice_expedition.turn import turn_moves


def to_act(state: dict) -> list[str]:
    """The seat a decision waits for, else the active player once the script has run out."""
    if state["chance"] or state["phase"] == "over":
        return []
    step = waiting_step(state)
    if step is not None:
        return [step["seat"]]
    return [state["active"]] if state["active"] and not state["script"] else []


def legal_moves(rules, state: dict, seat: str) -> list[dict]:
    if seat not in to_act(state):
        return []
    flow = Flow(rules, state)
    step = waiting_step(state)
    return wait_moves(flow, step) if step is not None else turn_moves(flow, seat)
