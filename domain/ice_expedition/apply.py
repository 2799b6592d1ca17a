"""Folding one event into the state: the command it records is carried out again, then the script runs on.

Total, no checks, no randomness: ``decide`` accepted only a move ``legal_moves`` offered, and every chance
outcome arrives as its own event.
"""
from __future__ import annotations

from domain.core import full_data
from domain.ice_expedition import chances
from domain.ice_expedition.decisions import resolve_wait
from domain.ice_expedition.events import COMMAND_OF, INFO_KEYS
from domain.ice_expedition.flow import Flow, waiting_step
from domain.ice_expedition.script import advance
from domain.ice_expedition.turn import apply_turn_move


def apply(rules, state: dict, event: dict) -> dict:
    flow = Flow(rules, state)
    if event["type"] == "chance_resolved":
        chances.resolve(flow, full_data(event)["outcome"])
    else:
        seat = event["seat"]
        move = {"type": COMMAND_OF[event["type"]], **full_data(event)}
        for key in INFO_KEYS:
            move.pop(key, None)
        step = waiting_step(state)
        if step is not None and step["seat"] == seat:
            resolve_wait(flow, step, move)
        else:
            apply_turn_move(flow, seat, move)
    advance(flow)
    if state["phase"] == "setup" and state["turn"] is not None:
        state["phase"] = "play"
    return state
