"""Through Ice and Snow: keep the expedition alive to its final voyage, then score.

Random play loses everyone the game in rounds 5 to 9: the fleet runs out of fuel (towing nobody can cover)
or of dynamite (no leader can break the ice). The rollout here sails the shortest route to the final anchor,
prefers open sea (half the fuel of a coastal voyage) unless every ship has fuel to spare, and in the Action
phase weighs each space by what the seat lacks most: fuel and dynamite when the expedition runs short, food
before the meal, prestige otherwise. The evaluation is the prestige each seat holds now, discounted by the
chance that the expedition reaches its end with the fuel and dynamite it has left.
"""
from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import domain.through_ice_and_snow
from bots.games import Scores, prefer
from bots.outcome import points_reward
from domain.core.data import load_data

DATA = Path(domain.through_ice_and_snow.__file__).parent / "data"


@cache
def _distances() -> dict[str, float]:
    """Voyages left from each anchor to the final anchor over the routes of any side (an extra dynamite counts
    half a voyage more), by a search backwards from the final anchor."""
    board, _ = load_data(DATA, "map")
    into: dict[str, list[tuple[str, float]]] = {}
    for route in board["routes"]:
        into.setdefault(route["to"], []).append((route["from"], 1.5 if route.get("extra_dynamite") else 1.0))
    final = [anchor for anchor, data in board["anchors"].items() if data.get("final_round")]
    distance = dict.fromkeys(final, 0.0)
    frontier = list(final)
    while frontier:
        frontier.sort(key=distance.__getitem__)
        anchor = frontier.pop(0)
        for previous, cost in into.get(anchor, []):
            if distance[anchor] + cost < distance.get(previous, float("inf")):
                distance[previous] = distance[anchor] + cost
                frontier.append(previous)
    return distance


@cache
def _actions() -> dict[str, str]:
    board, _ = load_data(DATA, "action_board")
    return {space["id"]: space["action"] for space in board["spaces"]}


def _voyages_left(state: dict) -> float:
    if state.get("final_voyage"):
        return 0.0
    return _distances().get(state.get("anchor") or "", 6.0) + 1


def _needs(state: dict, me: dict) -> dict[str, float]:
    """How badly the seat (and the expedition it depends on) lacks each thing, 0 to 1."""
    players = state["players"]
    left = _voyages_left(state)
    dynamite = sum(player["dynamite"] for player in players)
    # A ship short of fuel is towed by the others (TIS-TRK-FUEL-4): the fleet's fuel is everyone's concern.
    fleet = len(players) * (1.3 * left + 2) - sum(player["fuel"] for player in players)
    fuel_low = max(0.0, min(1.0, max(1.3 * left + 2 - me["fuel"], fleet / len(players)) / 6))
    crew = sum(me["crew"].values())
    return {
        "fuel": max(fuel_low, 1.0 if me["fuel"] <= 2 else 0.0),
        "dynamite": max(0.0, min(1.0, (left + 4 - dynamite) / 4 + (0.3 if me["dynamite"] == 0 else 0.0))),
        "food": max(0.0, min(1.0, (crew * 2 + 4 - me["food"]) / 10)),
        "health": 1.0 if me["health"] <= 2 else 0.6 if me["health"] <= 3 else 0.0,
        "morale": 1.0 if me["morale"] <= 2 else 0.6 if me["morale"] <= 3 else 0.0,
    }


