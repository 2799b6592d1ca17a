"""Northwest Passage: lay a sea lane westwards, sail the ship to the Northwest and bring it home to Greenland.

A strong player keeps the whole crew aboard the ship, takes one action a turn (a second costs a crewman more,
NWP-ROUND-3), lays tiles ahead of the ship whose far side is open sea, sails on as soon as a tile is down,
reaches the Northwest early (arrival fame by order, NWP-SCORE-3) and turns for home in time to be back before
round 10 ends (NWP-SCORE-4, and NWP-SCORE-7's penalty for a ship left out). The rollout plays that plan, and
the search is kept to the moves it rates near its best; the evaluation values the plan: the sheet without
the ship's abandonment, plus the arrival and return fame the ship can still expect and less the penalty it
risks, both judged from the actions it needs against the actions left.

Distances are in ship actions, over the sea lanes already laid (one move a tile, NWP-ACT-6) and, beyond their
open ends, about :data:`LAY` actions a cell still to be drawn, laid and sailed. An open end counts only where
some tile could still be laid into it and lead on (the lattice its neighbours fixed, NWP-GEO-4), and only
towards a port's entry cells still free: a lane into a pocket of coast, or towards an entry another tile has
walled, is no way to the port however near it looks.
"""
from __future__ import annotations

import heapq
import math
import random
from functools import cache

from bots.games import AVOID, Scores, prefer
from bots.outcome import points_reward
from domain.northwest_passage.board import Board
from domain.northwest_passage.catalogue import Catalogue
from domain.northwest_passage.lattice import (
    SEA,
    UNDETERMINED,
    Lattice,
    Point,
    agrees,
    east_edge,
    edge_points,
    footprint,
    orient,
    placed_points,
    west_edge,
)
from domain.northwest_passage.rules import NorthwestPassage
from domain.northwest_passage.scoring import NEVER_LEFT_BEFORE_THE_OPTION, score_sheet
from domain.northwest_passage.state import GREENLAND, NORTHWEST, SHIP
from domain.registry import get_rules

Cell = tuple[int, int]
# Actions a cell of lane still costs: a draw, a placement and a move for a small tile, half of those a cell
# for a large one (NWP-ACT-1, NWP-ACT-3, NWP-ACT-6).
LAY = 2.5
# How many actions of slack make an arrival likely: the sun freezes lanes (NWP-COMP-8), a round may end early.
SLACK = 3.0
# Fame an action is worth while nothing else separates two plans: sooner is better.
TEMPO = 0.1
# Actions a ship is likely to lose to each round, of this one and the next ICE_AHEAD - 1, in which a cell it
# would sail through is frozen (NWP-COMP-8, NWP-ACT-6: a ship neither enters nor leaves a frozen tile). With
# the sun track's rows 0-1 frozen in 7 rounds of 10, rows 2-3 in 4 and rows 4-5 in 1, a lane through the
# south stays open, and the Greenland entries (11, 4) and (11, 5) are open in round 10 where (11, 3) is not.
ICE = 2.0
ICE_AHEAD = 3
# The most a draw is credited for the actions its tile would save: more is luck of the tile being laid well.
DRAWN_GAIN = 4.0
# How far below the best-rated move a move may be rated and still be searched.
WINDOW = 6.0
# Actions a point of land on an open end's border is likely to cost.
COAST = 1.5
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
UNREACHABLE = 99.0


@cache
def _catalogue() -> Catalogue:
    """The component data the engine plays with (board, sun track, tiles, tables)."""
    rules = get_rules("northwest-passage")
    assert isinstance(rules, NorthwestPassage)
    return rules.catalogue


@cache
def _oriented(kind: str, rotation: int, flip: bool) -> tuple[str, ...]:
    return orient(_catalogue().patterns[kind], rotation, flip)


@cache
def _orientations(kind: str) -> tuple[tuple[str, ...], ...]:
    """The distinct oriented patterns of a tile type (NWP-COMP-13: turned and mirrored)."""
    seen: list[tuple[str, ...]] = []
    for rotation in (0, 90, 180, 270):
        for flip in (False, True):
            rows = _oriented(kind, rotation, flip)
            if rows not in seen:
                seen.append(rows)
    return tuple(seen)


