"""Decisions the rules ask of one seat outside its Action-phase turn: the pending-decision queue.

Each kind lists every move it accepts (``moves``), names the rule that asks
for it, and applies the chosen move (``resolve``). The game waits for the
first entry of the queue before any automatic step or other decision.
"""
from __future__ import annotations

from domain.core.canonical import canonical_json
from domain.core.errors import IllegalMove
from domain.through_ice_and_snow import voyage
from domain.through_ice_and_snow.board import State, pay
from domain.through_ice_and_snow.catalogue import CAT, RESOURCES
from domain.through_ice_and_snow.tracks import (
    discard_choices,
    discard_species_for_food,
    send_to_sick_bay,
    sick_choices,
)

CABIN_FOOD_PER_VP = 2

# kind -> (command, rule asking for it); TIS-CMD-6, TIS-CMD-7, TIS-CMD-9, TIS-CMD-11, TIS-CMD-15, TIS-CMD-16,
# TIS-CMD-17 (one species card per command, TIS-AMB-16) and the follow-ups of TIS-CMD-13.
COMMANDS = {
    "destination": ("choose_destination", "TIS-VOY-2"),
    "map_side": ("place_map_section", "TIS-CMD-7"),
    "voyage_type": ("choose_voyage_type", "TIS-VOY-5"),
    "inuk_guide": ("inuk_guide_map", "TIS-CMD-11"),
    "discard": ("choose_discard", "TIS-CMD-15"),
    "sick": ("choose_sick_crew", "TIS-TRK-HEALTH-1"),
    "food_shortage": ("resolve_food_shortage", "TIS-TRK-FOOD-3"),
    "cabin_food": ("lower_food_for_cabin", "TIS-ACT-20"),
    "collect": ("collect_resource", "TIS-ACT-42"),
}


def moves(state: State, entry: dict) -> list[dict]:
    """Every command the pending decision ``entry`` accepts."""
    kind = entry["kind"]
    command = COMMANDS[kind][0]
    player = state["players"][entry["seat"]]
    if kind == "destination":
        return [{"type": command, "anchor": anchor} for anchor in voyage.destinations(state)]
    if kind == "map_side":
        return [{"type": command, "section": entry["section"], "side": side}
                for side in voyage.section_sides(entry["section"])]
    if kind == "voyage_type":
        return [{"type": command, "voyage": choice} for choice in voyage.voyage_choices(state)]
    if kind == "inuk_guide":
        return [{"type": command, "map": True}, {"type": command, "map": False}]
    if kind == "discard":
        return [{"type": command, "resource": resource} for resource in discard_choices(player)]
    if kind == "sick":
        return [{"type": command, "crew": crew} for crew in sick_choices(player, entry["count"])]
    if kind == "food_shortage":
        return [{"type": command, "card": card} for card in sorted(set(player["species"]))]
    if kind == "cabin_food":
        return [{"type": command, "amount": amount} for amount in range(player["food"] + 1)]
    box = state["warehouses"][entry["column"]]
    return [{"type": command, "resource": resource} for resource in RESOURCES if box.get(resource)]


def check(state: State, entry: dict, command: dict) -> None:
    expected, rule_id = COMMANDS[entry["kind"]]
    if command.get("type") != expected:
        raise IllegalMove("decision_pending", f"the game waits for your {expected} decision", rule_id=rule_id,
                          field="type")
    key = canonical_json(command)
    if not any(canonical_json(move) == key for move in moves(state, entry)):
        raise IllegalMove("invalid_choice", f"that {expected} is not one of the choices now", rule_id=rule_id)


def resolve(state: State, command: dict) -> None:
    """Apply the answer to the first pending decision (already checked)."""
    entry = state["pending"][0]
    seat = entry["seat"]
    player = state["players"][seat]
    kind = entry["kind"]
    done = True
    if kind == "destination":
        state["destination"] = command["anchor"]
        state["route_extra"] = any(route["to"] == command["anchor"] and route["extra_dynamite"]
                                   for route in voyage.routes(state))
        section = voyage.unplaced_section(state, command["anchor"])
        if section:
            state["pending"].insert(1, {"seat": seat, "kind": "map_side", "section": section})
    elif kind == "map_side":
        state["sections"][command["section"]] = command["side"]
    elif kind == "voyage_type":
        state["voyage"] = command["voyage"]
    elif kind == "inuk_guide" and command["map"]:
        voyage.map_region(state)
    elif kind == "discard":
        pay(state, player, command["resource"])
    elif kind == "sick":
        send_to_sick_bay(player, command["crew"])
    elif kind == "food_shortage":
        done = discard_species_for_food(state, seat, command["card"], entry["need"])
    elif kind == "cabin_food":
        player["food"] -= command["amount"]
        player["vp"] += command["amount"] // CABIN_FOOD_PER_VP
    elif kind == "collect":
        done = collect(state, entry, player, command["resource"])
    if done:
        state["pending"].pop(0)


def collect(state: State, entry: dict, player: dict, resource: str) -> bool:
    """TIS-ACT-42: take from the box, not the supply; a dog with no empty dog space goes to the supply (ASSUMED)."""
    box = state["warehouses"][entry["column"]]
    box[resource] -= 1
    if not box[resource]:
        del box[resource]
    if resource == "dog":
        if player["dogs"] < CAT.tracks["dogs"]["max"]:
            player["dogs"] += 1
        else:
            state["supply"]["dog"] += 1
    else:
        player[resource] += 1
    entry["left"] -= 1
    return entry["left"] == 0 or not box
