"""Northwest Passage: lay tiles westwards, sail the ship to the Northwest and bring it home to Greenland.

Random play spreads its crew over the sled, draws tiles it never lays and leaves both vessels out on the ice
(an abandonment penalty of up to 18). The rollout here keeps the whole crew aboard the ship, takes one
action per turn (a second costs a crewman more), lays tiles next to the ship on the side of its goal and
sails towards the goal: the Northwest port until the ship has reached it, then Greenland. The evaluation is
the sheet the game would score now, less what the ship still has to sail and the penalty it risks if it
cannot come back in time.
"""
from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import domain.northwest_passage
from bots.games import AVOID, Scores, prefer
from bots.outcome import points_reward
from domain.core.data import load_data
from domain.registry import get_rules

DATA = Path(domain.northwest_passage.__file__).parent / "data"

WIDTH, NORTHWEST_ROWS, GREENLAND_ROWS = 12, (6, 8), (3, 5)
# Cells from the Northwest port back to Greenland, roughly: the board's width and the rows between the ports.
CROSSING = WIDTH + 2
ABANDONED = 18


@cache
def _orientations() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each tile type's land and sea (3 by 3 lattice points for a small tile, 3 by 5 for a large one) in every
    orientation, mirrored or not and turned, anchored at its north-west cell as the engine places tiles."""
    tiles, _ = load_data(DATA, "tiles")
    out = {}
    for kind in [*tiles["small"]["types"], *tiles["large"]]:
        rows = tuple(kind["pattern"].split("/"))
        seen: list[tuple[str, ...]] = []
        for turned in (rows, tuple(row[::-1] for row in rows)):
            for _ in range(4):
                turned = tuple("".join(turned[len(turned) - 1 - c][r] for c in range(len(turned)))
                               for r in range(len(turned[0])))
                if turned not in seen:
                    seen.append(turned)
        out[kind["id"]] = tuple(seen)
    return out


def _covers(rows: tuple[str, ...], x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dy in range(len(rows) // 2) for dx in range(len(rows[0]) // 2)]


def _fits(state: dict, rows: tuple[str, ...], x: int, y: int) -> bool:
    grid, lattice = state["cells"], state["lattice"]
    if not all(0 <= cx < WIDTH and 0 <= cy < len(grid) and grid[cy][cx] is None for cx, cy in _covers(rows, x, y)):
        return False
    return all(lattice[2 * y + j][2 * x + i] in (".", value) for j, row in enumerate(rows)
               for i, value in enumerate(row))


def _best_fit(state: dict, kind: str, frontier: list[tuple[int, int]], here: int, westward: bool) -> float | None:
    """How much nearer its port the best placement of a tile of ``kind`` over a frontier cell brings the ship
    (with a little for the sea it opens), or None when none fits."""
    best = None
    for rows in _orientations().get(kind, ()):
        wide, tall = len(rows[0]) // 2, len(rows) // 2
        for fx, fy in frontier:
            for x, y in {(fx - dx, fy - dy) for dx in range(wide) for dy in range(tall)}:
                if _fits(state, rows, x, y):
                    gain = here - min(_to_port(cell, westward) for cell in _covers(rows, x, y))
                    value = 2 * gain + 3 * "".join(rows).count("S") / len("".join(rows))
                    best = value if best is None else max(best, value)
    return best


def _frontier(state: dict, place: str, westward: bool) -> list[tuple[int, int]]:
    """Empty cells next to the vessel's tile (or the port's entry cells) with sea on the border they share with
    the vessel's tile."""
    grid, lattice = state["cells"], state["lattice"]
    if place == "G":
        return [(11, y) for y in range(GREENLAND_ROWS[0], GREENLAND_ROWS[1] + 1) if grid[y][11] is None]
    out = []
    for x, y in _cells(state, place):
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if not (0 <= nx < WIDTH and 0 <= ny < len(grid)) or grid[ny][nx] is not None:
                continue
            border = [(2 * x + 1 + dx + k * abs(dy), 2 * y + 1 + dy + k * abs(dx)) for k in (-1, 0, 1)]
            if any(lattice[j][i] == "S" for i, j in border):
                out.append((nx, ny))
    return out


