"""The game state as a plain JSON value, and the questions every other module asks of it.

Crew are identical, so a vessel is four numbers and a position
(NWP-COMP-21, NWP-GEO-8): ``at`` is ``"G"``, ``"N"``, a placed tile id, or
``None`` for a sled that is off the board (NWP-COMP-22).
"""
from __future__ import annotations

from domain.northwest_passage.catalogue import COLLECTABLE, Catalogue
from domain.northwest_passage.lattice import Lattice

GREENLAND = "G"
NORTHWEST = "N"
SHIP = "ship"
SLED = "sled"
VESSELS = (SHIP, SLED)

LIVE_FAME_RULES = ("NWP-SCORE-1", "NWP-SCORE-2", "NWP-SCORE-3", "NWP-SCORE-4")


def new_vessel(at: str | None, crew: int) -> dict:
    """NWP-COMP-20: a vessel's area on the player board, an Available row and a Resting row."""
    return {"at": at, "available": crew, "resting": 0, "left_greenland": False, "returned": False, "lost": False}


def initial_state(catalogue: Catalogue, seats: list[str], options: dict) -> dict:
    """Ships in Greenland with all 7 crew Available, sun on T0, small tiles ready, nothing scored yet.

    NWP-SETUP-3 / NWP-COMP-3 / NWP-COMP-19: every ship in Greenland, its crew
    all Available; the sled off the board. NWP-SETUP-4: the sun on T0.
    NWP-SETUP-7: the small-tile supply is open. NWP-SETUP-8: no fame, no tokens.

    NWP-SETUP-1: the data versions and options are recorded by the engine in
    ``game_created``; the random parts (turn order, the display) are chance
    nodes the state asks for next (NWP-SETUP-2, NWP-SETUP-5, NWP-SETUP-6).
    """
    crew = catalogue.tables["crew_per_player"]
    return {
        "seats": list(seats),
        "options": dict(options),
        "phase": "setup",
        "chance": {"key": "turn_order", "count": len(seats)},
        "order": [],
        "draft_queue": [],
        "round": 0,
        "sun": 0,
        "stock": sorted(catalogue.large),
        "display": [],
        "returning": [],
        "small_taken": {kind: 0 for kind in catalogue.small},
        "cells": [[None] * catalogue.width for _ in range(catalogue.height)],
        "lattice": Lattice(catalogue.width, catalogue.height).to_rows(),
        "tiles": {},
        "tokens": {},
        "map_tokens_left": catalogue.tables["map_token_supply"],
        "players": {
            seat: {
                "fame_by": {rule: 0 for rule in LIVE_FAME_RULES},
                "hand": [],
                SHIP: new_vessel(GREENLAND, crew),
                SLED: new_vessel(None, 0),
                "tokens": {kind: 0 for kind in COLLECTABLE},
                "reached_northwest": False,
                "return_judged": False,
            }
            for seat in seats
        },
        "turn": None,
        "passed": [],
        "pending": None,
        "placement": None,
        "northwest_arrivals": [],
        "greenland_arrivals": [],
        "ended": None,
    }


def fame(player: dict) -> int:
    """Live fame, the star on the player board (NWP-SCORE-1 to NWP-SCORE-4)."""
    return sum(player["fame_by"].values())


def crew_aboard(vessel: dict) -> int:
    return vessel["available"] + vessel["resting"]


def can_act(vessel: dict) -> bool:
    """NWP-ROUND-5 / NWP-END-3: a vessel back in Greenland, lost, or off the board takes no action."""
    return vessel["at"] is not None and not vessel["returned"] and not vessel["lost"]


def usable_crew(player: dict) -> int:
    """Available crew on vessels able to act: zero means the player passes automatically (NWP-ROUND-7)."""
    return sum(player[name]["available"] for name in VESSELS if can_act(player[name]))


def action_cost(state: dict, base: int) -> int:
    """NWP-ROUND-3: the first action of a turn costs its base, every further one base + 1 (flat, A11)."""
    return base + (1 if state["turn"]["actions"] else 0)


def can_pay(player: dict, vessel: str, cost: int) -> bool:
    """NWP-ROUND-4: one vessel pays the whole cost from its own Available row."""
    return can_act(player[vessel]) and player[vessel]["available"] >= cost


def all_explorers_home(state: dict) -> bool:
    """NWP-END-2 (A12): every crewman of every player is aboard a vessel that has returned to Greenland."""
    for player in state["players"].values():
        for name in VESSELS:
            vessel = player[name]
            if crew_aboard(vessel) and not vessel["returned"]:
                return False
    return True


def small_available(state: dict, catalogue: Catalogue, kind: str) -> bool:
    """NWP-COMP-14: small tiles are unlimited on Board Game Arena; the printed box has a few of each."""
    if state["options"]["small_tiles_unlimited"]:
        return True
    return state["small_taken"][kind] < catalogue.small_copies_when_limited


def next_small_id(state: dict, kind: str) -> str:
    """Small tiles taken from the supply get instance ids in the order they are taken."""
    return f"{kind}#{state['small_taken'][kind] + 1}"


def tile_type(catalogue: Catalogue, tile_id: str) -> str:
    if tile_id in catalogue.large:
        return catalogue.large[tile_id].type
    return tile_id.split("#")[0]
