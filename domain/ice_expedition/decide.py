"""Commands in, events out: a command is accepted exactly when it is one of the moves ``legal_moves`` offers,
and a refusal names the most specific rule :mod:`domain.ice_expedition.explain` finds."""
from __future__ import annotations

from domain.core import Event, IllegalMove, make_event
from domain.core.canonical import canonical_json
from domain.ice_expedition import explain
from domain.ice_expedition.dig import dig_cost
from domain.ice_expedition.events import EVENT_OF
from domain.ice_expedition.flow import Flow, waiting_step
from domain.ice_expedition.legal import legal_moves
from domain.ice_expedition.turn import front_effect


def decide(rules, state: dict, seat: str, command: dict) -> list[Event]:
    if command["type"] == "use_artifact_effect":
        raise IllegalMove("no_artifact_effect", "no artifact effect is unlocked: the effect table is empty "
                          "until its data is supplied (GAP-13)", rule_id="ICE-ACT-12", field="type")
    moves = legal_moves(rules, state, seat)
    offered = {canonical_json(m) for m in moves}
    if canonical_json(command) not in offered:
        raise explain.refusal(Flow(rules, state), seat, command, waiting_step(state), moves)
    return [event_of(rules, state, seat, command)]


def event_of(rules, state: dict, seat: str, command: dict) -> Event:
    """The command as its event, with what apply cannot work out again: a kept request hidden from the other
    seats, a played tile's front and effect, a dig's cost."""
    flow = Flow(rules, state)
    values = {k: v for k, v in command.items() if k != "type"}
    kind = command["type"]
    if kind == "keep_request":
        return make_event(EVENT_OF[kind], {}, secret=values, secret_to=[seat])
    if kind == "play_snow_tile" or kind == "excavate" and command["tile"]:
        held = next(t for t in flow.player(seat)["hand"] if t["id"] == command["tile"])
        values.update(front=held["front"], effect=front_effect(flow, held))
    if kind == "excavate" and not command["tile"]:
        values["cost"] = dig_cost(flow, state["leaders"][command["leader"]], command["cryo"])
    return make_event(EVENT_OF[kind], values)