@cache
def _shapes() -> tuple[tuple[str, ...], ...]:
    """Every distinct oriented pattern of every tile type, small tiles first (the likelier to fit a cell)."""
    catalogue = _catalogue()
    kinds = [*catalogue.small, *(kind for kind in catalogue.patterns if kind not in catalogue.small)]
    seen: dict[tuple[str, ...], None] = {}
    for kind in kinds:
        seen.update(dict.fromkeys(_orientations(kind)))
    return tuple(seen)


def _port_entries(port: str) -> tuple[Cell, ...]:
    catalogue = _catalogue()
    return catalogue.greenland_entry if port == GREENLAND else catalogue.northwest_entry


def _port_edge(port: str, cell: Cell) -> tuple[tuple[int, int], ...]:
    """NWP-GEO-7: the lattice points across which an entry cell touches its port."""
    return east_edge(cell) if port == GREENLAND else west_edge(cell)


@cache
def _ice(cell: Cell, round_: int) -> float:
    """What ice is likely to cost a ship sailing through ``cell`` from round ``round_`` on (:data:`ICE`)."""
    catalogue = _catalogue()
    rounds = catalogue.tables["rounds"]
    track = catalogue.frozen_cells
    return ICE * sum(cell in track[(later - 1) % len(track)]
                     for later in range(max(1, round_), min(rounds, round_ + ICE_AHEAD - 1) + 1))


def _port_beyond(cell: Cell, step: tuple[int, int]) -> str | None:
    """The port across the board's edge from ``cell`` in direction ``step``, if ``cell`` is its entry."""
    if step == (1, 0) and cell in _catalogue().greenland_entry:
        return GREENLAND
    if step == (-1, 0) and cell in _catalogue().northwest_entry:
        return NORTHWEST
    return None


def _free(lattice: list[str], cell: Cell) -> bool:
    """An empty cell of the board: a cell's centre point is fixed by its own tile alone."""
    x, y = cell
    catalogue = _catalogue()
    return 0 <= x < catalogue.width and 0 <= y < catalogue.height and lattice[2 * y + 1][2 * x + 1] == UNDETERMINED


_LEADS: dict[tuple, bool] = {}
LEADS_KEPT = 65536


def _leads_on(lattice: list[str], cell: Cell, entry: tuple[Point, ...], behind: frozenset[Cell]) -> bool:
    """Whether some tile (NWP-COMP-13: any type, turned and mirrored) can be laid over the empty ``cell``
    with sea on its ``entry`` border and on another side a ship can sail on from: into a cell of the board
    other than those ``behind`` (where the lane comes from), or into the port it is an entry of.

    Remembered by what it reads: the lattice two cells around ``cell`` and the cells behind there, which
    recur from board to board as the lanes grow."""
    x, y = cell
    window = tuple(line[max(0, 2 * x - 4):2 * x + 7] for line in lattice[max(0, 2 * y - 4):2 * y + 7])
    near = frozenset(other for other in behind if abs(other[0] - x) <= 2 and abs(other[1] - y) <= 2)
    key = (cell, entry, near, window)
    found = _LEADS.get(key)
    if found is None:
        found = any(_lays_on(lattice, rows, cell, entry, near) for rows in _shapes())
        if len(_LEADS) >= LEADS_KEPT:
            _LEADS.clear()
        _LEADS[key] = found
    return found


def _lays_on(lattice: list[str], rows: tuple[str, ...], cell: Cell, entry: tuple[Point, ...],
             behind: frozenset[Cell]) -> bool:
    width, height = len(rows[0]) // 2, len(rows) // 2
    for dx in range(width):
        for dy in range(height):
            x, y = cell[0] - dx, cell[1] - dy
            cells = footprint(rows, x, y)
            if all(_free(lattice, each) for each in cells) and agrees(lattice, rows, x, y) \
                    and _sea_on(rows, x, y, entry) and _sails_on(lattice, rows, x, y, cells, entry, behind):
                return True
    return False


def _sea_on(rows: tuple[str, ...], x: int, y: int, points: tuple[Point, ...]) -> bool:
    return any(rows[j - 2 * y][i - 2 * x] == SEA for i, j in points)


