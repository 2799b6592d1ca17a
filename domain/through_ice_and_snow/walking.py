"""Walking on Ice (spec 8.4, TIS-WALK): the module's own Central-West and West sections with their route types,
and the choice to abandon the ships for sleds: maintenance, cargo, food cans, guilt, Traverse phases, walking
event cards and the action tiles.

Played with the option ``walking_on_ice``. Data: walking.json (GAP-8 and the module's numbers), the typed
routes and anchors of map.json marked ``walking``, cards 29-36 in events.json, tiles 12-13 in upgrades.json, the
action tiles in action_board.json (``replaces``).
"""
from __future__ import annotations

from itertools import product

from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions, decisions, flow, tracks, voyage
from domain.through_ice_and_snow.board import State, clockwise, crew_count, gain, pay, push, remove_crew, score
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.decisions import Decision
from domain.through_ice_and_snow.tracks import demand_food, lower_track, owe_discard, raise_track, scurvy_like

OPTION = "walking_on_ice"
DATA = CAT.walking
WALKING, FORCED_MARCH = "walking", "forced_march"
CARGO = ("dynamite", "wood", "rifle", "food_can")
REPLACED = {space["replaces"]: space_id for space_id, space in CAT.spaces.items() if space.get("replaces")}


def abandoned(state: State) -> bool:
    return state["walking"]["abandoned"]


def add_state(state: State) -> None:
    """TIS-WALK-1: the module's sections replace Central-West and West; tiles 12 and 13 join the supply."""
    state["map_variant"] = "walking"
    state["checks"].append("cargo")
    state["walking"] = {"abandoned": False}
    state["decks"]["walking"] = []
    state["bottom"]["walking"] = []
    state["supply"]["food_can"] = DATA["food_can_supply"]
    for tile in CAT.upgrades.values():
        if tile["set"] == OPTION:
            state["tiles"][str(tile["number"])] = tile["copies"]
    for player in state["players"]:
        player.update(food_can=0, guilt=0, maintenance=None, carried=0)


# ---------------------------------------------------------------- routes (TIS-WALK-2, TIS-WALK-3)


def open_route(state: State, route: dict) -> bool:
    """TIS-WALK-3: walking routes only once the ship is abandoned."""
    return route.get("type") != "WK" or abandoned(state)


def route_chosen(state: State, entry: dict, command: dict) -> None:
    """TIS-WALK-3: broken-ice and ice routes cost every player 1 more fuel in the Voyage step (added to its loss,
    ASSUMED); after abandonment the printed fuel surcharges are ignored (an ice route's dynamite is not)."""
    if entry["kind"] != "destination":
        return
    typed = [route.get("type") for route in voyage.routes(state) if route["to"] == command["anchor"]]
    state["route_fuel"] = 1 if not abandoned(state) and {"BI", "IC"} & set(typed) else 0


# ---------------------------------------------------------------- abandonment (TIS-WALK-4..7, -16, -17)


def leadership(state: State, base: flow.Step) -> bool:
    """TIS-WALK-4 / TIS-WALK-5 / TIS-AMB-11: from the placing of Central-West, at the end of the Leadership step,
    the leader may abandon ship; it is forced when every player's fuel is below 4. Not in the final voyage
    (ASSUMED)."""
    result = base(state)
    if abandoned(state) or state["over"] is not None or state["final_voyage"] \
            or "CW" not in state["sections"]:
        return result
    if all(player["fuel"] < DATA["forced_abandon_fuel"] for player in state["players"]):
        abandon(state, voluntary=False)
    else:
        push(state, state["leader"], "abandon")
    return result


def abandon_moves(state: State, entry: dict) -> list[dict]:
    return [{"type": "abandon_ship", "abandon": True}, {"type": "abandon_ship", "abandon": False}]


def abandon_answered(state: State, entry: dict, command: dict) -> None:
    if command["abandon"]:
        abandon(state, voluntary=True)


