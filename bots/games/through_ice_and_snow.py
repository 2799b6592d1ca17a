"""Through Ice and Snow: keep the expedition alive to its final voyage, then score.

Random play loses everyone the game in rounds 5 to 9: the fleet runs out of fuel (towing nobody can cover)
or of dynamite (no leader can break the ice). The rollout here sails the shortest way to the final anchor on
the map as its sections lie (and lays a new section on the side that keeps the way short), prefers open sea
(half the fuel of a coastal voyage) unless every ship has fuel to spare, and in the Action phase weighs each
space by what the seat lacks most: fuel and dynamite when the expedition runs short, food before the meal,
prestige otherwise. The evaluation is the prestige each seat holds now, discounted by the chance that the
expedition reaches its end with the fuel and dynamite it has left and what its Action phases left may restock.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import domain.through_ice_and_snow
from bots.games import AVOID, Scores, prefer, unavoided
from bots.outcome import points_reward
from domain.core.data import load_data

DATA = Path(domain.through_ice_and_snow.__file__).parent / "data"


# A route's cost in voyages: a second dynamite for its ice (TIS-VOY-3) counts half a voyage more, and so does
# the fuel surcharge of a broken-ice or ice route of Walking on Ice (TIS-WALK-3).
EXTRA_DYNAMITE_COST = 0.5
SURCHARGE_COST = 0.5
SURCHARGED = frozenset({"BI", "IC"})


@dataclass(frozen=True)
class Way:
    """The cheapest way from an anchor to a final-round anchor: its cost in voyages, and the routes and the
    second dynamites (TIS-VOY-3) it takes."""

    cost: float
    routes: int
    extra_dynamite: int


# An anchor with no way on: as far as the longest voyage (7 to 12 rounds, spec 4).
NOWHERE = Way(12.0, 12, 0)


Sections = tuple[tuple[str, str], ...]


@cache
def _ways(sections: Sections, variant: str) -> dict[str, Way]:
    """The cheapest way from each anchor to a final-round anchor over the routes of this map: a placed section's
    routes on its side only (TIS-VOY-2), a section still to place on the side that serves best (its leader
    chooses it), the routes of this game's map variant, but no walking-only route (TIS-WALK-3). A search backwards
    from the final-round anchors."""
    board, _ = load_data(DATA, "map")
    placed = dict(sections)
    into: dict[str, list[tuple[str, dict]]] = {}
    for route in board["routes"]:
        side = placed.get(route["section"])
        if route.get("variant", variant) != variant or route.get("type") == "WK" \
                or (side is not None and side not in route["sides"]):
            continue
        into.setdefault(route["to"], []).append((route["from"], route))
    final = [anchor for anchor, data in board["anchors"].items()
             if data.get("final_round") and data.get("variant", variant) == variant]
    ways = dict.fromkeys(final, Way(0.0, 0, 0))
    frontier = list(final)
    while frontier:
        frontier.sort(key=lambda anchor: ways[anchor].cost)
        anchor = frontier.pop(0)
        for previous, route in into.get(anchor, []):
            extra = 1 if route.get("extra_dynamite") else 0
            cost = ways[anchor].cost + 1 + EXTRA_DYNAMITE_COST * extra \
                + (SURCHARGE_COST if route.get("type") in SURCHARGED else 0.0)
            if cost < ways.get(previous, NOWHERE).cost:
                ways[previous] = Way(cost, ways[anchor].routes + 1, ways[anchor].extra_dynamite + extra)
                frontier.append(previous)
    return ways


def _way(state: dict, anchor: str | None, sections: dict[str, str] | None = None) -> Way:
    placed = tuple(sorted((sections if sections is not None else state.get("sections", {})).items()))
    return _ways(placed, state.get("map_variant", "base")).get(anchor or "", NOWHERE)


@cache
def _actions() -> dict[str, str]:
    board, _ = load_data(DATA, "action_board")
    return {space["id"]: space["action"] for space in board["spaces"]}


# The steps of a Voyage phase before the fleet moves (and pays the voyage's fuel), and those after the Action
# phase of a round (TIS-VOY-*, TIS-ACT-*, TIS-BRD-*), by the names the state's step holds.
BEFORE_SAILING = frozenset({"round_start", "leadership", "destination", "ice_breaking", "attrition", "voyage_type",
                            "fuel"})
AFTER_ACTIONS = frozenset({"action_end", "boarding", "next_leader", "meal", "cleanup"})


@dataclass(frozen=True)
class Ahead:
    """What the expedition has still to sail: voyages (the final one included, TIS-END-1; the current one until
    the fleet has moved), the second dynamites of the ice on its way, and the Action phases left to restock."""

    voyages: float
    extra_dynamite: int
    action_phases: int


@cache
def _routes() -> dict[tuple[str, str], list[dict]]:
    """The map's routes by (from, to), of every side and variant."""
    board, _ = load_data(DATA, "map")
    routes: dict[tuple[str, str], list[dict]] = {}
    for route in board["routes"]:
        routes.setdefault((route["from"], route["to"]), []).append(route)
    return routes