def _sails_on(lattice: list[str], rows: tuple[str, ...], x: int, y: int, cells: tuple[Cell, ...],
              entry: tuple[Point, ...], behind: frozenset[Cell]) -> bool:
    """Whether a tile laid as ``rows`` at (x, y) has sea on a side other than its entry, towards an empty cell
    of the board not ``behind`` it or into the port beyond an entry cell. Sea towards a tile already laid
    does not count: the lane would only join the lanes laid, and the distance of an open end is that of the
    lane still to lay from it."""
    for cell in cells:
        for step in STEPS:
            near = (cell[0] + step[0], cell[1] + step[1])
            if near in cells or near in behind:
                continue
            port = _port_beyond(cell, step)
            if port is not None:
                border = _port_edge(port, cell)
            elif _free(lattice, near):
                border = edge_points(cell, near)
            else:
                continue
            if border != entry and _sea_on(rows, x, y, border):
                return True
    return False


class Chart:
    """The sea lanes of one board in one round: which tiles and ports a ship can sail between, and each
    position's distance in actions to a port, the ice it is likely to wait out included. It reads only the
    laid tiles and the round, so one chart serves every position with both alike (see :func:`chart_of`)."""

    def __init__(self, state: dict):
        # A snapshot: the engine lays tiles into the state's grid in place.
        self.state = {"tiles": dict(state["tiles"]), "cells": [list(row) for row in state["cells"]],
                      "lattice": state["lattice"], "sun": state["sun"]}
        self.round = state.get("round", 1)
        self.board = Board(self.state, _catalogue())
        self.lattice = state["lattice"]
        self._lanes: dict[str, list[str]] | None = None
        self._ends: dict[str, dict[str, list[tuple[float, Cell]]]] = {}
        self._end_cells: dict[str, frozenset[Cell]] = {}
        self._distances: dict[tuple[str, frozenset[Cell]], dict[str, float]] = {}
        self._live: dict[tuple[Cell, tuple[Point, ...]], bool] = {}
        self._draws: dict[tuple[str, str, str], float | None] = {}
        self._placements: dict[tuple[tuple[str, ...], int, int, str, str], float | None] = {}

    def lanes(self) -> dict[str, list[str]]:
        """NWP-GEO-6: the positions next to each position across a border with sea."""
        if self._lanes is None:
            lanes: dict[str, list[str]] = {}
            for position in [*self.state["tiles"], GREENLAND, NORTHWEST]:
                lanes[position] = [target for target, border in self.board.borders(position).items()
                                   if any(self.lattice[j][i] == SEA for i, j in border)]
            self._lanes = lanes
        return self._lanes

    def ice(self, position: str) -> float:
        """What ice is likely to cost a ship sailing through a tile: a tile is frozen if any cell is (NWP-GEO-9);
        ports never freeze."""
        if position in (GREENLAND, NORTHWEST):
            return 0.0
        return max(_ice(cell, self.round) for cell in self.board.tile_cells(position))

    def cells_to(self, cell: Cell, port: str) -> float:
        """Cells of lane from ``cell`` to the port, both ends included, through an entry cell still free (one
        a tile covers is reached over the lanes laid, or not at all)."""
        free = [entry for entry in _port_entries(port) if self.board.tile_at(entry) is None]
        if not free:
            return UNREACHABLE
        x, y = cell
        return 1 + min(abs(x - ex) + abs(y - ey) for ex, ey in free)

    def open_end(self, cell: Cell, port: str, land: int) -> float:
        """Actions from a tile with sea towards the empty ``cell`` to the port: lay the lane from there, enter.
        Each of the ``land`` points on that border is coast the next tile has to match (NWP-GEO-4): coasts run
        on into walls a lane must go round, while a border of open sea takes any tile with sea there."""
        return min(UNREACHABLE, LAY * self.cells_to(cell, port) + 1 + COAST * land + _ice(cell, self.round))

    def live(self, cell: Cell, entry: tuple[Point, ...], behind: frozenset[Cell]) -> bool:
        """:func:`_leads_on` on this board, remembered: every position's open ends ask it again."""
        key = (cell, entry)
        if key not in self._live:
            self._live[key] = _leads_on(self.lattice, cell, entry, behind)
        return self._live[key]

    def open_ends(self, position: str, port: str) -> list[tuple[float, Cell]]:
        """Every way on to ``port`` from ``position`` by laying lane into an empty cell beside it with sea on
        the shared border (or into a free entry cell, from a port) that a tile can lead on from: its cost, and
        the cell."""
        if position in (GREENLAND, NORTHWEST):
            return [(self.open_end(cell, port, 0), cell) for cell in _port_entries(position)
                    if self.board.tile_at(cell) is None and self.live(cell, _port_edge(position, cell), frozenset())]
        ends = []
        mine = frozenset(self.board.tile_cells(position))
        for x, y in mine:
            for dx, dy in STEPS:
                near = (x + dx, y + dy)
                if not self.board.on_board(near) or self.board.tile_at(near) is not None:
                    continue
                border = edge_points((x, y), near)
                values = [self.lattice[j][i] for i, j in border]
                if SEA in values and self.live(near, border, mine):
                    ends.append((self.open_end(near, port, 3 - values.count(SEA)), near))
        return ends

    def distances(self, port: str, closed: frozenset[Cell] = frozenset()) -> dict[str, float]:
        """Actions from every position to ``port``: moves along the lanes, then the cheapest open end, leaving
        out the open ends into the ``closed`` cells (those a tile about to be laid would cover)."""
        if port not in self._ends:
            self._ends[port] = {position: self.open_ends(position, port) for position in self.lanes()}
            self._end_cells[port] = frozenset(cell for ends in self._ends[port].values() for _, cell in ends)
        # Only the cells some open end runs into change anything: the other closings share one answer.
        key = (port, closed & self._end_cells[port])
        if key not in self._distances:
            lanes = self.lanes()
            best = {position: min((value for value, cell in ends if cell not in key[1]), default=UNREACHABLE)
                    for position, ends in self._ends[port].items()}
            best[port] = 0.0
            heap = [(value, position) for position, value in best.items() if value < UNREACHABLE]
            heapq.heapify(heap)
            while heap:
                value, position = heapq.heappop(heap)
                if value > best[position]:
                    continue
                # The ship sails from ``target`` into ``position``: a move, and the ice it may wait out there.
                onwards = value + 1 + self.ice(position)
                for target in lanes[position]:
                    if onwards < best[target]:
                        best[target] = onwards
                        heapq.heappush(heap, (onwards, target))
            self._distances[key] = best
        return self._distances[key]

    def best_draw(self, kind: str, here: str, port: str) -> float | None:
        """How many actions nearer ``port`` the best placement of a tile of ``kind`` next to the ship at
        ``here`` would bring it, or None when no placement lets it sail on."""
        key = (kind, here, port)
        if key not in self._draws:
            board = self.board
            contact = board.contact_cells(here)
            if here not in (GREENLAND, NORTHWEST):
                # Only cells the ship can sail into: those its tile borders with sea.
                mine = self.board.tile_cells(here)
                contact = {cell for cell in contact if any(
                    self.lattice[j][i] == SEA for near in mine if abs(near[0] - cell[0]) + abs(near[1] - cell[1]) == 1
                    for i, j in edge_points(near, cell))}
            here_distance = self.distances(port).get(here, UNREACHABLE)
            best = None
            for rows in _orientations(kind):
                for x, y in board.anchors(rows, contact):
                    if board.fits(rows, x, y, contact):
                        after = self.placement(rows, x, y, here, port)
                        if after is not None and (best is None or here_distance - after > best):
                            best = here_distance - after
            self._draws[key] = best
        return self._draws[key]

    def placement(self, rows: tuple[str, ...], x: int, y: int, here: str, port: str) -> float | None:
        """The distance to ``port`` of a ship that sails from ``here`` onto a tile laid as ``rows`` at (x, y),
        or None when the ship could not sail onto it (no sea on the border it shares with ``here``)."""
        key = (rows, x, y, here, port)
        if key not in self._placements:
            self._placements[key] = self._placement(rows, x, y, here, port)
        return self._placements[key]

    def _placement(self, rows: tuple[str, ...], x: int, y: int, here: str, port: str) -> float | None:
        """The way on from the new tile: through its own open ends, on the lattice it fixes, or over a tile
        beside it by a way that does not run through the cells the new tile covers (a tile can close the open
        end that made its neighbour's way look short)."""
        cells = footprint(rows, x, y)
        own = set(cells)

        def seas(points: tuple[tuple[int, int], ...]) -> int:
            return sum(rows[j - 2 * y][i - 2 * x] == SEA for i, j in points)

        def sea(points: tuple[tuple[int, int], ...]) -> bool:
            return _sea_on(rows, x, y, points)

        board = self.board
        if here in (GREENLAND, NORTHWEST):
            entries = set(_port_entries(here))
            entered = any(cell in entries and sea(_port_edge(here, cell)) for cell in cells)
        else:
            mine = {tuple(cell) for cell in self.state["tiles"][here]["cells"]}
            entered = any(sea(edge_points(cell, (cell[0] + dx, cell[1] + dy))) for cell in cells
                          for dx, dy in STEPS if (cell[0] + dx, cell[1] + dy) in mine)
        if not entered:
            return None
        behind = frozenset(own)
        distances = self.distances(port, behind)
        best = UNREACHABLE
        goal = set(_port_entries(port))
        lattice = self._laid(rows, x, y)
        for cell in cells:
            if cell in goal and sea(_port_edge(port, cell)):
                best = min(best, 1.0)
            for dx, dy in STEPS:
                near = (cell[0] + dx, cell[1] + dy)
                border = edge_points(cell, near)
                if near in own or not board.on_board(near) or not sea(border):
                    continue
                tile = board.tile_at(near)
                if tile is None:
                    cost = self.open_end(near, port, 3 - seas(border))
                    if cost < best and _leads_on(lattice, near, border, behind):
                        best = cost
                elif tile != here:
                    best = min(best, 1 + self.ice(tile) + distances.get(tile, UNREACHABLE))
        return 1 + best + max(_ice(cell, self.round) for cell in cells)

    def _laid(self, rows: tuple[str, ...], x: int, y: int) -> list[str]:
        """The lattice with a tile laid as ``rows`` at (x, y)."""
        catalogue = _catalogue()
        lattice = Lattice(catalogue.width, catalogue.height, self.lattice)
        lattice.mark(placed_points(rows, x, y))
        return lattice.to_rows()


