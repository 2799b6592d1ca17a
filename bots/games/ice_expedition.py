"""I C E Expedition: dig a shaft down to a building, send the artifacts home, and spend the EP well.

Random play wanders its leader about and sends little, so its games run to the day limit with a few RP each.
The rollout here picks the building nearest uncovered (ICE-END-1: the fewest tiles left over it) and digs the
tiles over it, top down: a dig there counts far above any other, a move counts by how many steps it saves
towards the nearest tile over that building that can be dug now (ICE-EXC-1: at most one tile over it), the
leader takes every archaeologist along (each one makes a dig cheaper, ICE-EXC-2), and after a dig the leader
goes where the next dig is nearest. It sends every artifact it may at the end of the day, and keeps Overwork
(unless it pays for a dig on the shaft), Resend and an early end of the day for when nothing else is offered.
The evaluation is the RP a seat holds now plus what its artifacts waiting on its guild board would bring once
sent.
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from bots.games import Scores, prefer
from bots.outcome import points_reward
from domain.ice_expedition.geometry import Geometry, Slot, parse_slot, slot_key
from domain.registry import get_rules

SCORES = {
    "excavate": 10.0,
    "send_to_city": 9.0,
    "keep_request": 5.0,
    "check_registry": 1.5,
    "recruit": 3.0,
    "play_snow_tile": 2.5,
    "use_guild_ability": 2.0,
    "set_up_camp": 2.0,
    "move_camp": 1.0,
    "move": 1.5,
    "relocate": 1.0,
    "place_explorers": 1.0,
    "plan": 0.5,
    "end_turn": 4.0,
    "stop_sending": -2.0,
    "overwork": -1.0,
    "resend": -3.0,
    "end_day": -4.0,
}

# What a dig on the shaft is worth above any other dig: uncovering a building is the game's other ending
# (ICE-END-1), and digs spread over the board leave every game to run to the day limit.
SHAFT_DIG = 8.0
# What each step saved towards the shaft is worth to a move, and each archaeologist taken along.
STEP = 2.0
COMPANY = 0.5
# Overwork (1 RP, ICE-ACT-6) when it lets the leader dig the shaft this turn: above ending the turn.
OVERWORK_FOR_SHAFT = 6.0
# Tiles further than this from the shaft are all alike to a move.
FAR = 8


@dataclass(frozen=True)
class Shaft:
    """The tiles over the building nearest uncovered, and how far each standable tile is from digging them."""

    cone: frozenset[str]
    steps: dict[str, int]

    def distance(self, place: str | None) -> int:
        return min(self.steps.get(place or "", FAR), FAR)


def _depth(place: str | None) -> int:
    """How far down a tile lies: 0 for the snow on top, 4 for the buildings ("layer:q:r", layer 4 on top)."""
    return 4 - int(place.split(":")[0]) if place else 0


@cache
def _geometry() -> Geometry:
    rules: Any = get_rules("ice-expedition")
    return rules.geo


def _shaft(state: dict) -> Shaft:
    """The shaft of the board as it lies: the same board comes up in every world and every playout step
    until a tile goes, so each is worked out once (:func:`_dig_plan` remembers it)."""
    return _dig_plan(frozenset(state["tiles"]))


@lru_cache(maxsize=512)
def _dig_plan(tiles: frozenset[str]) -> Shaft:
    """Every present tile over some building must go for it to be uncovered (ICE-END-1); the building with the
    fewest is the target. Its tiles with at most one tile over them can be dug now (ICE-EXC-1); the steps
    from every standable tile to the nearest of them (ICE-ACT-1 over ICE-GEO-3 adjacency) guide the leader."""
    geo = _geometry()
    present = set(map(parse_slot, tiles))
    best: set[Slot] = set()
    for building in sorted(geo.building_slots & present):
        cone: set[Slot] = set()
        level = {slot for slot in geo.above[building] if slot in present}
        while level:
            cone |= level
            level = {over for slot in level for over in geo.above[slot] if over in present} - cone
        if not best or len(cone) < len(best):
            best = cone
    ready = [slot for slot in best if geo.cover_count(present, slot) <= 1]
    steps = {slot: 0 for slot in ready}
    queue = deque(ready)
    while queue:
        slot = queue.popleft()
        for near in geo.adjacent_tiles(present, slot):
            if near not in steps and not geo.fully_covered(present, near):
                steps[near] = steps[slot] + 1
                queue.append(near)
    return Shaft(frozenset(map(slot_key, best)), {slot_key(slot): n for slot, n in steps.items()})


def _score(state: dict, seat: str, move: dict, shaft: Shaft, stuck: bool) -> float:
    kind = move["type"]
    score = SCORES.get(kind, 0.0)
    leader = state["leaders"].get(seat)
    if kind == "excavate":
        return score + _depth(leader) + (SHAFT_DIG if leader in shaft.cone else 0.0)
    if kind == "move":
        saved = shaft.distance(leader) - shaft.distance(move["to"])
        return score + STEP * saved + COMPANY * move.get("archaeologists", 0) + (3.0 if stuck else 0.0)
    if kind == "place_explorers":
        place = move["leaders"].get(seat)
        if place is None:
            return score
        company = move["shares"][_places(state).index(place)] - 1 if place in _places(state) else 0
        return score - STEP * shaft.distance(place) + COMPANY * company
    if kind == "overwork":
        return OVERWORK_FOR_SHAFT if stuck and leader in shaft.cone and shaft.distance(leader) == 0 else score
    if kind == "recruit":
        if move.get("kind") == "leader":
            return score + STEP * (FAR - shaft.distance(move.get("camp"))) if leader is None else -1.0
        here = state["tiles"].get(leader or "", {})
        return score if move.get("camp") == leader and here.get("arch", 0) < 2 and not stuck else 0.2
    return score


def _places(state: dict) -> list[str]:
    """Where the explorers of the tile being dug may go, in the order of a placement's shares (ICE-EXC-4)."""
    dig = state.get("dig") or {}
    slot = parse_slot(dig["slot"]) if dig.get("slot") else None
    if slot is None:
        return []
    tiles = state["tiles"]
    return [slot_key(below) for below in _geometry().below[slot] if slot_key(below) in tiles]


def rollout(state: dict, seat: str, moves: list[dict], rng: random.Random) -> dict:
    player = state["players"][seat]
    # A leader with the EP for a dig but none offered stands where nobody can dig: better to walk on.
    stuck = player["ep"] >= 2 and not state["turn"]["spent"] and not any(move["type"] == "excavate" for move in moves)
    shaft = _shaft(state)
    return prefer(moves, lambda move: _score(state, seat, move, shaft, stuck), rng)


def evaluate(state: dict, seats: list[str]) -> Scores:
    """The final sheet as if the game ended now (RP held, requests and decrees met so far), with each artifact
    waiting on a guild board counted at one RP more, as sending it would bring."""
    totals = get_rules("ice-expedition").final_score(state)["totals"]
    players = state["players"]
    return points_reward({seat: float(totals.get(seat, 0)) + len(players[seat]["artifacts"]) for seat in seats})
