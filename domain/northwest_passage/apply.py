"""Folding events into the state: total, no checks, no randomness.

Every decision (legality, who scores what, when a round ends) was taken by
``decide`` and written into the event; here it is only carried out. Chance
outcomes are applied according to the chance node the state was waiting for.
"""
from __future__ import annotations

from domain.core.events import Event, full_data
from domain.northwest_passage.catalogue import Catalogue
from domain.northwest_passage.lattice import Lattice, footprint, orient, placed_points, token_cell
from domain.northwest_passage.state import GREENLAND, SHIP, SLED, VESSELS, crew_aboard, tile_type


def apply(state: dict, event: Event, catalogue: Catalogue) -> dict:
    data = full_data(event)
    handler = HANDLERS.get(event["type"])
    if handler is not None:
        handler(state, event.get("seat"), data, catalogue)
    return state


def _chance(state: dict, seat: str | None, data: dict, catalogue: Catalogue) -> None:
    key = state["chance"]["key"]
    outcome = data["outcome"]
    state["chance"] = None
    if key == "turn_order":
        state["order"] = list(outcome)
        state["draft_queue"] = list(reversed(outcome))
        _reveal_display(state, catalogue, "display")
        return
    for tile in outcome:
        state["stock"].remove(tile)
    if key == "display":
        state["display"] = list(outcome)
        state["phase"] = "draft"
    elif key == "refill":
        state["display"].extend(outcome)
    elif key == "refresh":
        state["display"] = list(outcome)
        _return_to_stock(state)


def _reveal_display(state: dict, catalogue: Catalogue, key: str) -> None:
    """NWP-SETUP-6 / NWP-ACT-2 / NWP-COMP-6: turn up to ``display_size`` (4) tiles from the stock, fewer if short."""
    count = min(catalogue.tables["display_size"], len(state["stock"]))
    if count:
        state["chance"] = {"key": key, "count": count}
    elif key == "refresh":
        _return_to_stock(state)
    else:
        state["phase"] = "draft"


def _return_to_stock(state: dict) -> None:
    """NWP-ACT-2: the replaced tiles go back only after the new ones are drawn, so none can reappear at once."""
    state["stock"] = sorted(state["stock"] + state["returning"])
    state["returning"] = []


def _take_tile(state: dict, seat: str, source: str, tile: str, catalogue: Catalogue) -> None:
    """NWP-ACT-1 / NWP-SETUP-10: a display tile (refilled from the stock) or a small tile goes to the hand."""
    state["players"][seat]["hand"].append(tile)
    if source in catalogue.small:
        state["small_taken"][source] += 1
        return
    state["display"].remove(tile)
    if state["stock"]:
        state["chance"] = {"key": "refill", "count": 1}


def _spend(state: dict, seat: str, data: dict) -> None:
    """NWP-ROUND-4: the paying vessel's crew move from Available to Resting; the turn counts one more action."""
    vessel = state["players"][seat][data["pay_from"]]
    vessel["available"] -= data["cost"]
    vessel["resting"] += data["cost"]
    state["turn"]["actions"] += 1