_CHARTS: dict[tuple[int, str, tuple[tuple[str, int, int], ...]], Chart] = {}
CHARTS_KEPT = 512


def chart_of(state: dict) -> Chart:
    """The chart of the state's board in its round, shared by every position with the same tiles laid: a
    playout lays a tile only now and then, and every iteration of a search starts from the same board."""
    # Tile ids alone do not fix the board: small tiles are numbered as drawn, not as laid.
    key = (state.get("round", 1), "".join(state["lattice"]),
           tuple((tile, *laid["anchor"]) for tile, laid in state["tiles"].items()))
    found = _CHARTS.get(key)
    if found is None:
        if len(_CHARTS) >= CHARTS_KEPT:
            _CHARTS.clear()
        found = _CHARTS[key] = Chart(state)
    return found


def _actions_left(state: dict, seat: str) -> int:
    """The ship's actions still to come at one crewman each (one action a turn): its Available crew this round,
    unless the seat has passed, and its whole crew every round after (NWP-ROUND-10: crew stand up again)."""
    ship = state["players"][seat][SHIP]
    now = 0 if seat in state.get("passed", ()) else ship["available"]
    rounds = _catalogue().tables["rounds"]
    return now + (ship["available"] + ship["resting"]) * max(0, rounds - state.get("round", 1))


