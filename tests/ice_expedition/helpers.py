"""Driving an I C E Expedition game in table mode, with the chance outcomes a test chooses."""
from __future__ import annotations

from domain.core import ORGANISER, TABLE
from domain.core.match import Match, apply_event, create, legal_moves, submit
from domain.ice_expedition import RULES


def new_game(players: int = 2, options: dict | None = None, picks: dict | None = None) -> Match:
    """A game right after setup: every seat kept its first drawn request; day 1, the first player to act."""
    match, _ = create(RULES, options or {}, [f"Player {n}" for n in range(1, players + 1)], TABLE, None)
    settle(match, picks)
    while match.state["phase"] == "setup":
        seat = RULES.to_act(match.state)[0]
        act(match, seat, legal_moves(match, seat)[0], picks)
    return match


def settle(match: Match, picks: dict | None = None) -> list[dict]:
    """Resolve pending chance nodes: ``picks[key]`` when given (a list, or a function of the node), else
    the first candidates."""
    picks = picks or {}
    events = []
    while (node := RULES.chance_node(match.state)) is not None:
        chosen = picks.get(node.key)
        if callable(chosen):
            chosen = chosen(node)
        outcome = list(chosen) if chosen is not None else list(node.candidates[: node.count])
        for event in submit(match, ORGANISER, {"type": "resolve_chance", "outcome": outcome}):
            apply_event(match, event)
            events.append(event)
    return events


def act(match: Match, seat: str, command: dict, picks: dict | None = None) -> list[dict]:
    events = submit(match, seat, command)
    for event in events:
        apply_event(match, event)
    return events + settle(match, picks)


def clear_board(match: Match) -> None:
    """Every archaeologist and camp back to the reserve, so a test lays out its own pieces."""
    state = match.state
    for tile in state["tiles"].values():
        state["reserve"]["archaeologists"] += tile["arch"]
        state["reserve"]["camps"] += 1 if tile["camp"] else 0
        tile["arch"], tile["camp"] = 0, False


def set_terrain(match: Match, key: str, terrain: str) -> None:
    match.state["tiles"][key]["terrain"] = terrain
    match.state["tiles"][key]["rift"] = [0, 3] if terrain == "T-RIF" else None


def give_front(match: Match, seat: str, front: str) -> str:
    """Put a snow tile with a known front in ``seat``'s hand; returns its id."""
    state = match.state
    state["fronts_left"].remove(front)
    tile_id = f"TEST-{front}"
    state["players"][seat]["hand"].append({"id": tile_id, "terrain": "T-CLR", "front": front, "known_by": [seat]})
    return tile_id


def moves_of(match: Match, seat: str, kind: str) -> list[dict]:
    return [m for m in legal_moves(match, seat) if m["type"] == kind]


CENTRE = "3:0:0"


def open_centre(match: Match) -> None:
    """An empty board but for the centre tile, uncovered, holding artifact AS-har-S1-1a, with p1's leader on it."""
    clear_board(match)
    state = match.state
    for key in ("4:-1:0", "4:0:1", "4:1:-1"):
        state["tiles"].pop(key)
    state["tiles"][CENTRE]["face"] = "AS-har-S1-1a"
    state["artifacts_left"]["3"].remove("AS-har-S1-1a")
    state["leaders"]["p1"] = CENTRE
