"""Lost Expedition, single-player scenario (spec 8.7, TIS-SOLO-LOST): search three priority regions for a lost
expedition by exploring there, rescue its crew, and meet the objective card before the end of the Passage.

Scenario data (search cards, objective species, sled levels of the dog spaces) is in scenarios.json.
"""
from __future__ import annotations

from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions
from domain.through_ice_and_snow.actions import effective_sled
from domain.through_ice_and_snow.board import State
from domain.through_ice_and_snow.catalogue import CAT

NAME = "lost_expedition"
DATA = CAT.scenarios[NAME]


def add_state(state: State) -> None:
    """TIS-SOLO-LOST-3: the progress marker at 0 (ASSUMED); TIS-SOLO-LOST-4: the search deck (drawn, never
    shuffled up front); TIS-SOLO-LOST-5: the priority card is drawn at setup."""
    state["decks"]["search"] = sorted(DATA["search_cards"])
    state["lost"] = {"progress": DATA["progress_start"], "priority": None, "searched": [], "found": False,
                     "cabin": False}


def setup_draw(state: State) -> bool:
    """TIS-SOLO-LOST-5: one random cartography card, face up: its 3 regions are the priority regions."""
    if state["lost"]["priority"] is not None:
        return False
    state["chance"] = {"key": "priority_regions", "deck": "cartography", "count": 1}
    return True


def priority_drawn(state: State, node: dict, outcome: list[str]) -> None:
    state["lost"]["priority"] = outcome[0]


def priority_regions(state: State) -> list[str]:
    return CAT.cartography[state["lost"]["priority"]]["regions"]


def available_sled_level(state: State, player: dict) -> int:
    """TIS-SOLO-LOST-7: the highest sled level, up to the (effective) sled level, with at least one of its dog
    spaces occupied (the seed's "at least 1", which the translator finds right against the English "all")."""
    levels = [int(level) for level, spaces in DATA["sled_dog_spaces"].items()
              if int(level) <= effective_sled(state, player) and min(spaces) <= player["dogs"]]
    return max(levels, default=0)


def explore(state: State, seat: int, player: dict, space: dict, command: dict, placed: int,
            base: actions.Effect) -> None:
    """TIS-SOLO-LOST-7: an Explore in a priority region also raises progress by the available sled level; what
    would go beyond 5 reveals that many search cards instead."""
    base(state, seat, player, space, command, placed)
    lost = state["lost"]
    if lost["found"] or CAT.anchors[state["anchor"]]["region"] not in priority_regions(state):
        return
    total = lost["progress"] + available_sled_level(state, player)
    lost["progress"] = min(total, DATA["progress_max"])
    excess = min(total - lost["progress"], len(state["decks"]["search"]))
    if excess:
        state["chance"] = {"key": "search", "deck": "search", "count": excess}


def searched(state: State, node: dict, outcome: list[str]) -> None:
    """TIS-SOLO-LOST-7: the survivors card means the expedition is found (other search cards are discarded,
    ASSUMED); TIS-SOLO-LOST-8: its 4 sailors join the sick bay for good (fed at Meals, never discarded, the last
    to die: ``rescued`` on the player board)."""
    lost = state["lost"]
    lost["searched"].extend(outcome)
    if DATA["survivors_card"] in outcome:
        lost["found"] = True
        state["players"][0]["rescued"] = DATA["rescued_sailors"]


def cabin_answered(state: State, entry: dict, command: dict) -> None:
    """TIS-SOLO-LOST-6 (1): a Build Cabin lowering food by at least 4, outside the first region, before the
    expedition is found."""
    if entry["kind"] != "cabin_food" or state["lost"]["found"]:
        return
    if command["amount"] >= DATA["cabin_food"] and CAT.anchors[state["anchor"]]["region"] != DATA["first_region"]:
        state["lost"]["cabin"] = True


def owns_objective_species(state: State) -> bool:
    """TIS-SOLO-LOST-6 (2) / GAP-16: any copy of the objective card's species, held (not discarded)."""
    return any(CAT.species[card]["species"] == DATA["objective_species"] for card in state["players"][0]["species"])


PART = RulePart(
    NAME,
    hooks={"new_state": (add_state,), "public_keys": ("lost",), "setup_draws": (setup_draw,),
           "answered": (cabin_answered,),
           "objectives": (
               ("TIS-SOLO-LOST-6", "a cabin with food lowered by 4 or more outside Baffin before finding the "
                                   "expedition", lambda state: state["lost"]["cabin"]),
               ("TIS-SOLO-LOST-6", "own the objective card's species", owns_objective_species),
               ("TIS-SOLO-LOST-6", "find the lost expedition", lambda state: state["lost"]["found"]),
               ("TIS-SOLO-LOST-6", "sail the Northwest Passage to the end",
                lambda state: state["step"] == "finished"))},
    entries={"chance_handlers": {"priority_regions": priority_drawn, "search": searched}},
    wraps={"effects": {"explore": explore}},
)