def _chance(margin: float) -> float:
    """How likely a ship with ``margin`` actions to spare makes it."""
    return 1.0 / (1.0 + math.exp(-margin / SLACK))


def _rank_fame(table: list[int], rank: float) -> float:
    """Fame at a fractional arrival rank (1 = first), read between the table's places."""
    low = int(rank)
    share = rank - low
    fame = [0, *table, 0]
    return (1 - share) * fame[min(low, len(fame) - 1)] + share * fame[min(low + 1, len(fame) - 1)]


def _goal(state: dict, seat: str, chart: Chart) -> str | None:
    """Where the seat's ship should sail: the Northwest until reached (while there is time to come home
    afterwards), then Greenland; None for a ship that is home, or should stay there."""
    player = state["players"][seat]
    ship = player[SHIP]
    if ship["returned"] or ship["lost"]:
        return None
    if player["reached_northwest"]:
        return GREENLAND
    left = _actions_left(state, seat)
    if left < 30:
        there = chart.distances(NORTHWEST).get(ship["at"], UNREACHABLE)
        back = chart.distances(GREENLAND).get(ship["at"], UNREACHABLE) + 0.5 * there
        if there + back > left + SLACK:
            return None if ship["at"] == GREENLAND else GREENLAND
    return NORTHWEST


