"""Folding one event into the state: total, no checks, no draws.

An event is applied every time a game is loaded, replayed, audited or exported, so what it does may only depend
on the state and the event; every automatic step that follows runs here too (``flow.advance``), which is how a
replay repeats every consequence without deciding anything again.
"""
from __future__ import annotations

from domain.core import Event, full_data, seat_of
from domain.through_ice_and_snow import actions, decisions, explorers, flow, legendary, walking
from domain.through_ice_and_snow.board import State
from domain.through_ice_and_snow.decisions import CHOICE_EVENTS

DECISION_EVENTS = set(CHOICE_EVENTS.values())
# The modules' events -> their effect.
EVENTS = {"legendary_card_chosen": legendary.chosen, "region_charted": explorers.charted,
          "top_card_looked_at": explorers.peeked, "food_cans_eaten": walking.cans_eaten,
          "sailor_let_die": walking.sailor_died}
# The event types the moves of the game leave in its history (the engine adds its own, e.g. chance_resolved).
EVENT_TYPES = frozenset({"investor_chosen", "cartography_chosen", "action_taken", "passed", *DECISION_EVENTS, *EVENTS})


def apply(state: State, event: Event) -> State:
    kind = event["type"]
    data = full_data(event)
    if kind == "chance_resolved":
        _chance(state, data["outcome"])
    elif kind in DECISION_EVENTS:
        decisions.resolve(state, data)
    else:
        seat = state["seats"].index(seat_of(event))
        if kind == "investor_chosen":
            state["players"][seat]["investor"] = data["card"]
        elif kind == "cartography_chosen":
            state["players"][seat]["carto"] = data["card"]
        elif kind == "action_taken":
            actions.take_action(state, seat, data)
            flow.next_turn(state)
        elif kind == "passed":
            state["players"][seat]["passed"] = True
            flow.next_turn(state)
        elif kind in EVENTS:
            EVENTS[kind](state, seat, data)
    return flow.advance(state)


def _chance(state: State, outcome: list[str]) -> None:
    """The drawn cards leave their deck; the base game's draws, then those of the match's parts."""
    node = state["chance"]
    state["chance"] = None
    key = node["key"]
    if key == "helm_tie":
        state["helm"] = state["seats"].index(outcome[0])
        return
    deck = state["decks"][node["deck"]]
    top = state["known_top"].pop(node["deck"], None)
    if top is not None and node["count"] > 1:
        outcome = [top, *outcome]
    for card in outcome:
        deck.remove(card)
    handlers = state["parts"].table("chance_handlers")
    if key in handlers:
        handlers[key](state, node, outcome)
    elif key == "extra_removal":
        state["removed_events"].extend(outcome)
        deck.extend(f"ev{number:02d}" for number in state["extras_todo"][node["deck"]])
        state["extras_todo"][node["deck"]] = []
    elif key == "mast":
        state["peek"] = list(outcome)
        state["pending"].append({"seat": node["seat"], "kind": "mast"})
    elif key in ("deal_investor", "deal_cartography"):
        dealt = "investor_dealt" if key == "deal_investor" else "carto_dealt"
        state["players"][node["seat"]][dealt] = list(outcome)
        state["deal_index"] += 1
    elif key == "event":
        state["event"] = outcome[0]
        if outcome[0] in state["bottom"][node["deck"]]:
            state["bottom"][node["deck"]].remove(outcome[0])
    elif key == "event_species":
        state["event_species"] = outcome[0]
    elif key == "hunting_setup":
        state["revealed"]["hunting"] = list(outcome)
    else:
        state["revealed"]["species"] = list(outcome)
