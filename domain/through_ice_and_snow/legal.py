"""Who the game waits for, and the complete list of moves a seat may make now, each accepted by ``decide``.

Setup waits for every seat with a card still to keep; then the first pending decision's seat, or the seat whose
Action-phase turn it is, with the commands the match's parts open at any decision point.
"""
from __future__ import annotations

from domain.through_ice_and_snow import actions, decisions
from domain.through_ice_and_snow.board import State
from domain.through_ice_and_snow.setup import SETUP_CHOICES, SETUP_STEPS, owed


def to_act(state: State) -> list[str]:
    if state["over"] is not None or state["chance"] is not None:
        return []
    if state["pending"]:
        return [state["seats"][state["pending"][0]["seat"]]]
    if state["step"] == "choose":
        return [state["seats"][index] for index in range(state["n"]) if _setup_moves(state, index)]
    if state["step"] == "action":
        return [state["seats"][state["turn"]]]
    return []


def legal_moves(state: State, seat: str) -> list[dict]:
    if seat not in to_act(state):
        return []
    index = state["seats"].index(seat)
    extra = [move for moves in state["parts"].table("extra_moves").values() for move in moves(state, index)] \
        if state["step"] not in SETUP_STEPS else []
    if state["pending"]:
        return [*decisions.moves(state, state["pending"][0]), *extra]
    if state["step"] == "choose":
        return _setup_moves(state, index)
    return [*actions.action_moves(state, index), *extra]


def _setup_moves(state: State, index: int) -> list[dict]:
    """The setup cards a seat still has to keep: investor and cartography, then the modules' own."""
    player = state["players"][index]
    return [*({"type": command, "card": card} for command, (chosen, dealt, _) in SETUP_CHOICES.items()
              if player[chosen] is None for card in player[dealt]), *owed(state, index)]