def abandon(state: State, voluntary: bool) -> None:
    """TIS-WALK-6 (TIS-WALK-14 is its worked example), in order: sled token; voyage decks to the box and the
    walking deck; action tiles (refusals below); boards moved: tracks, crew, dogs, at most 3 tiles, maintenance at
    the sled level, food to its limit; wood for the fuel left, fuel to guilt 0; 5 food cans; cargo to its limit
    (asked by ``cargo_check``). TIS-WALK-17: a voluntary abandonment raises the leader's guilt by 3 per player with
    fuel 8+ and 1 per player with fuel 4-7 (the leader included, ASSUMED)."""
    state["walking"]["abandoned"] = True
    if voluntary:
        leader = state["players"][state["leader"]]
        for player in state["players"]:
            step = next((band["guilt"] for band in DATA["voluntary_guilt"] if player["fuel"] >= band["min_fuel"]), 0)
            leader["guilt"] = min(DATA["guilt_max"], leader["guilt"] + step)
    for deck in (voyage.COASTAL, voyage.OPEN_SEA):
        state["removed_events"].extend(state["decks"][deck])
        state["decks"][deck] = []
    state["decks"]["walking"] = [f"ev{number:02d}" for number in DATA["walking_deck"]]
    for seat, player in enumerate(state["players"]):
        player["tile_spaces"] = DATA["sled_tiles"]
        if len(player["upgrades"]) > DATA["sled_tiles"]:
            push(state, seat, "return_tile")
        player["maintenance"] = player["sled"] + franklin_bonus(player)
        gain(state, player, "wood", player["fuel"])
        player["fuel"] = 0
        gain(state, player, "food_can", DATA["food_cans"])
        cap_food(player)


def franklin_bonus(player: dict) -> int:
    """Franklin (spec 2.6): maintenance +1 after the transfer, and up to 1 above the sled level afterwards."""
    return 1 if player.get("explorer") == "explorer-A" else 0


def limits(player: dict) -> dict:
    """TIS-WALK-7 / GAP-8: the food and cargo limits of the maintenance level."""
    return DATA["maintenance"][str(player["maintenance"])]


def cap_food(player: dict) -> None:
    if player["maintenance"] is not None:
        player["food"] = min(player["food"], limits(player)["food"])


def cargo(player: dict) -> int:
    """Resources on the sled but dogs, and a sailor carried by event 32."""
    return sum(player.get(kind, 0) for kind in CARGO) + player["carried"]


def cargo_check(state: State) -> None:
    """TIS-WALK-6 (7) / TIS-WALK-8: a sled over its cargo limit discards resources of its owner's choice
    (``choose_cargo``); food never stays above its limit. Also after gains (ASSUMED)."""
    if not abandoned(state) or state["over"] is not None:
        return
    for seat, player in enumerate(state["players"]):
        player["carried"] = min(player["carried"], player["crew"]["sailor"])  # the carried sailor may have died
        cap_food(player)
        if cargo(player) > limits(player)["cargo"] and not any(
                entry["kind"] == "cargo" and entry["seat"] == seat for entry in state["pending"]):
            push(state, seat, "cargo")


def cargo_moves(state: State, entry: dict) -> list[dict]:
    player = state["players"][entry["seat"]]
    room = max(0, limits(player)["cargo"] - player["carried"])
    held = [player.get(kind, 0) for kind in CARGO]
    return [{"type": "choose_cargo", "keep": dict(zip(CARGO, kept, strict=True))}
            for kept in product(*(range(count + 1) for count in held)) if sum(kept) == min(room, sum(held))]


def cargo_chosen(state: State, entry: dict, command: dict) -> None:
    player = state["players"][entry["seat"]]
    for kind, kept in command["keep"].items():
        if player.get(kind, 0) > kept:
            pay(state, player, kind, player[kind] - kept)


def tile_moves(state: State, entry: dict) -> list[dict]:
    return [{"type": "return_upgrade", "upgrade": number} for number in state["players"][entry["seat"]]["upgrades"]]


def tile_returned(state: State, entry: dict, command: dict) -> None:
    """TIS-WALK-6 (4): the sled board holds 3 tiles; the one chosen goes back to the box."""
    state["players"][entry["seat"]]["upgrades"].remove(command["upgrade"])


# ---------------------------------------------------------------- maintenance (TIS-WALK-7, -8, -12)


def raise_maintenance(player: dict, amount: int) -> None:
    """Never above the sled level (Franklin: +1), never below 1."""
    player["maintenance"] = min(player["sled"] + franklin_bonus(player), player["maintenance"] + amount)