def _extra_dynamite(state: dict, anchor: str) -> bool:
    """Whether the route from the fleet's anchor to ``anchor``, on the sides placed, takes a second dynamite
    (TIS-VOY-3)."""
    placed, variant = state.get("sections", {}), state.get("map_variant", "base")
    return any(route.get("extra_dynamite") and placed.get(route["section"]) in route["sides"]
               and route.get("variant", variant) == variant
               for route in _routes().get((state.get("anchor") or "", anchor), ()))


def _ahead(state: dict) -> Ahead:
    sailing = state.get("step") in BEFORE_SAILING
    if state.get("final_voyage"):
        return Ahead(1.0 if sailing else 0.0, 0, 0)
    way = _way(state, state.get("anchor"))
    voyages = way.routes + 1
    phases = voyages - 1 if sailing or state.get("step") in AFTER_ACTIONS else voyages
    return Ahead(float(voyages), way.extra_dynamite, phases)


# Fuel a ship burns a voyage on open sea: the one of TIS-VOY-5 and a quarter for the deck's fuel-loss events.
VOYAGE_FUEL = 1.25


def _margins(state: dict, ahead: Ahead) -> tuple[float, float]:
    """What the expedition holds beyond the open-sea voyages left: fuel per ship (a ship short of fuel is towed
    by the others, TIS-TRK-FUEL-4, so only the fleet's total counts until TIS-LOSE-3) and dynamite over one
    per ice-breaking (TIS-VOY-3; any player pays what the leader cannot, TIS-LOSE-1 and TIS-LOSE-2)."""
    players = state["players"]
    fuel = (sum(player["fuel"] for player in players) - VOYAGE_FUEL * ahead.voyages * len(players)) / len(players)
    dynamite = sum(player["dynamite"] for player in players) - ahead.voyages - ahead.extra_dynamite
    return fuel, dynamite


def _needs(state: dict, me: dict) -> dict[str, float]:
    """How badly the seat (and the expedition it depends on) lacks each thing, 0 to 1."""
    fuel_margin, dynamite_margin = _margins(state, _ahead(state))
    crew = sum(me["crew"].values())
    return {
        "fuel": max(0.0, min(1.0, (2.5 - fuel_margin) / 3), 1.0 if me["fuel"] <= 1 else 0.0),
        "dynamite": max(0.0, min(1.0, (3 - dynamite_margin) / 3 + (0.3 if me["dynamite"] == 0 else 0.0))),
        "food": max(0.0, min(1.0, (crew * 2 + 4 - me["food"]) / 10)),
        "health": 1.0 if me["health"] <= 2 else 0.6 if me["health"] <= 3 else 0.0,
        "morale": 1.0 if me["morale"] <= 2 else 0.6 if me["morale"] <= 3 else 0.0,
    }


WOODWORK = frozenset({"build_cabin", "ship_upgrade", "improve_sled"})
# What each warehouse gives for a deposit (TIS-ACT-40, the assumed pairing of the spec).
WAREHOUSE_GIVES = {"exchange-captain": "dynamite", "exchange-carpenter": "wood", "exchange-scientist": "rifle"}