def _cells(state: dict, place: str) -> list[tuple[int, int]]:
    tile = state["tiles"].get(place)
    return [tuple(cell) for cell in tile["cells"]] if tile else []


def _to_port(cell: tuple[int, int], westward: bool) -> int:
    x, y = cell
    low, high = NORTHWEST_ROWS if westward else GREENLAND_ROWS
    rows = max(0, low - y, y - high)
    return (x if westward else WIDTH - 1 - x) + rows + 1


def _distance(state: dict, place: str, westward: bool) -> int:
    """Steps from ``place`` (a tile, or a port) to the port the vessel is bound for."""
    if place == ("N" if westward else "G"):
        return 0
    if place in ("N", "G"):
        return CROSSING
    cells = _cells(state, place)
    return min((_to_port(cell, westward) for cell in cells), default=CROSSING)


def _left_to_sail(state: dict, player: dict) -> int:
    ship = player["ship"]
    if ship["returned"] or ship["lost"]:
        return 0
    if player["reached_northwest"]:
        return _distance(state, ship["at"], westward=False)
    return _distance(state, ship["at"], westward=True) + CROSSING


def _score(state: dict, seat: str, move: dict) -> float:
    player = state["players"][seat]
    ship = player["ship"]
    westward = not player["reached_northwest"]
    kind = move["type"]
    turn = state.get("turn") or {}
    if kind == "transfer_crew" and move.get("direction") != "to_ship":
        return AVOID
    if kind == "end_turn":
        return 20.0
    if turn.get("actions"):
        return -10.0
    here = _distance(state, ship["at"], westward)
    if kind == "move_ship" and westward and move["to"] == "G":
        return AVOID
    if kind == "move_ship":
        gain = here - _distance(state, move["to"], westward)
        return 10.0 * gain if gain > 0 else 0.5 if gain == 0 else -2.0
    if kind == "place_tile":
        if move.get("pay_from") != "ship":
            return -2.0
        x, y = move["anchor_x"], move["anchor_y"]
        cells = [(x, y)]
        if move["tile_id"].startswith("L"):
            cells.append((x + 1, y) if move["rotation"] in (0, 180) else (x, y + 1))
        gain = here - min(_to_port(cell, westward) for cell in cells)
        pattern = "".join(_orientations()[move["tile_id"].split("#")[0]][0])
        sea = 3.0 * pattern.count("S") / len(pattern)
        return sea + (8.0 + 3.0 * gain if gain > 0 else 6.0 if gain == 0 else 1.0)
    if kind in ("draw_tile", "draft_pick"):
        if move.get("pay_from", "ship") != "ship":
            return -2.0
        fit = _best_fit(state, move.get("source", "").split("#")[0], _frontier(state, ship["at"], westward),
                        here, westward)
        return -1.0 if fit is None else 5.0 + fit - 0.2 * len(player["hand"])
    if kind == "explore":
        return 4.0 if move.get("pay_from") == "ship" else -2.0
    if kind == "transfer_crew":
        return 1.0
    if kind in ("move_sled", "refresh_and_draw"):
        return -3.0
    if kind == "pass":
        return -4.0
    return 0.0


def rollout(state: dict, seat: str, moves: list[dict], rng: random.Random) -> dict:
    return prefer(moves, lambda move: _score(state, seat, move), rng)


def evaluate(state: dict, seats: list[str]) -> Scores:
    """The sheet the game would score now (its abandonment penalty included), less a little for each cell the
    ship still has to sail and a share of the penalty for a ship that has too far to go in the rounds left."""
    totals = get_rules("northwest-passage").final_score(state)["totals"]
    rounds_left = max(1, 11 - state.get("round", 1))
    points = {}
    for seat in seats:
        player = state["players"][seat]
        left = _left_to_sail(state, player)
        points[seat] = float(totals.get(seat, 0)) - 0.5 * left - ABANDONED * min(1.0, left / (4 * rounds_left))
    return points_reward(points)
