"""Magnetic North Pole, single-player scenario (spec 8.8, TIS-SOLO-MAG): once the fleet sails from the
Central-West section, a magnetized compass picks each destination, until the pole is discovered.

Scenario data (compass cards and directions, thresholds, start anchors) is in scenarios.json; the second Start
anchor ``E0b`` of East side B is in map.json; the Magnetic research space in action_board.json.
"""
from __future__ import annotations

from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions, flow, voyage
from domain.through_ice_and_snow.board import State, push
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.decisions import Decision
from domain.through_ice_and_snow.tracks import lose_fuel

NAME = "magnetic_north_pole"
DATA = CAT.scenarios[NAME]
POLE = DATA["pole_card"]
# TIS-AMB-18: "further in the direction" on the map's coordinates (x grows eastward, y northward)
AXES = {"N": ("y", 1), "S": ("y", -1), "E": ("x", 1), "W": ("x", -1)}


def add_state(state: State) -> None:
    """TIS-SOLO-MAG-1: fuel 8 (the resources are solo.py's); TIS-SOLO-MAG-3: no species deck;
    TIS-SOLO-MAG-4: the compass deck, with the pole card among the bottom 5 (``layered``);
    TIS-SOLO-MAG-5: East on side B."""
    state["players"][0]["fuel"] = DATA["start_fuel"]
    state["decks"]["species"] = []
    state["decks"]["compass"] = sorted([*DATA["compass_cards"], POLE])
    state["sections"]["E"] = DATA["east_side"]
    state["magnetic"] = {"start_chosen": False, "compass": "off", "layered": True, "discard": [],
                         "pole_round": None}


def compass_candidates(state: State) -> list[str]:
    """TIS-SOLO-MAG-4: the bottom 4 cards are shuffled with the pole card, so until a card is shuffled back the
    pole card can only come up once no more than those 5 are left (the same odds as the stacked deck)."""
    deck = state["decks"]["compass"]
    if state["magnetic"]["layered"] and len(deck) > DATA["bottom_cards"] + 1:
        return [card for card in deck if card != POLE]
    return deck


def start_anchor(state: State) -> bool:
    """TIS-SOLO-MAG-5 / TIS-CMD-24: the fleet starts on one of the two Start anchors, the player's choice."""
    if state["magnetic"]["start_chosen"]:
        return False
    push(state, 0, "start_anchor")
    return True


def start_moves(state: State, entry: dict) -> list[dict]:
    return [{"type": "choose_start_anchor", "anchor": anchor} for anchor in DATA["start_anchors"]]


def start_chosen(state: State, entry: dict, command: dict) -> None:
    state["anchor"] = command["anchor"]
    state["magnetic"]["start_chosen"] = True


def leadership(state: State, base: flow.Step) -> bool:
    """TIS-SOLO-MAG-8: the compass is magnetized when a Voyage phase first starts from an anchor of the
    Central-West section (boundary anchors included, ASSUMED), and stays so until the pole is discovered."""
    if state["magnetic"]["compass"] == "off" \
            and DATA["magnetizing_section"] in CAT.anchors[state["anchor"]]["sections"]:
        state["magnetic"]["compass"] = "on"
    return base(state)


def magnetized(state: State) -> bool:
    """The final voyage heads for the final anchor as usual (ASSUMED: the compass rules name the rounds'
    Destination steps)."""
    return state["magnetic"]["compass"] == "on" and not state["final_voyage"]


def destination(state: State, base: flow.Step) -> bool:
    """TIS-SOLO-MAG-9: reveal the top compass card first."""
    if not magnetized(state):
        return base(state)
    state["step"] = "ice_breaking"  # TIS-SOLO-MAG-10: ice breaking as always, dynamite already there or not
    reveal_compass(state)
    return True


def reveal_compass(state: State) -> None:
    mag = state["magnetic"]
    if not state["decks"]["compass"]:
        # an empty compass deck takes its discard pile back (ASSUMED, as the Epidemic's decks do)
        state["decks"]["compass"] = mag["discard"]
        mag["discard"] = []
        mag["layered"] = False
    state["chance"] = {"key": "compass", "deck": "compass", "count": 1}


def connected(state: State, anchor: str) -> list[str]:
    """TIS-SOLO-MAG-9: anchors joined to ``anchor`` by a route on the placed sections, in either direction."""
    ahead = {route["to"] for route in voyage.routes(state, anchor)}
    behind = {route["from"] for start in CAT.routes_from for route in CAT.routes_from[start]
              if route["to"] == anchor and voyage.usable(state, route)}
    return sorted(ahead | behind)


def that_way(state: State, direction: str) -> dict[str, int]:
    """TIS-AMB-18: the connected anchors strictly further in the direction than the current one, with how far."""
    axis, sign = AXES[direction]
    here = sign * CAT.anchors[state["anchor"]][axis]
    return {anchor: sign * CAT.anchors[anchor][axis] for anchor in connected(state, state["anchor"])
            if sign * CAT.anchors[anchor][axis] > here}


def farthest(state: State, direction: str) -> list[str]:
    """TIS-SOLO-MAG-9 / TIS-AMB-18: the extreme ones of those (ties: the player chooses among them)."""
    further = that_way(state, direction)
    best = max(further.values(), default=None)
    return sorted(anchor for anchor, value in further.items() if value == best)