def _score(state: dict, seat: str, move: dict, chart: Chart, goal: str | None) -> float:
    """How well ``move`` serves the plan (higher is better; :data:`AVOID` for moves that ruin it)."""
    player = state["players"][seat]
    ship = player[SHIP]
    kind = move["type"]
    turn = state.get("turn") or {}
    if kind == "transfer_crew":
        # The sled would split the crew and be left out on the ice (NWP-SCORE-7).
        return 1.0 if move.get("direction") == "to_ship" else AVOID
    if kind == "end_turn":
        return 20.0
    if turn.get("actions"):
        # A second action costs a crewman more (NWP-ROUND-3) than waiting a turn for it; only an arrival a rival
        # could take first (NWP-SCORE-3, NWP-SCORE-4) is worth it.
        arrivals = state["northwest_arrivals"] if goal == NORTHWEST else state["greenland_arrivals"]
        racing = any(other not in arrivals for other in state["seats"] if other != seat)
        return 25.0 if kind == "move_ship" and move["to"] == goal and racing else AVOID
    if kind == "move_ship":
        if goal is None:
            return AVOID
        distances = chart.distances(goal)
        gain = distances.get(ship["at"], UNREACHABLE) - distances.get(move["to"], UNREACHABLE)
        if move["to"] == GREENLAND and goal != GREENLAND:
            return AVOID
        return 10.0 + 3.0 * gain if gain > 0 else -1.0 if gain == 0 else -3.0
    if kind == "place_tile":
        if goal is None or move.get("pay_from") != SHIP:
            return -2.0
        rows = _oriented(_tile_type(move["tile_id"]), move["rotation"], move["flip"])
        after = chart.placement(rows, move["anchor_x"], move["anchor_y"], ship["at"], goal)
        if after is None:
            # A tile the ship cannot sail onto walls off the lane it lies on (or one of the port's three entry
            # cells) for nothing: not even a playout's exploring move should lay it.
            return AVOID
        now = chart.distances(goal).get(ship["at"], UNREACHABLE)
        gain = now - after
        if gain > 0:
            return 8.0 + 2.0 * gain
        cells = frozenset(footprint(rows, move["anchor_x"], move["anchor_y"]))
        walled = chart.distances(goal, cells).get(ship["at"], UNREACHABLE) - now
        # A tile laid over the open end the ship's way runs through, leading nowhere nearer itself, walls the
        # lane in: the ship's way grows by what the next best way costs more.
        return 2.0 + 0.1 * gain if walled <= 0 else -3.0 - walled
    if kind in ("draw_tile", "draft_pick"):
        if move.get("pay_from", SHIP) != SHIP:
            return -2.0
        if goal is None and kind == "draw_tile":
            return -1.0
        drawn = chart.best_draw(_tile_type(move["source"]), ship["at"], goal or NORTHWEST)
        return -1.0 if drawn is None else 5.0 + min(drawn, DRAWN_GAIN) - 0.3 * len(player["hand"])
    if kind in ("explore", "discover"):
        if move.get("pay_from") != SHIP:
            return -2.0
        # NWP-ACT-8, NWP-ACT-9: zone multiplier x 1 for 3 crew, x 2 for 2; rated by fame a crewman.
        token = state["tokens"][move["token_id"]]
        fame, crew = (1, 3) if kind == "explore" else (2, 2)
        return 6.0 + 2.0 * _catalogue().zone(tuple(token["cell"])) * fame / crew
    if kind in ("move_sled", "refresh_and_draw"):
        return -3.0
    if kind == "pass":
        return -4.0
    return 0.0


def _tile_type(tile_id: str) -> str:
    large = _catalogue().large.get(tile_id)
    return large.type if large is not None else tile_id.split("#")[0]


def _rated(state: dict, seat: str, moves: list[dict], draws: bool) -> list[float]:
    """:func:`_score` of each move. Draws are rated (the costliest part: every placement the drawn tile could
    have) only when ``draws`` is set or no other move already beats the best a draw can be rated."""
    lanes = chart_of(state)
    goal = _goal(state, seat, lanes) if state.get("phase") == "play" else NORTHWEST
    scores = [None if move["type"] in ("draw_tile", "draft_pick") else _score(state, seat, move, lanes, goal)
              for move in moves]
    ceiling = 5.0 + DRAWN_GAIN
    if draws or max((score for score in scores if score is not None), default=AVOID) < ceiling:
        scores = [_score(state, seat, move, lanes, goal) if score is None else score
                  for move, score in zip(moves, scores, strict=True)]
    return [ceiling - 10.0 if score is None else score for score in scores]