def lower_maintenance(state: State, amount: int) -> None:
    """TIS-WALK-12: maintenance never goes below 1; what would have gone below is a shortfall the others tow
    (TIS-TRK-FUEL-4 with maintenance above 1 in place of fuel, the INTERPRETATION of the spec), or TIS-LOSE-3."""
    shortfalls = {}
    for seat in clockwise(state, state["leader"]):
        player = state["players"][seat]
        missing = max(0, amount - (player["maintenance"] - 1))
        player["maintenance"] = max(1, player["maintenance"] - amount)
        if missing:
            shortfalls[seat] = missing
    if shortfalls:
        for player in state["players"]:
            player["fuel"] = player["maintenance"] - 1
        tracks.tow(state, shortfalls)
        for player in state["players"]:
            player["maintenance"] = player["fuel"] + 1
            player["fuel"] = 0


# ---------------------------------------------------------------- the Traverse phase (TIS-WALK-10, -11)


def voyage_type(state: State, base: flow.Step) -> bool:
    """TIS-WALK-11 (5): Walking or Forced march instead of the voyage type; the final Traverse is walked
    (ASSUMED, like the base game's final open-sea voyage)."""
    if not abandoned(state):
        return base(state)
    state["step"] = "fuel"
    if state["final_voyage"]:
        state["voyage"] = WALKING
        return True
    explorers = state.get("explorers") or {}
    chooser = explorers.get("belcher_voyage")
    if chooser is not None:
        explorers["belcher_voyage"] = None
    push(state, state["leader"] if chooser is None else chooser, "traverse")
    return True


def traverse_moves(state: State, entry: dict) -> list[dict]:
    """TIS-WALK-11: a forced march needs a total maintenance of 2 per player (ASSUMED 2 for 1 player)."""
    total = sum(player["maintenance"] for player in state["players"])
    choices = [WALKING] + ([FORCED_MARCH] if total >= DATA["forced_march_total"][str(state["n"])] else [])
    return [{"type": "choose_voyage_type", "voyage": choice} for choice in choices]


def traverse_chosen(state: State, entry: dict, command: dict) -> None:
    state["voyage"] = command["voyage"]


def traverse(state: State, base: flow.Step) -> bool:
    """TIS-WALK-11 (5): the sled moves; every player feeds the crew as in the Meal (fed twice a round); a forced
    march then lowers every maintenance by 1 (TIS-WALK-12)."""
    if not abandoned(state):
        return base(state)
    state["previous_anchor"] = state["anchor"]
    state["anchor"] = state["destination"]
    for seat in clockwise(state, state["leader"]):
        demand_food(state, seat, crew_count(state["players"][seat]))
    if state["voyage"] == FORCED_MARCH:
        lower_maintenance(state, 1)
    state["step"] = "mapping"
    return True


def mapping(state: State, base: flow.Step) -> bool:
    """TIS-WALK-11: a forced march maps the region like a coastal voyage; walking does not."""
    if not abandoned(state) or state["final_voyage"]:
        return base(state)
    if state["voyage"] == FORCED_MARCH:
        voyage.map_region(state)
    state["step"] = "event"
    return True


def draw_event(state: State, base: flow.Step) -> bool:
    """TIS-WALK-6 (2): the top walking card, whatever the Traverse type."""
    if not abandoned(state):
        return base(state)
    state["step"] = "event_effect" if state["decks"]["walking"] else "card_setup"
    if state["decks"]["walking"]:
        state["chance"] = {"key": "event", "deck": "walking", "count": 1}
    return True


# ---------------------------------------------------------------- walking event cards (TIS-WALK-20)


def blizzard(state: State, card: dict) -> None:
    """Card 29: food -2 without the food-shortage procedure, and 1 resource discarded."""
    for seat in clockwise(state, state["leader"]):
        player = state["players"][seat]
        player["food"] = max(0, player["food"] - card["amount"])
        owe_discard(state, seat, "blizzard")