def _drafted(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    """NWP-SETUP-11: after the last pick round 1 begins in the drawn turn order."""
    _take_tile(state, seat, data["source"], data["tile"], catalogue)
    state["draft_queue"].pop(0)
    if not state["draft_queue"]:
        state["phase"] = "play"
        state["round"] = 1
        state["turn"] = {"seat": state["order"][0], "actions": 0}


def _drawn(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    if state["pending"] is not None:
        state["pending"] = None
    else:
        _spend(state, seat, data)
    _take_tile(state, seat, data["source"], data["tile"], catalogue)


def _refreshed(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    _spend(state, seat, data)
    state["returning"] = state["display"]
    state["display"] = []
    state["pending"] = {"kind": "refresh_draw", "seat": seat}
    _reveal_display(state, catalogue, "refresh")


def place_on_board(state: dict, tile: str, kind: str, data: dict, catalogue: Catalogue) -> list:
    """Put a tile on its cells and its land and sea on the lattice; its token now lies on the board (NWP-COMP-15).

    Returns the lattice points that were undetermined before, from which
    completed islands are searched.
    """
    pattern = catalogue.patterns[kind]
    rows = orient(pattern, data["rotation"], data["flip"])
    x, y = data["anchor_x"], data["anchor_y"]
    cells = footprint(rows, x, y)
    for cx, cy in cells:
        state["cells"][cy][cx] = tile
    state["tiles"][tile] = {"type": kind, "anchor": [x, y], "rotation": data["rotation"], "flip": data["flip"],
                            "cells": [list(cell) for cell in cells]}
    lattice = Lattice(catalogue.width, catalogue.height, state["lattice"])
    fresh = lattice.mark(placed_points(rows, x, y))
    state["lattice"] = lattice.to_rows()
    large = catalogue.large.get(tile)
    if large is not None and large.token is not None:
        cell = token_cell(pattern, large.token["cell"], data["rotation"], data["flip"], x, y)
        state["tokens"][f"{tile}:{large.token['type']}"] = {
            "kind": large.token["type"], "tile": tile, "cell": list(cell), "owner": None,
        }
    return [list(point) for point in fresh]


def _placed(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    _spend(state, seat, data)
    state["players"][seat]["hand"].remove(data["tile"])
    fresh = place_on_board(state, data["tile"], tile_type(catalogue, data["tile"]), data, catalogue)
    state["placement"] = {"seat": seat, "new_points": fresh}


def _hole_pending(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    state["pending"] = {"kind": "hole_fill", "seat": seat, "holes": data["holes"]}


def _hole_filled(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    tile = data["tile"]
    if data["from"] == "hand":
        state["players"][seat]["hand"].remove(tile)
    else:
        state["small_taken"][data["type"]] += 1
    placed = {"anchor_x": data["hole_x"], "anchor_y": data["hole_y"], "rotation": data["rotation"],
              "flip": data["flip"]}
    state["placement"]["new_points"].extend(place_on_board(state, tile, data["type"], placed, catalogue))
    state["pending"] = None


def _islands(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    player = state["players"][seat]
    for island in data["islands"]:
        player["fame_by"]["NWP-SCORE-2"] += island["fame"]
        if island["map_token"]:
            player["tokens"]["map"] += 1
            if state["map_tokens_left"] is not None:
                state["map_tokens_left"] -= 1
    state["placement"] = None


def _transferred(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    player = state["players"][seat]
    source, target = (player[SHIP], player[SLED]) if data["direction"] == "to_sled" else (player[SLED], player[SHIP])
    _spend(state, seat, {"pay_from": SHIP if data["direction"] == "to_sled" else SLED, "cost": data["cost"]})
    source["available"] -= data["from_available"]
    source["resting"] -= data["from_resting"]
    target["available"] += data["from_available"]
    target["resting"] += data["from_resting"]
    sled = player[SLED]
    if data["direction"] == "to_sled" and sled["at"] is None:
        sled["at"] = player[SHIP]["at"]
    if data["direction"] == "to_ship" and crew_aboard(sled) == 0:
        player[SLED] = {**sled, "at": None, "left_greenland": False}


def _moved(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    vessel = state["players"][seat][data["vessel"]]
    _spend(state, seat, {"pay_from": data["vessel"], "cost": data["cost"]})
    if vessel["at"] == GREENLAND:
        vessel["left_greenland"] = True
    vessel["at"] = data["to"]
    if data["to"] == GREENLAND and vessel["left_greenland"]:
        vessel["returned"] = True


def _northwest(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    player = state["players"][seat]
    player["reached_northwest"] = True
    player["fame_by"]["NWP-SCORE-3"] += data["fame"]
    state["northwest_arrivals"].append(seat)


def _greenland(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    player = state["players"][seat]
    player["return_judged"] = True
    if data["rank"] is not None:
        player["fame_by"]["NWP-SCORE-4"] += data["fame"]
        state["greenland_arrivals"].append(seat)


def _claimed(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    _spend(state, seat, data)
    token = state["tokens"][data["token"]]
    token["owner"] = seat
    player = state["players"][seat]
    player["tokens"][token["kind"]] += 1
    player["fame_by"]["NWP-SCORE-1"] += data["fame"]


def _next_seat(state: dict, after: str) -> str | None:
    """NWP-ROUND-6: play passes to the next player in turn order who has not passed."""
    order = state["order"]
    start = order.index(after)
    for step in range(1, len(order) + 1):
        seat = order[(start + step) % len(order)]
        if seat not in state["passed"]:
            return seat
    return None


def _turn_ended(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    following = _next_seat(state, seat)
    state["turn"] = {"seat": following, "actions": 0} if following else None


def _passed(state: dict, seat: str, data: dict, catalogue: Catalogue) -> None:
    state["passed"].append(seat)
    if state["turn"] is not None and state["turn"]["seat"] == seat:
        _turn_ended(state, seat, data, catalogue)


def _round_ended(state: dict, seat: str | None, data: dict, catalogue: Catalogue) -> None:
    """NWP-ROUND-10: sun moves, ice changes, resting crew stand up, the pass order becomes the turn order.

    NWP-COMP-23: the turn-order markers are rewritten from the pass order (NWP-ROUND-9).
    """
    state["sun"] = data["sun"]
    state["round"] = data["round"]
    for loser in data["sleds_lost"]:
        state["players"][loser][SLED]["lost"] = True
    for player in state["players"].values():
        for name in VESSELS:
            vessel = player[name]
            vessel["available"] += vessel["resting"]
            vessel["resting"] = 0
    state["order"] = list(data["order"])
    state["passed"] = []
    state["turn"] = {"seat": state["order"][0], "actions": 0}


def _ended(state: dict, seat: str | None, data: dict, catalogue: Catalogue) -> None:
    state["ended"] = data["rule"]
    state["phase"] = "over"
    state["turn"] = None


HANDLERS = {
    "chance_resolved": _chance,
    "tile_drafted": _drafted,
    "tile_drawn": _drawn,
    "display_refreshed": _refreshed,
    "tile_placed": _placed,
    "hole_fill_pending": _hole_pending,
    "hole_filled": _hole_filled,
    "islands_scored": _islands,
    "crew_transferred": _transferred,
    "vessel_moved": _moved,
    "northwest_reached": _northwest,
    "greenland_reached": _greenland,
    "token_claimed": _claimed,
    "turn_ended": _turn_ended,
    "player_passed": _passed,
    "round_ended": _round_ended,
    "expedition_ended": _ended,
}