def rollout(state: dict, seat: str, moves: list[dict], rng: random.Random) -> dict:
    rated = {id(move): score for move, score in zip(moves, _rated(state, seat, moves, False), strict=True)}
    return prefer(moves, lambda move: rated[id(move)], rng)


def prune(state: dict, seat: str, moves: list[dict]) -> list[dict]:
    """The moves rated within :data:`WINDOW` of the best: a handful of iterations is better spent telling good
    plans apart than on a tile laid nowhere, a crewman spent on a second action or a round passed away."""
    scores = _rated(state, seat, moves, True)
    best = max(scores)
    kept = [move for move, score in zip(moves, scores, strict=True) if score > AVOID and score >= best - WINDOW]
    return kept or moves


def _plan(state: dict, seat: str, chart: Chart, needs: dict[str, tuple[float, float]]) -> float:
    """The fame the ship's plan can still expect, less the abandonment it risks (NWP-SCORE-3, NWP-SCORE-4,
    NWP-SCORE-7)."""
    player = state["players"][seat]
    ship = player[SHIP]
    if ship["returned"]:
        return 0.0
    tables = _catalogue().tables
    risk = _risk(ship)
    if ship["lost"]:
        return -risk
    left = _actions_left(state, seat)
    there, home = needs[seat]
    arrival = tables["arrival"][str(len(state["seats"]))]
    rivals = [other for other in state["seats"] if other != seat]

    def expected(table: list[int], done: list[str], index: int, mine: float) -> float:
        rank = 1.0 + len(done) + sum(1.0 - _chance(needs[other][index] - mine) for other in rivals
                                     if other not in done and needs[other][index] < UNREACHABLE)
        return _rank_fame(table, rank)

    comes_home = _chance(left - home)
    greenland = expected(arrival["greenland"], state["greenland_arrivals"], 1, home)
    if player["reached_northwest"]:
        return comes_home * greenland - (1 - comes_home) * risk - TEMPO * home
    northwest = expected(arrival["northwest"], state["northwest_arrivals"], 0, there)
    full = (_chance(left - there) * northwest + comes_home * greenland - (1 - comes_home) * risk
            - TEMPO * home)
    if ship["at"] == GREENLAND:
        # Still in Greenland, so it never left (entering it again is a return): staying is the other plan.
        return max(full, -risk if _stay_is_abandoned(state) else 0.0)
    back = chart.distances(GREENLAND).get(ship["at"], UNREACHABLE)
    return max(full, -(1 - _chance(left - back)) * risk - TEMPO * back)


def _risk(ship: dict) -> float:
    """NWP-SCORE-7: what the ship and its crew cost if it is not back in Greenland at the end."""
    tables = _catalogue().tables
    return -float(tables["abandon_per_crew"] * (ship["available"] + ship["resting"]) + tables["abandon_per_vessel"])


def _stay_is_abandoned(state: dict) -> bool:
    """Whether a ship that never left Greenland is scored as abandoned (the never_left_greenland option)."""
    return state["options"].get("never_left_greenland", NEVER_LEFT_BEFORE_THE_OPTION) == "abandoned"


def _needs(state: dict, seat: str, chart: Chart) -> tuple[float, float]:
    """Actions the seat's ship needs to reach the Northwest, and to be back in Greenland after it."""
    player = state["players"][seat]
    ship = player[SHIP]
    if ship["returned"] or ship["lost"]:
        return UNREACHABLE, UNREACHABLE
    back = chart.distances(GREENLAND).get(ship["at"], UNREACHABLE)
    if player["reached_northwest"]:
        return 0.0, back
    there = chart.distances(NORTHWEST).get(ship["at"], UNREACHABLE)
    # The way home retraces the lane still to lay, sailing it without laying it.
    return there, there + back + there / LAY


def evaluate(state: dict, seats: list[str]) -> Scores:
    """The sheet the game would score now without the ship's abandonment (NWP-END-5), plus what the ship's
    plan can still expect (:func:`_plan`)."""
    totals = score_sheet(state, _catalogue())["totals"]
    lanes = chart_of(state)
    needs = {seat: _needs(state, seat, lanes) for seat in state["seats"]}
    points = {}
    for seat in seats:
        ship = state["players"][seat][SHIP]
        charged = not ship["returned"] and not (ship["at"] == GREENLAND and not _stay_is_abandoned(state))
        points[seat] = float(totals.get(seat, 0)) + (_risk(ship) if charged else 0.0) + _plan(state, seat, lanes, needs)
    return points_reward(points)


