"""Decisions the rules ask of one seat outside its Action-phase turn: the pending-decision queue.

Each kind lists every move it accepts (``moves``), names the rule that asks
for it, and applies the chosen move (``resolve``). The game waits for the
first entry of the queue before any automatic step or other decision.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from domain.core.canonical import canonical_json
from domain.core.commands import unoffered_field
from domain.core.errors import IllegalMove
from domain.through_ice_and_snow import voyage
from domain.through_ice_and_snow.board import State, pay, score
from domain.through_ice_and_snow.catalogue import CAT, RESOURCES
from domain.through_ice_and_snow.tracks import (
    discard_choices,
    discard_species_for_food,
    send_to_sick_bay,
    sick_choices,
)

CABIN_FOOD_PER_VP = 2


class Decision(NamedTuple):
    """A kind of pending decision: the command answering it and the rule asking for it; a part's own kinds also
    give their moves and their effect (the base game's are this file's)."""

    command: str
    rule_id: str
    moves: Callable[[State, dict], list[dict]] | None = None
    resolve: Callable[[State, dict, dict], None] | None = None


# The base game's kinds: TIS-CMD-6, TIS-CMD-7, TIS-CMD-9, TIS-CMD-11, TIS-CMD-15, TIS-CMD-16, TIS-CMD-17 (one
# species card per command, TIS-AMB-16) and the follow-ups of TIS-CMD-13. A match's kinds are the ``decisions``
# table of its composition, which its parts add to.
COMMANDS = {
    "destination": Decision("choose_destination", "TIS-VOY-2"),
    "map_side": Decision("place_map_section", "TIS-CMD-7"),
    "voyage_type": Decision("choose_voyage_type", "TIS-VOY-5"),
    "inuk_guide": Decision("inuk_guide_map", "TIS-CMD-11"),
    "discard": Decision("choose_discard", "TIS-CMD-15"),
    "sick": Decision("choose_sick_crew", "TIS-TRK-HEALTH-1"),
    "food_shortage": Decision("resolve_food_shortage", "TIS-TRK-FOOD-3"),
    "cabin_food": Decision("lower_food_for_cabin", "TIS-ACT-20"),
    "collect": Decision("collect_resource", "TIS-ACT-42"),
    "boiler": Decision("use_boiler", "TIS-AMB-7"),
    "mast": Decision("mast_choose", "TIS-CMD-10"),
    "compass": Decision("damaged_compass_redirect", "TIS-CMD-12"),
}

# The command answering each kind of pending decision -> the event it becomes.
CHOICE_EVENTS = {
    "choose_destination": "destination_chosen",
    "place_map_section": "map_section_placed",
    "choose_voyage_type": "voyage_type_chosen",
    "inuk_guide_map": "inuk_guide_answered",
    "choose_discard": "resource_discarded",
    "choose_sick_crew": "crew_sent_to_sick_bay",
    "resolve_food_shortage": "species_discarded_for_food",
    "lower_food_for_cabin": "food_lowered_for_cabin",
    "collect_resource": "resource_collected",
    "use_boiler": "boiler_answered",
    "mast_choose": "mast_card_kept",
    "damaged_compass_redirect": "compass_answered",
    "choose_start_anchor": "start_anchor_chosen",
    "choose_free_upgrade": "free_upgrade_chosen",
    "activate_treatment": "treatment_answered",
    "mcclure_trade": "mcclure_traded",
    "belcher_override": "belcher_answered",
    "abandon_ship": "abandon_answered",
    "choose_cargo": "cargo_chosen",
    "return_upgrade": "upgrade_returned",
}


def moves(state: State, entry: dict) -> list[dict]:
    """Every command the pending decision ``entry`` accepts, with the variants the parts add (e.g. food cans in a
    cabin)."""
    found = base_moves(state, entry)
    for hook in state["parts"].hooks("decision_moves"):
        found = hook(state, entry, found)
    return found


def base_moves(state: State, entry: dict) -> list[dict]:
    kind = entry["kind"]
    decision = state["parts"].table("decisions")[kind]
    command = decision.command
    player = state["players"][entry["seat"]]
    if decision.moves is not None:
        return decision.moves(state, entry)
    if kind == "destination":
        # a magnetized compass (TIS-SOLO-MAG-9, TIS-CMD-6) leaves only the engine's candidates
        return [{"type": command, "anchor": anchor} for anchor in entry.get("choices", voyage.destinations(state))]
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
        # crew lost since the decision was queued (a Death in the same Attrition) shrink it, down to nobody
        exclude = tuple(entry.get("exclude", ()))
        free = sum(count for crew_type, count in player["free"].items() if crew_type not in exclude)
        return [{"type": command, "crew": crew} for crew in sick_choices(player, min(entry["count"], free), exclude)]
    if kind == "food_shortage":
        return [{"type": command, "card": card} for card in sorted(set(player["species"]))]
    if kind == "boiler":
        return [{"type": command, "use": True}, {"type": command, "use": False}]
    if kind == "mast":
        return [{"type": command, "card": card} for card in state["peek"]]
    if kind == "compass":
        return [{"type": command, "anchor": anchor} for anchor in [*entry["choices"], None]]
    if kind == "cabin_food":
        return [{"type": command, "amount": amount} for amount in range(player["food"] + 1)]
    box = state["warehouses"][entry["column"]]
    return [{"type": command, "resource": resource} for resource in RESOURCES if box.get(resource)]


def check(state: State, entry: dict, command: dict) -> None:
    decision = state["parts"].table("decisions")[entry["kind"]]
    expected, rule_id = decision.command, decision.rule_id
    if command.get("type") != expected:
        raise IllegalMove("decision_pending", f"the game waits for your {expected} decision", rule_id=rule_id,
                          field="type")
    key = canonical_json(command)
    choices = moves(state, entry)
    if not any(canonical_json(move) == key for move in choices):
        raise unoffered_field(command, choices, rule_id) or IllegalMove(
            "invalid_choice", f"that {expected} is not one of the choices now", rule_id=rule_id)


def resolve(state: State, command: dict) -> None:
    """Apply the answer to the first pending decision (already checked); then the parts' ``answered`` hooks see
    it, whatever its kind (e.g. a cabin's food for an objective)."""
    entry = state["pending"][0]
    seat = entry["seat"]
    player = state["players"][seat]
    kind = entry["kind"]
    done = True
    game = state["parts"]
    decision = game.table("decisions")[kind]
    if decision.resolve is not None:
        decision.resolve(state, entry, command)
    elif kind == "destination":
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
        score(player, cabin_vp(state, player, command["amount"]))
    elif kind == "collect":
        done = collect(state, entry, player, command["resource"])
    elif kind == "boiler" and command["use"]:
        pay(state, player, "wood")
        state["fuel_loss"]["amounts"][str(seat)] -= 1
        state["boiler_used"].append(seat)
    elif kind == "mast":
        keep_from_mast(state, seat, command["card"])
    elif kind == "compass" and command["anchor"] is not None:
        redirect(state, command["anchor"])
    for hook in game.hooks("answered"):
        hook(state, entry, command)
    if done:
        state["pending"].pop(0)


def cabin_vp(state: State, player: dict, lowered: int) -> int:
    """TIS-ACT-20: 1 VP per 2 food lowered in Build Cabin, unless a part gives the player its own (e.g. Parry)."""
    own = (hook(player, lowered) for hook in state["parts"].hooks("cabin_vp"))
    return next((vp for vp in own if vp is not None), lowered // CABIN_FOOD_PER_VP)


def keep_from_mast(state: State, seat: int, card: str) -> None:
    """Upgrade 9: the kept card is this round's event; the other goes to the bottom, known to this seat only."""
    deck = state["voyage"]
    other = next(peeked for peeked in state["peek"] if peeked != card)
    state["peek"] = []
    state["event"] = card
    state["decks"][deck].append(other)
    state["bottom"][deck].append(other)
    state["peeked"].setdefault(other, []).append(seat)


def redirect(state: State, anchor: str) -> None:
    """Event 25: this round's dynamite moves with the fleet; a new section is placed by the leader if needed."""
    old = state["anchor"]
    state["dynamite_on"][old] -= 1
    if not state["dynamite_on"][old]:
        del state["dynamite_on"][old]
    state["dynamite_on"][anchor] = state["dynamite_on"].get(anchor, 0) + 1
    state["anchor"] = state["destination"] = anchor
    section = voyage.unplaced_section(state, anchor)
    if section:
        state["pending"].insert(1, {"seat": state["leader"], "kind": "map_side", "section": section})


def collect(state: State, entry: dict, player: dict, resource: str) -> bool:
    """TIS-ACT-42: take from the box, not the supply; a dog with no empty dog space goes to the supply (ASSUMED)."""
    box = state["warehouses"][entry["column"]]
    box[resource] -= 1
    if not box[resource]:
        del box[resource]
    if resource == "dog":
        if player["dogs"] < CAT.tracks["dogs"]["max"] and not player.get("fixed_dogs"):
            player["dogs"] += 1
        else:
            state["supply"]["dog"] += 1
    else:
        player[resource] += 1
    entry["left"] -= 1
    return entry["left"] == 0 or not box