def _action_score(state: dict, me: dict, move: dict) -> float:
    action = _actions().get(move.get("space") or "", move.get("space"))
    need = _needs(state, me)
    crew = sum((move.get("crew") or {}).values()) + (1 if move.get("lead") else 0)
    if action == "experiment":
        return 3 + 6 * need["fuel"] + 6 * need["dynamite"]
    if action in ("visit_inuit", "revisit_inuit"):
        return 3 + 7 * need["fuel"]
    if action == "resource_exchange":
        gives = {"exchange-captain": "dynamite"}.get(move["space"])
        if move.get("deposit") == "dynamite" or move.get("deposit") == gives:
            return -5
        spare = _discard_score(me, move.get("deposit", "")) / 2
        if gives == "dynamite":
            return 1 + 7 * need["dynamite"] + spare
        return 0.5 + spare
    if action == "resource_collection":
        return 1 + 4 * need["dynamite"]
    if action in ("hunt", "ice_fishing"):
        return 1 + 6 * need["food"] + (8 * need["health"] if action == "hunt" else 0) + 0.2 * crew
    if action == "recycle_wood":
        return -3 if need["fuel"] > 0.2 else 0.5
    if action == "event":
        return 4 + 3 * max(need["health"], need["morale"])
    if action == "lead":
        return 0.5
    if action == "explore":
        return 5 + 8 * need["morale"] - 3 * max(need["fuel"], need["dynamite"])
    if action in ("build_cabin", "discover_species", "trace_map", "document_construction",
                  "laboratory_research", "vow_of_silence", "document_sled", "vow_of_dogs"):
        return 5 - 3 * max(need["fuel"], need["dynamite"])
    if action == "ship_upgrade":
        return 3 + 3 * need["morale"] - 2 * max(need["fuel"], need["dynamite"])
    if action in ("improve_sled", "hire_inuk"):
        return 3 - 2 * max(need["fuel"], need["dynamite"])
    return 2


def _discard_score(me: dict, resource: str) -> float:
    """A resource to give up: the one the seat has most of and needs least (never the last dynamite)."""
    keep = {"dynamite": 6, "dog": 2, "wood": 1, "rifle": 3, "food_can": 1}.get(resource, 1)
    held = me.get(resource, me.get("dogs", 0) if resource == "dog" else 0)
    return held - keep


def _score(state: dict, seat: str, move: dict) -> float:
    me = state["players"][state["seats"].index(seat)] if seat in state.get("seats", []) else None
    kind = move["type"]
    if me is None:
        return 0.0
    if kind == "choose_destination":
        return -_distances().get(move["anchor"], 9.0)
    if kind == "choose_voyage_type":
        lowest = min(player["fuel"] for player in state["players"])
        return {"open_sea": 1.0, "coastal": 2.0 if lowest >= 7 else -1.0}.get(move["voyage"], 0.0)
    if kind == "take_action":
        deposit = move.get("survival_deposit")
        return _action_score(state, me, move) + (_discard_score(me, deposit) / 2 - 1 if deposit else 0)
    if kind == "pass":
        return -1.0
    if kind == "choose_discard":
        return _discard_score(me, move.get("resource", ""))
    if kind == "lower_food_for_cabin":
        spare = me["food"] - move["amount"] - 3 * sum(me["crew"].values()) - 4
        return move["amount"] if spare >= 0 else spare * 3
    if kind == "collect_resource":
        return {"dynamite": 3, "wood": 1}.get(move.get("resource") or "", 0)
    return 0.0


def rollout(state: dict, seat: str, moves: list[dict], rng: random.Random) -> dict:
    return prefer(moves, lambda move: _score(state, seat, move), rng)


def evaluate(state: dict, seats: list[str]) -> Scores:
    """Prestige now, times a rough chance that the expedition ends with the fuel (the fleet's, as ships tow one
    another) and dynamite it has."""
    players = state["players"]
    left = _voyages_left(state)
    dynamite_margin = sum(player["dynamite"] for player in players) - left
    fuel_margin = (sum(player["fuel"] for player in players) - 1.3 * left * len(players)) / len(players)
    reach = max(0.05, min(1.0, 0.6 + 0.15 * min(dynamite_margin, fuel_margin)))
    points = {seat: float(players[state["seats"].index(seat)]["vp"]) for seat in seats}
    return {seat: reach * reward for seat, reward in points_reward(points).items()}