def _action_score(state: dict, me: dict, move: dict, need: dict[str, float]) -> float:
    space = move.get("space") or ""
    action = _actions().get(space, space)
    crew = sum((move.get("crew") or {}).values()) + (1 if move.get("lead") else 0)
    short = max(need["fuel"], need["dynamite"])
    # An Experiment (fuel and dynamite) costs a wood: spending the last one elsewhere costs the fleet that.
    spends_last_wood = 3 * short if me["wood"] <= 1 and action in WOODWORK else 0.0
    if action == "experiment":
        return 2 + 10 * need["fuel"] + 10 * need["dynamite"]
    if action in ("visit_inuit", "revisit_inuit"):
        return 2 + 10 * need["fuel"]
    if action == "resource_exchange":
        gives = WAREHOUSE_GIVES.get(space)
        if move.get("deposit") in ("dynamite", gives):
            return AVOID
        spare = _discard_score(me, move.get("deposit", "")) / 2
        if gives == "dynamite":
            return 1 + 10 * need["dynamite"] + spare
        if gives == "wood" and not me["wood"]:
            return 1 + 8 * short + spare
        return 0.5 + spare
    if action == "resource_collection":
        box = state["warehouses"].get(space.removeprefix("collect-"), {})
        return 1 + 10 * need["dynamite"] * min(box.get("dynamite", 0), crew) + 0.3 * crew
    if action in ("hunt", "ice_fishing"):
        return 1 + 5 * need["food"] + (4 * need["health"] if action == "hunt" else 0) + 0.2 * crew - 3 * short
    if action == "recycle_wood":
        # Wood for the Experiments to come (one a round) for a single fuel: worth it with a crew to gather it.
        if me["wood"] <= 1 and crew >= 3 and me["fuel"] >= 2:
            return 2 + 6 * short + crew
        return AVOID if need["fuel"] > 0.1 else 0.5
    if action == "event":
        return 4 + 2 * max(need["health"], need["morale"]) - 2 * short
    if action == "lead":
        # The leader chooses the route and the voyage type: the way to keep a careless fleet on open sea. The
        # helm goes to the most dynamite anyway (TIS-BRD-2); Lead is worth a crew when another would get it.
        rival = max((player["dynamite"] for player in state["players"] if player is not me), default=0)
        return (7 if rival >= me["dynamite"] else 1) + 4 * short if me["dynamite"] else -1
    if action == "explore":
        return 5 + 4 * need["morale"] - 4 * short
    if action in ("build_cabin", "discover_species", "trace_map", "document_construction",
                  "laboratory_research", "vow_of_silence", "document_sled", "vow_of_dogs"):
        return 5 - 4 * short - spends_last_wood
    if action == "ship_upgrade":
        return 3 + 3 * need["morale"] - 2 * short - spends_last_wood
    if action in ("improve_sled", "hire_inuk"):
        return 3 - 2 * short - spends_last_wood
    return 2


def _discard_score(me: dict, resource: str) -> float:
    """A resource to give up: the one the seat has most of and needs least (never the last dynamite)."""
    keep = {"dynamite": 6, "dog": 2, "wood": 3, "rifle": 2, "food_can": 1}.get(resource, 1)
    held = me.get(resource, me.get("dogs", 0) if resource == "dog" else 0)
    return held - keep


def _score(state: dict, me: dict, move: dict, need: dict[str, float]) -> float:
    kind = move["type"]
    if kind == "choose_destination":
        extra = _extra_dynamite(state, move["anchor"])
        return -_way(state, move["anchor"]).cost - (1 + 3 * need["dynamite"] if extra else 0.0)
    if kind == "place_map_section":
        # The leader chooses the side (TIS-VOY-2): the one with the shorter way on from the anchor reached.
        sections = {**state.get("sections", {}), move["section"]: move["side"]}
        return -_way(state, state.get("destination"), sections).cost
    if kind == "choose_voyage_type":
        # Coastal costs every ship a second fuel for the leader's one prestige: only with fuel to spare after it.
        fuel_margin, _ = _margins(state, _ahead(state))
        return {"open_sea": 1.0, "coastal": 2.0 if fuel_margin >= 4 else AVOID}.get(move["voyage"], 0.0)
    if kind == "take_action":
        deposit = move.get("survival_deposit")
        if deposit == "dynamite" and need["dynamite"] > 0:
            return AVOID
        return _action_score(state, me, move, need) + (_discard_score(me, deposit) / 2 - 1 if deposit else 0)
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


def _scorer(state: dict, seat: str) -> Callable[[dict], float]:
    """The rating of a move of ``seat`` now, with what the seat lacks worked out once for all its moves."""
    if seat not in state.get("seats", []):
        return lambda move: 0.0
    me = state["players"][state["seats"].index(seat)]
    need = _needs(state, me)
    return lambda move: _score(state, me, move, need)


def rollout(state: dict, seat: str, moves: list[dict], rng: random.Random) -> dict:
    return prefer(moves, _scorer(state, seat), rng)


# The actions that restock the fleet's fuel and dynamite (TIS-ACT-12, TIS-ACT-32, TIS-ACT-41 and 42).
RESTOCK = {"fuel": frozenset({"experiment", "visit_inuit", "revisit_inuit", "recycle_wood"}),
           "dynamite": frozenset({"experiment", "resource_exchange", "resource_collection"}),
           "food": frozenset({"hunt", "ice_fishing"})}
URGENT = 0.5
# The choices of the way (TIS-VOY-2), and how much longer than the shortest a way searched may be, in voyages.
WAYFINDING = frozenset({"choose_destination", "place_map_section"})
WAY_SLACK = 1.0