def severe_illness(state: State, card: dict) -> None:
    """Card 32: each player with a sailor carries one on the sled for the rest of the game (a cargo space, never
    acts, eats); ``let_sailor_die`` ends it for 5 VP."""
    for player in state["players"]:
        if player["crew"]["sailor"] and not player["carried"]:
            player["carried"] = 1
            player["free"]["sailor"] = min(player["free"]["sailor"], player["crew"]["sailor"] - 1)


def frostbite(state: State, card: dict) -> None:
    """Card 34: 2 crew members who are not Inuit to the sick bay (back at Boarding)."""
    for seat in clockwise(state, state["leader"]):
        scurvy_like(state, seat, card["amount"], ("inuk",))


def frozen_weapons(state: State, card: dict) -> None:
    """Card 35: 1 rifle discarded."""
    for player in state["players"]:
        if player["rifle"]:
            pay(state, player, "rifle")


def improved_equipment(state: State, seat: int) -> None:
    """Card 31: the taker pays 1 wood, then maintenance +1 (the card's health and morale are its gains)."""
    player = state["players"][seat]
    pay(state, player, "wood")
    raise_maintenance(player, 1)


def needs_wood(state: State, seat: int, space_id: str) -> actions.IllegalMove | None:
    card = actions.event_card(state) if space_id == actions.EVENT_SPACE else None
    if card and card["effect"] == "improved_equipment" and not state["players"][seat]["wood"]:
        return actions.refuse("no_wood", "Improved equipment is paid with 1 wood", "TIS-WALK-20", "space")
    return None


def inuit_customs(state: State, seat: int, command: dict) -> None:
    """Card 36 kept: an action using the scientist also raises morale by 1."""
    player = state["players"][seat]
    uses_scientist = command["lead"] == "scientist" or command["crew"].get("scientist")
    if uses_scientist and any(CAT.events[int(card[2:])].get("ability") == "scientist_morale"
                              for card in player["kept_events"]):
        raise_track(player, "morale", 1)


def sailor_moves(state: State, seat: int) -> list[dict]:
    player = state["players"][seat]
    return [{"type": "let_sailor_die"}] if player["carried"] and player["crew"]["sailor"] else []


def sailor_died(state: State, seat: int, data: dict) -> None:
    player = state["players"][seat]
    player["carried"] = 0
    remove_crew(player, "sailor")
    player["vp"] -= DATA["illness_vp"]


def boarding(state: State, base: flow.Step) -> bool:
    """The sailor carried by card 32 never comes back to act."""
    result = base(state)
    for player in state["players"]:
        player["carried"] = min(player["carried"], player["crew"]["sailor"])
        player["free"]["sailor"] -= player["carried"]
    return result


# ---------------------------------------------------------------- food cans (TIS-WALK-9)


def can_moves(state: State, seat: int) -> list[dict]:
    """TIS-WALK-9 / TIS-CMD-19: at any decision of the player's after abandonment."""
    cans = state["players"][seat].get("food_can", 0) if abandoned(state) else 0
    return [{"type": "discard_food_can", "count": count} for count in range(1, cans + 1)]


def cans_eaten(state: State, seat: int, data: dict) -> None:
    """Food +5 and health -1 (with the space effect) per can."""
    player = state["players"][seat]
    for _ in range(data["count"]):
        pay(state, player, "food_can")
        player["food"] += DATA["can_food"]
        lower_track(state, seat, "health", DATA["can_health"], effects=True)
    cap_food(player)


def cabin_cans(state: State, entry: dict, moves: list[dict]) -> list[dict]:
    """TIS-WALK-9 / TV-2: in Build Cabin, each food can discarded counts as 5 food lowered, without health."""
    if entry["kind"] != "cabin_food":
        return moves
    cans = state["players"][entry["seat"]]["food_can"]
    return [*moves, *({**move, "cans": count} for move in moves for count in range(1, cans + 1))]


def cabin_answered(state: State, entry: dict, command: dict) -> None:
    if entry["kind"] != "cabin_food" or not command.get("cans"):
        return
    player = state["players"][entry["seat"]]
    pay(state, player, "food_can", command["cans"])
    counted = command["amount"] + DATA["cabin_food_per_can"] * command["cans"]
    score(player, decisions.cabin_vp(state, player, counted) - decisions.cabin_vp(state, player, command["amount"]))


