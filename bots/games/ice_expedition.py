"""I C E Expedition: dig through the ice, send the artifacts home, and let the day end when the EP are spent.

Random play wanders its leader about and sends little, so its games run to the day limit with a few RP each.
The rollout here excavates whenever it can, sends every artifact it may at the end of the day, brings
archaeologists to the leader's tile (each one makes a dig cheaper) and otherwise moves or camps, keeping
Overwork, Resend and an early end of the day for when nothing else is offered. The evaluation is the RP a
seat holds now plus what its artifacts waiting on its guild board would bring once sent.
"""
from __future__ import annotations

import random
from functools import cache
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
    "place_snowflake": 1.0,
    "plan": 0.5,
    "end_turn": 4.0,
    "stop_sending": -2.0,
    "overwork": -1.0,
    "resend": -3.0,
    "end_day": -4.0,
}


# What uncovering a building is worth to a dig, against the 10 of any excavation: the building ending is
# the game's other ending, and digging anywhere else leaves every game to run to the day limit.
BUILDING_PULL = 16.0


def _depth(place: str | None) -> int:
    """How far down a tile lies: 0 for the snow on top, 4 for the buildings ("layer:q:r", layer 4 on top)."""
    return 4 - int(place.split(":")[0]) if place else 0


@cache
def _geometry() -> Geometry:
    rules: Any = get_rules("ice-expedition")
    return rules.geo


def _towards_buildings(state: dict) -> dict[str, float]:
    """How much digging each tile brings a building nearer to uncovered (ICE-END-1): a tile over a building
    counts the more the fewer tiles are left over it, and each layer further up two thirds of the layer
    below, so a leader on the snow is drawn down the shafts that lead to the building nearest uncovered."""
    geo = _geometry()
    present = set(map(parse_slot, state["tiles"]))
    weight: dict[Slot, float] = {}
    level: dict[Slot, float] = {}
    for building in geo.building_slots & present:
        covers = [slot for slot in geo.above[building] if slot in present]
        for cover in covers:
            level[cover] = max(level.get(cover, 0.0), 1.0 / len(covers))
    while level:
        weight.update(level)
        above: dict[Slot, float] = {}
        for slot, value in level.items():
            for over in geo.above[slot]:
                if over in present and over not in weight:
                    above[over] = max(above.get(over, 0.0), value * 2 / 3)
        level = above
    return {slot_key(slot): value for slot, value in weight.items()}


def _diggable(state: dict, key: str) -> bool:
    """Whether the tile at ``key`` has at most one tile over it (ICE-EXC-1), buildings aside."""
    tiles = state["tiles"]
    tile = tiles.get(key)
    if tile is None or tile["kind"] == "building":
        return False
    over = _geometry().above[parse_slot(key)]
    return sum(slot_key(slot) in tiles for slot in over) <= 1


def _score(state: dict, seat: str, move: dict, stuck: bool, towards: dict[str, float]) -> float:
    kind = move["type"]
    score = SCORES.get(kind, 0.0)
    leader = state["leaders"].get(seat)
    if kind == "excavate":
        return score + _depth(leader) + BUILDING_PULL * towards.get(leader or "", 0.0)
    if kind == "move":
        # ICE-EXC-1: only a tile with at most one tile over it can be dug; walking anywhere else wastes the EP.
        diggable = _diggable(state, move["to"])
        return score + 0.5 * _depth(move["to"]) + (3.0 if stuck else 0.0) + (3.0 if diggable else -1.0) \
            + BUILDING_PULL / 2 * towards.get(move["to"], 0.0)
    if kind == "recruit":
        if move.get("kind") == "leader":
            return score if leader is None else -1.0
        here = state["tiles"].get(leader or "", {})
        return score if move.get("camp") == leader and here.get("arch", 0) < 2 and not stuck else 0.2
    return score


def rollout(state: dict, seat: str, moves: list[dict], rng: random.Random) -> dict:
    player = state["players"][seat]
    # A leader with the EP for a dig but none offered stands where nobody can dig: better to walk on.
    stuck = player["ep"] >= 2 and not state["turn"]["spent"] and not any(move["type"] == "excavate" for move in moves)
    towards = _towards_buildings(state) if any(move["type"] in ("excavate", "move") for move in moves) else {}
    return prefer(moves, lambda move: _score(state, seat, move, stuck, towards), rng)


def evaluate(state: dict, seats: list[str]) -> Scores:
    """The final sheet as if the game ended now (RP held, requests and decrees met so far), with each artifact
    waiting on a guild board counted at one RP more, as sending it would bring."""
    totals = get_rules("ice-expedition").final_score(state)["totals"]
    players = state["players"]
    return points_reward({seat: float(totals.get(seat, 0)) + len(players[seat]["artifacts"]) for seat in seats})
