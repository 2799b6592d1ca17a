"""The game state as a plain JSON value (built by :mod:`domain.northwest_passage.setup`), and the questions
every other module asks of it.

Crew are identical, so a vessel is four numbers and a position
(NWP-COMP-21, NWP-GEO-8): ``at`` is ``"G"``, ``"N"``, a placed tile id, or
``None`` for a sled that is off the board (NWP-COMP-22).
"""
from __future__ import annotations

from domain.northwest_passage.catalogue import Catalogue

GREENLAND = "G"
NORTHWEST = "N"
SHIP = "ship"
SLED = "sled"
VESSELS = (SHIP, SLED)

LIVE_FAME_RULES = ("NWP-SCORE-1", "NWP-SCORE-2", "NWP-SCORE-3", "NWP-SCORE-4")


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
