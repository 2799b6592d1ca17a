"""The state of a game: one compact JSON-ready dict, and the small helpers every phase shares.

Seats are kept as indexes (0 = ``p1``) inside the state; crew are counted by
type, since pawns of one type are interchangeable (TIS-ACT-64). The state
also holds, under ``parts``, the composition of the rule parts its options
chose (parts.py), which the engine reads its hooks and tables from; it is no
part of the state's JSON, which has the options it is rebuilt from
(``Rules.state_to_json``).
"""
from __future__ import annotations

from typing import Any

from domain.through_ice_and_snow.catalogue import CAT

State = dict[str, Any]
"""A Through Ice and Snow game's state: the compact object :func:`domain.through_ice_and_snow.setup.new_state`
builds, seats as indexes, with the keys of its rule parts and, under ``parts``, the match's composition (all else
is JSON). Reached by computed keys throughout, so typed as the plain object it is."""


def drawable(state: State, deck: str) -> list[str]:
    """Event cards that can come off the top: cards put on the bottom (Mast upgrade) come last, in order."""
    bottom = state["bottom"][deck]
    return [card for card in state["decks"][deck] if card not in bottom] or bottom[:1]


def clockwise(state: State, first: int) -> list[int]:
    """Seat indexes clockwise starting with ``first`` itself."""
    n = state["n"]
    return [(first + k) % n for k in range(n)]


def event_number(card_id: str) -> int:
    return int(card_id[2:])


def crew_count(player: dict) -> int:
    """Crew members on the player's ship (officers, sailors, Inuit pawns); hired Inuit join at Boarding. Sailors
    rescued in the Lost Expedition are fed too (TIS-SOLO-LOST-8)."""
    return sum(player["crew"].values()) + player.get("rescued", 0)


def owned(player: dict, resource: str) -> int:
    return player["dogs"] if resource == "dog" else player.get(resource, 0)


def gain(state: State, player: dict, resource: str, amount: int) -> int:
    """Take from the shared supply (TIS-TRK-5); a gain the finite supply cannot give is lost (ASSUMED)."""
    room = state["supply"][resource]
    if resource == "dog" and player.get("fixed_dogs"):
        return 0  # Amundsen never places dogs (TIS-SOLO-AMU-3)
    if resource == "dog":
        room = min(room, CAT.tracks["dogs"]["max"] - player["dogs"])
    taken = max(0, min(amount, room))
    state["supply"][resource] -= taken
    if resource == "dog":
        player["dogs"] += taken
    else:
        player[resource] += taken
    return taken


def score(player: dict, amount: int) -> None:
    """Prestige gained or lost. In the single-player scenarios prestige is never gained, only lost
    (TIS-SOLO-LOST-6, TIS-SOLO-MAG-6, TIS-SOLO-EPI-6, TIS-SOLO-AMU-5): the player board says so."""
    if amount > 0 and player.get("no_vp_gains"):
        return
    player["vp"] += amount


def join_inuit(state: State, player: dict, amount: int) -> None:
    """An Inuk pawn joins the crew at once (investor bonus, event cards 9 and 17) and the Inuit track rises."""
    taken = max(0, min(amount, state["supply"]["inuk"], CAT.tracks["inuit"]["max"] - player["inuit"]))
    state["supply"]["inuk"] -= taken
    player["inuit"] += taken
    joining = arriving_inuit(state, player, taken)
    player["crew"]["inuk"] += joining
    player["free"]["inuk"] += joining


def arriving_inuit(state: State, player: dict, count: int) -> int:
    """Inuk pawns a player receives join the crew, unless a module holds them elsewhere (TIS-MYTH-3, card 37)."""
    for hook in state["parts"].hooks("inuit_arrival"):
        count = hook(state, player, count)
    return count


def pay(state: State, player: dict, resource: str, amount: int = 1) -> None:
    """Return to the shared supply (TIS-TRK-5); a dog always leaves from the highest space (TIS-TRK-DOG-1)."""
    if resource == "dog":
        player["dogs"] -= amount
    else:
        player[resource] -= amount
    state["supply"][resource] += amount


def remove_crew(player: dict, kind: str) -> None:
    """A pawn leaves the game; one already used or sick this round goes first (ASSUMED)."""
    player["crew"][kind] -= 1
    player["free"][kind] = min(player["free"][kind], player["crew"][kind])


def push(state: State, seat: int, kind: str, **details) -> None:
    """Queue a decision the rules ask of ``seat``; the game waits for it before any automatic step."""
    state["pending"].append({"seat": seat, "kind": kind, **details})


def all_lost(state: State, rule_id: str, detail: str) -> None:
    """A catastrophe (TIS-LOSE-*): the game ends at once and every player loses."""
    state["over"] = {"outcome": "all_lost", "rule": rule_id, "detail": detail}
    state["pending"] = []
    state["chance"] = None
