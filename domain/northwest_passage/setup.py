"""The state right after ``game_created``: the empty board, the ships in Greenland, the turn order to draw."""
from __future__ import annotations

from domain.northwest_passage.catalogue import COLLECTABLE, Catalogue
from domain.northwest_passage.lattice import Lattice
from domain.northwest_passage.state import GREENLAND, LIVE_FAME_RULES, SHIP, SLED


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