def _restocks(state: dict, me: dict, need: dict[str, float], move: dict, lacking: list[str]) -> bool:
    space = move.get("space") or ""
    action = _actions().get(space, space)
    if action == "resource_exchange" and WAREHOUSE_GIVES.get(space) != "dynamite":
        return False
    if action == "recycle_wood" and _action_score(state, me, move, need) <= AVOID:
        return False
    if action == "resource_collection" and not state["warehouses"].get(space.removeprefix("collect-"), {}).get(
            "dynamite"):
        return False
    return any(action in RESTOCK[kind] for kind in lacking)


def prune(state: dict, seat: str, moves: list[dict]) -> list[dict]:
    """Leave out of the search the ways on much longer than the shortest, the moves that spend what the
    expedition lacks (a coastal voyage short of fuel, dynamite put into a warehouse while the ice still needs it)
    and, while the fleet is urgently short of fuel or dynamite (or, failing those, food), every action but those
    that restock it, if one is offered: a few noisy playouts cannot see that the prestige of another action is
    worth nothing in a shared defeat. Nor is a pass searched while an action is offered."""
    score = _scorer(state, seat)
    kept = unavoided(moves, score)
    ways = [score(move) for move in kept if move["type"] in WAYFINDING]
    if ways:
        # Every voyage more costs the fleet a dynamite and a fuel a ship: only the ways on near the shortest.
        return [move for move in kept if move["type"] not in WAYFINDING or score(move) >= max(ways) - WAY_SLACK]
    if seat not in state.get("seats", []) or not any(move["type"] == "take_action" for move in kept):
        return kept
    # Passing ends the seat's Action phase (TIS-ACT-4) with crew left idle that Ice Fishing alone would feed.
    kept = [move for move in kept if move["type"] != "pass"]
    me = state["players"][state["seats"].index(seat)]
    need = _needs(state, me)
    # The fleet's fuel and dynamite first: a food shortage costs prestige (TIS-TRK-FOOD-3), their lack the game.
    lacking = [kind for kind in ("fuel", "dynamite") if need[kind] >= URGENT] \
        or [kind for kind in ("food",) if need[kind] >= URGENT]
    return [move for move in kept if move["type"] == "take_action" and _restocks(state, me, need, move, lacking)] \
        or kept


def _prestige(player: dict) -> float:
    """Prestige now, less the 5 a space of food the next meal would cost a crew that cannot eat (TIS-TRK-FOOD-3)."""
    return float(player["vp"]) - 5 * max(0, sum(player["crew"].values()) - player["food"])


# What an Action phase may restock for the fleet, on average: an Experiment or an Inuit visit gives 2 fuel
# (TIS-ACT-32, TIS-ACT-12), an Experiment or the captain's warehouse a dynamite (TIS-ACT-41), but not every
# round, and a longer way must still cost more than it may restock.
RESTOCK_FUEL = 1.0
RESTOCK_DYNAMITE = 0.5


def _chance(cover: float, phases: int) -> float:
    """A rough chance that the fleet lasts to the end when what it holds covers the need by ``cover`` (negative
    when short) with ``phases`` Action phases left: even when what those phases may restock on average would
    just cover it, the less sure the more phases are left to go wrong, and with none left (the final voyage
    draws no event, TIS-END-1) a matter of whether it covers (TIS-LOSE-1 to 3)."""
    return 1 / (1 + math.exp(-(cover + 0.5) / (0.25 + 0.5 * phases)))


def _reach(state: dict) -> float:
    """The chance that the expedition reaches its final voyage's end, by its fuel and by its dynamite: the fuel
    the fleet needs (a ship short is towed, TIS-TRK-FUEL-4, so only the fleet's total counts) and one dynamite
    per ice-breaking (TIS-VOY-3, with the second ones of the way's ice) against what it holds and may restock."""
    players = state["players"]
    ahead = _ahead(state)
    fuel = sum(player["fuel"] for player in players)
    events = max(0.0, ahead.voyages - 1) * (VOYAGE_FUEL - 1)  # the final voyage draws no event (TIS-END-1)
    fuel_cover = fuel + RESTOCK_FUEL * ahead.action_phases - (ahead.voyages + events) * len(players)
    dynamite = sum(player["dynamite"] for player in players)
    dynamite_cover = dynamite + RESTOCK_DYNAMITE * ahead.action_phases - ahead.voyages - ahead.extra_dynamite
    return _chance(fuel_cover, ahead.action_phases) * _chance(dynamite_cover, ahead.action_phases)


def evaluate(state: dict, seats: list[str]) -> Scores:
    """Prestige now, judged by the margin rather than the place, times the chance that the expedition reaches
    its end (:func:`_reach`): a shared defeat is worth nothing to anyone."""
    players = state["players"]
    reach = _reach(state)
    points = {seat: _prestige(players[state["seats"].index(seat)]) for seat in seats}
    return {seat: reach * reward for seat, reward in points_reward(points, place_weight=0.0).items()}
