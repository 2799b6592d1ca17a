"""Shelter Building module (spec 8.2, TIS-SHEL): Inuit shelters built from the Ice Fishing space, which make
Ice Fishing count twice while the fleet is in their map section, and a shelter majority at the end.

Played with the option ``shelter_building``; the action space ``build-shelter`` is in action_board.json
marked with this module.
"""
from __future__ import annotations

from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions, scoring
from domain.through_ice_and_snow.board import State
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.tracks import raise_food

SHELTERS_PER_PLAYER = 4
SHELTER_FOOD = 2
MAJORITY_VP = 4


def active_shelter(state: State, seat: int) -> bool:
    """TIS-SHEL-4: a shelter is active while it stands on an anchor of a map section the fleet is in; a boundary
    anchor belongs to both its sections (for the shelter, and for the fleet: ASSUMED)."""
    fleet = set(CAT.anchors[state["anchor"]]["sections"])
    return any(who == state["seats"][seat] and fleet & set(CAT.anchors[anchor]["sections"])
               for anchor, who in state["shelters_on"])


def fishing_factor(state: State, seat: int) -> int:
    """TIS-SHEL-5: Ice Fishing applies twice with an active shelter; with event 26 (Shoal of fish), three
    times instead of twice."""
    return 1 if active_shelter(state, seat) else 0


def refusal(state: State, seat: int, space_id: str) -> actions.IllegalMove | None:
    """TIS-SHEL-2: not with an active shelter already; TIS-SHEL-1: only the player's own 4 shelters exist."""
    if space_id == actions.EVENT_SPACE or CAT.spaces[space_id]["action"] != "build_shelter":
        return None
    if active_shelter(state, seat):
        return actions.refuse("active_shelter", "you already have an active shelter in this map section",
                              "TIS-SHEL-2", "space")
    if state["players"][seat]["shelters"] >= SHELTERS_PER_PLAYER:
        return actions.refuse("no_shelter_left", "all 4 of your shelters are on the map", "TIS-SHEL-1", "space")
    return None


def build_shelter(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-SHEL-2 / TIS-SHEL-3 / TIS-AMB-24: a shelter on the current anchor's cabin square, then food +2."""
    player["shelters"] += 1
    state["shelters_on"].append([state["anchor"], state["seats"][seat]])
    raise_food(player, SHELTER_FOOD)


def majority_lines(state: State) -> list[tuple[str, str, str, int]]:
    """TIS-SHEL-6: the most shelters on the map scores 4 VP; tied players split 4 VP, rounded down."""
    counts = {seat: player["shelters"] for seat, player in zip(state["seats"], state["players"], strict=True)}
    shares = scoring.majority(counts, (MAJORITY_VP,))
    return [(seat, "TIS-SHEL-6", "shelter majority", shares.get(seat, 0)) for seat in state["seats"]]


def add_state(state: State) -> None:
    """TIS-SHEL-1: each colour's shelters start in the supply (counted per player)."""
    state["shelters_on"] = []
    for player in state["players"]:
        player["shelters"] = 0


PART = RulePart(
    "shelter_building",
    hooks={"new_state": (add_state,), "public_keys": ("shelters_on",), "refusals": (refusal,),
           "fishing_bonus": (fishing_factor,), "score_lines": (majority_lines,)},
    entries={"effects": {"build_shelter": build_shelter}},
)
