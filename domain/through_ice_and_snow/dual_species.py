"""Dual Animal Species module (spec 8.3, TIS-DUAL): three cards that are both hunting cards and species to
discover, both with the Fishing boat.

Played with the option ``dual_species``. The cards are ``dual_species`` in hunting.json (GAP-10).
"""
from __future__ import annotations

from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions
from domain.through_ice_and_snow.board import State, score
from domain.through_ice_and_snow.catalogue import CAT

REMOVED = 3
CHANCE_KEY = "dual_removal"


def dual_cards() -> list[str]:
    return sorted(card for card, data in CAT.hunting.items() if data.get("dual"))


def setup_draw(state: State) -> bool:
    """TIS-DUAL-1: after building the hunting deck, 3 random cards go back to the box face down (a draw nobody
    sees), then the dual cards join the deck."""
    if state["dual_setup_done"]:
        return False
    state["chance"] = {"key": CHANCE_KEY, "deck": "hunting", "count": REMOVED, "hidden": True}
    return True


def removed(state: State, node: dict, outcome: list[str]) -> None:
    state["removed_hunting"].extend(outcome)
    state["decks"]["hunting"].extend(dual_cards())
    state["dual_setup_done"] = True


def discover(state: State, seat: int, player: dict, space: dict, command: dict, placed: int,
             base: actions.Effect) -> None:
    """TIS-DUAL-4: discovering a dual card replaces the Discover effect: 8 VP (the card's ``discover_vp``), and
    the card goes back to the box; it is no species card held (no majority, no end VP, no discovery bonus).
    TIS-DUAL-3: hunting it is a normal Hunt (the base effect)."""
    card = command["card"]
    if not CAT.hunting.get(card, {}).get("dual"):
        base(state, seat, player, space, command, placed)
        return
    state["revealed"]["hunting"].remove(card)
    state["removed_hunting"].append(card)
    score(player, CAT.hunting[card]["discover_vp"])


def add_state(state: State) -> None:
    """TIS-DUAL-1: the Fishing boat (upgrade 7) is always in the supply with this module."""
    state["dual_setup_done"] = False
    state["removed_hunting"] = []
    for tile in CAT.upgrades.values():
        if tile["effect"] == "fishing_boat":
            state["tiles"][str(tile["number"])] = tile["copies"]


PART = RulePart(
    "dual_species",
    hooks={"new_state": (add_state,), "setup_draws": (setup_draw,)},
    entries={"chance_handlers": {CHANCE_KEY: removed}},
    wraps={"effects": {"discover_species": discover}},
)
