"""Building Northwest Passage positions for tests: real games in table mode, plus direct board set-ups."""
from __future__ import annotations

from domain.core import ORGANISER, TABLE
from domain.core.match import Match, apply_event, create, submit
from domain.northwest_passage import RULES
from domain.northwest_passage.apply import place_on_board
from domain.northwest_passage.state import tile_type

CATALOGUE = RULES.catalogue
OPENING_DISPLAY = ["L01#1", "L02#1", "L03#1", "L09#1"]


def resolve(match: Match, outcome: list[str]) -> list[dict]:
    """The organiser records what was physically drawn (table mode)."""
    return play(match, ORGANISER, {"type": "resolve_chance", "outcome": outcome})


def play(match: Match, seat: str, command: dict) -> list[dict]:
    events = submit(match, seat, command)
    for event in events:
        apply_event(match, event)
    return events


def new_match(players: int = 2, options: dict | None = None, order: list[str] | None = None) -> Match:
    """A game with the turn order and opening display fixed, waiting for the opening draft."""
    match, events = create(RULES, options or {}, [f"Player {n}" for n in range(1, players + 1)], TABLE, None)
    resolve(match, order or [f"p{n}" for n in range(1, players + 1)])
    resolve(match, list(OPENING_DISPLAY))
    return match


def started(players: int = 2, options: dict | None = None, order: list[str] | None = None) -> Match:
    """A game in round 1 after everyone drafted a small all-sea tile (S01)."""
    match = new_match(players, options, order)
    for seat in reversed(match.state["order"]):
        play(match, seat, {"type": "draft_pick", "source": "S01"})
    return match


def put(match: Match, tile: str, x: int, y: int, rotation: int = 0, flip: bool = False) -> None:
    """Lay a tile directly (no legality check): a set-up step, not a move."""
    _from_supply(match, tile)
    place_on_board(match.state, tile, tile_type(CATALOGUE, tile),
                   {"anchor_x": x, "anchor_y": y, "rotation": rotation, "flip": flip}, CATALOGUE)


def fabricate(match: Match, rows: list[str], cells: dict[tuple[int, int], str]) -> None:
    """Write lattice values and cell owners by hand, for shapes no tile sequence gives easily."""
    state = match.state
    lattice = [list(row) for row in state["lattice"]]
    for j, row in enumerate(rows):
        for i, value in enumerate(row):
            lattice[j][i] = value
    state["lattice"] = ["".join(row) for row in lattice]
    for (x, y), tile in cells.items():
        state["cells"][y][x] = tile
        entry = state["tiles"].setdefault(tile, {"type": "S02", "anchor": [x, y], "rotation": 0, "flip": False,
                                                 "cells": []})
        entry["cells"].append([x, y])


def vessel(match: Match, seat: str, name: str, at: str | None, available: int, resting: int = 0) -> dict:
    """Set a vessel's position and crew directly."""
    state = match.state["players"][seat][name]
    state.update({"at": at, "available": available, "resting": resting})
    if at not in ("G", None):
        state["left_greenland"] = True
    return state


def give(match: Match, seat: str, *tiles: str) -> None:
    for tile in tiles:
        _from_supply(match, tile)
    match.state["players"][seat]["hand"].extend(tiles)


def _from_supply(match: Match, tile: str) -> None:
    for pile in (match.state["stock"], match.state["display"]):
        if tile in pile:
            pile.remove(tile)


def types_of(events: list[dict]) -> list[str]:
    return [event["type"] for event in events]


def event_of(events: list[dict], kind: str) -> dict:
    return next(event["data"] for event in events if event["type"] == kind)