def compass_revealed(state: State, node: dict, outcome: list[str]) -> None:
    """TIS-SOLO-MAG-9 / TIS-SOLO-MAG-12: a direction card is discarded and names the destinations; the pole card
    takes the direction of the top discarded card and makes this round the pole round. No anchor that way (or no
    discarded card for the pole, ASSUMED): fuel -1 (outside the Voyage step: no band, nobody tows, TIS-LOSE-3),
    the card goes back into the deck and another is revealed."""
    card = outcome[0]
    mag = state["magnetic"]
    if card == POLE:
        direction = DATA["compass_cards"][mag["discard"][-1]] if mag["discard"] else None
    else:
        direction = DATA["compass_cards"][card]
    # TIS-SOLO-MAG-12: the pole card's destination is any anchor that way (the seed: "方向に沿った1つ"), a
    # direction card's the farthest one
    if direction is None:
        choices = []
    elif card == POLE:
        choices = sorted(that_way(state, direction))
    else:
        choices = farthest(state, direction)
    if not choices:
        lose_fuel(state, {0: DATA["direction_fuel"]}, bands=False)
        state["decks"]["compass"].append(card)
        mag["layered"] = False
        if state["over"] is None:
            reveal_compass(state)
        return
    if card == POLE:
        mag["pole_round"] = {"direction": direction, "threshold": DATA["pole_explore"][direction],
                             "explore": False, "cabin": False}
    else:
        mag["discard"].append(card)
    push(state, state["leader"], "destination", choices=choices)


def reverse_route_ice(state: State, entry: dict, command: dict) -> None:
    """A route sailed against its arrow keeps its extra dynamite (ASSUMED)."""
    if entry["kind"] == "destination" and "choices" in entry:
        state["route_extra"] = any(route["extra_dynamite"] and route["to"] == state["anchor"]
                                   for route in voyage.routes(state, command["anchor"])) or state["route_extra"]


def fuel(state: State, base: flow.Step) -> bool:
    """TIS-SOLO-MAG-11: an open-sea voyage to an unmapped region shuffles every discarded compass card back."""
    if magnetized(state) and state["voyage"] == voyage.OPEN_SEA \
            and CAT.anchors[state["destination"]]["region"] not in state["mapped"]:
        mag = state["magnetic"]
        state["decks"]["compass"].extend(mag["discard"])
        mag["discard"] = []
        mag["layered"] = False
    return base(state)


def research(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-SOLO-MAG-7: Magnetic research reveals the top compass card."""
    reveal_compass(state)
    state["chance"]["key"] = "research"


def researched(state: State, node: dict, outcome: list[str]) -> None:
    """TIS-SOLO-MAG-7: the pole card is shuffled back; any other card is discarded."""
    if outcome[0] == POLE:
        state["decks"]["compass"].append(POLE)
        state["magnetic"]["layered"] = False
    else:
        state["magnetic"]["discard"].append(outcome[0])


def no_compass_card(state: State, seat: int, space_id: str) -> actions.IllegalMove | None:
    if space_id == "magnetic-research" and not (state["decks"]["compass"] or state["magnetic"]["discard"]):
        return actions.refuse("no_compass_card", "no compass card is left to reveal", "TIS-SOLO-MAG-7", "space")
    return None


def explore(state: State, seat: int, player: dict, space: dict, command: dict, placed: int,
            base: actions.Effect) -> None:
    """TIS-SOLO-MAG-12 / TIS-AMB-22: in the pole round, an Explore whose computed value reaches the threshold."""
    pole = state["magnetic"]["pole_round"]
    if pole and actions.explore_value(state, player) >= pole["threshold"]:
        pole["explore"] = True
    base(state, seat, player, space, command, placed)


def cabin_answered(state: State, entry: dict, command: dict) -> None:
    """TIS-SOLO-MAG-12: in the pole round, a Build Cabin lowering food by 4 or more."""
    pole = state["magnetic"]["pole_round"]
    if pole and entry["kind"] == "cabin_food" and command["amount"] >= DATA["pole_cabin_food"]:
        pole["cabin"] = True


def cleanup(state: State, base: flow.Step) -> bool:
    """TIS-SOLO-MAG-12: both done in the pole round discovers the pole (the compass is no longer magnetized);
    otherwise the pole card goes back into the compass deck."""
    pole = state["magnetic"]["pole_round"]
    if pole:
        mag = state["magnetic"]
        mag["pole_round"] = None
        if pole["explore"] and pole["cabin"]:
            mag["compass"] = "discovered"
        else:
            state["decks"]["compass"].append(POLE)
            mag["layered"] = False
    return base(state)


PART = RulePart(
    NAME,
    hooks={"new_state": (add_state,), "public_keys": ("magnetic",), "setup_draws": (start_anchor,),
           "refusals": (no_compass_card,), "answered": (reverse_route_ice, cabin_answered),
           "objectives": (
               ("TIS-SOLO-MAG-6", "discover the magnetic north pole",
                lambda state: state["magnetic"]["compass"] == "discovered"),
               ("TIS-SOLO-MAG-6", "sail the Northwest Passage to the end",
                lambda state: state["step"] == "finished"))},
    entries={"effects": {"magnetic_research": research}, "candidates": {"compass": compass_candidates},
             "chance_handlers": {"compass": compass_revealed, "research": researched},
             "decisions": {"start_anchor": Decision("choose_start_anchor", "TIS-CMD-24", start_moves, start_chosen)}},
    wraps={"steps": {"leadership": leadership, "destination": destination, "fuel": fuel, "cleanup": cleanup},
           "effects": {"explore": explore}},
)