# ---------------------------------------------------------------- action tiles (TIS-WALK-15, -19)


def tiles(state: State, seat: int, space_id: str) -> actions.IllegalMove | None:
    """The action tiles cover their spaces once the ship is abandoned, and only then."""
    if space_id == actions.EVENT_SPACE:
        return None
    space = CAT.spaces[space_id]
    if space.get("replaces") and not abandoned(state):
        return actions.refuse("sled_action", "this action tile is laid when the ship is abandoned", "TIS-WALK-15",
                              "space")
    if space_id in REPLACED and abandoned(state):
        return actions.refuse("covered", f"{REPLACED[space_id]!r} covers this space on the ice", "TIS-WALK-15",
                              "space")
    if space["action"] == "tin_refining" and not state["players"][seat].get("food_can"):
        return actions.refuse("no_food_can", "Tin Refining is paid with a food can", "TIS-WALK-15", "space")
    return None


def revisit_inuit(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-WALK-15: 2 wood and 1 dog (lowest empty space)."""
    gain(state, player, "wood", 2)
    gain(state, player, "dog", 1)


def tin_refining(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-WALK-15: a food can becomes 1 dynamite and food +8."""
    pay(state, player, "food_can")
    gain(state, player, "dynamite", 1)
    player["food"] += 8
    cap_food(player)


def sled_maintenance(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-WALK-15: maintenance + the crew placed (the carpenter included), up to the sled level."""
    raise_maintenance(player, placed)


def document_sled(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-WALK-19: 3 VP per maintenance level."""
    score(player, DATA["document_vp_per_level"] * player["maintenance"])


def vow_of_dogs(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-WALK-19: 1 VP per dog owned."""
    score(player, player["dogs"])


# ---------------------------------------------------------------- guilt (TIS-WALK-16, -18, -19)


def guilt_rises(state: State, seat: int, effect: str) -> None:
    """TIS-WALK-18: each Scurvy or Mutiny effect applied after abandonment."""
    if abandoned(state):
        player = state["players"][seat]
        player["guilt"] = min(DATA["guilt_max"], player["guilt"] + 1)


def guilt_lines(state: State) -> list[tuple[str, str, str, int]]:
    """TIS-WALK-19 / TV-6: guilt x the modifier of the final anchor the sled reached."""
    if not abandoned(state):
        return []
    modifier = DATA["guilt_modifier"].get(state["anchor"], 0)
    return [(seat, "TIS-WALK-19", "guilt", -player["guilt"] * modifier)
            for seat, player in zip(state["seats"], state["players"], strict=True)]


PART = RulePart(
    OPTION,
    hooks={"new_state": (add_state,), "public_keys": ("walking",), "route_filters": (open_route,),
           "refusals": (needs_wood, tiles), "after_effect": (inuit_customs,), "effect_applied": (guilt_rises,),
           "score_lines": (guilt_lines,), "decision_moves": (cabin_cans,), "answered": (route_chosen, cabin_answered)},
    entries={"event_effects": {"blizzard": blizzard, "severe_illness": severe_illness, "frostbite": frostbite,
                               "frozen_weapons": frozen_weapons},
             "event_actions": {"improved_equipment": improved_equipment},
             "effects": {"revisit_inuit": revisit_inuit, "tin_refining": tin_refining,
                         "sled_maintenance": sled_maintenance, "document_sled": document_sled,
                         "vow_of_dogs": vow_of_dogs},
             "checks": {"cargo": cargo_check},
             "extra_moves": {"discard_food_can": can_moves, "let_sailor_die": sailor_moves},
             "decisions": {"abandon": Decision("abandon_ship", "TIS-CMD-5", abandon_moves, abandon_answered),
                           "cargo": Decision("choose_cargo", "TIS-CMD-18", cargo_moves, cargo_chosen),
                           "return_tile": Decision("return_upgrade", "TIS-WALK-6", tile_moves, tile_returned),
                           "traverse": Decision("choose_voyage_type", "TIS-WALK-11", traverse_moves,
                                                traverse_chosen)}},
    wraps={"steps": {"leadership": leadership, "voyage_type": voyage_type, "fuel": traverse, "mapping": mapping,
                     "event": draw_event, "boarding": boarding}},
)
