"""The state right after ``game_created``: the board before any draw, reserves and decks, the setup script."""
from __future__ import annotations

from functools import cache

from domain.ice_expedition.flow import Flow
from domain.ice_expedition.geometry import Geometry, slot_key
from domain.ice_expedition.script import advance


@cache
def blank_tiles(geo: Geometry) -> dict[str, dict]:
    """Every slot's tile before setup draws anything, built once per board: each game starts from a copy (a
    fresh ``known_by`` list per tile; the other values are immutable)."""
    tiles = {}
    for z, slots in geo.layers.items():
        for slot in slots:
            kind = geo.layer_kind[z]
            tiles[slot_key(slot)] = {
                "kind": kind, "id": None if kind == "snow" else f"{kind[0].upper()}@{slot_key(slot)}",
                "terrain": None, "rift": None, "face": None, "front": None, "known_by": [],
                "camp": False, "arch": 0, "smilodon": None,
            }
    return tiles


def initial_state(rules, created: dict) -> dict:
    """ICE-SETUP-1..9: the empty board, reserves and decks; everything random waits as chance nodes."""
    params = {key: value for key, value in rules.data.params.items() if not key.startswith("_")}
    params["logbook_order"] = rules.data.cards["logbook_order"]
    params.update(created["options"])
    seats = [seat["seat"] for seat in created["seats"]]
    tiles = {key: {**tile, "known_by": []} for key, tile in blank_tiles(rules.geo).items()}
    tile_data = rules.data.tiles
    state = {
        "params": params, "seats": seats, "phase": "setup", "tiles": tiles,
        "leaders": {seat: None for seat in seats},  # ICE-SETUP-5: leaders start off the board
        "reserve": {"archaeologists": params["archaeologists"], "camps": params["camps"],
                    "smilodons": params["smilodon_pawns"]},  # ICE-SETUP-9
        # ICE-SETUP-3 / ICE-RND-4: snowflakes look alike until dug, so the pool order is drawn as fronts.
        "snowflakes": [f"SNF-{n:02d}" for n in range(1, tile_data["snowflake_count"] + 1)],
        "fronts_left": sorted(rules.data.fronts),
        "artifacts_left": {layer: sorted(a["id"] for a in items)
                           for layer, items in tile_data["artifacts_by_layer"].items()},
        "buildings_left": list(tile_data["buildings"]),
        "bag": [], "in_play": {},
        "requests": {"deck": sorted(rules.data.requests), "discard": [], "public": []},
        "decrees": [],
        "logbook": {"deck": [card["id"] for card in rules.data.cards["logbook"]], "revealed": []},
        "players": {seat: {"guild": None, "rp": 0, "ep": 0, "hand": [], "requests": [], "drawn": [],
                           "artifacts": [], "city": [], "plans": 0, "plans_today": 0, "carried_ep": 0,
                           "day_over": False, "resend": False, "sent": 0, "token": None,
                           "alchemy_used": False, "alchemy_drawn": []} for seat in seats},
        "day": 0, "first": seats[0], "active": None, "turn": None, "dig": None,
        "chance": [], "script": [], "end_triggered": False,
    }
    flow = Flow(rules, state)
    state["script"] = flow.setup_script()
    advance(flow)
    if not state["script"] and not state["chance"]:
        state["phase"] = "play"
    return state
