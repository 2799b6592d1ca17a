"""Every command a seat may submit now, each complete (spec 10.2).

The same checks as :mod:`domain.northwest_passage.decide`, run forwards:
placements are searched only around the paying vessel's tile or port
(NWP-ACT-3 b), once per tile type and orientation, which keeps a mid-game
position well under the engine's time budget.
"""
from __future__ import annotations

from domain.northwest_passage.board import Board, orientations
from domain.northwest_passage.catalogue import Catalogue
from domain.northwest_passage.decide import BASE_COST, EXPLORED, draw_sources, hole_options
from domain.northwest_passage.lattice import Cell
from domain.northwest_passage.state import (
    SHIP,
    SLED,
    VESSELS,
    action_cost,
    can_act,
    can_pay,
    small_available,
    tile_type,
)


def legal_moves(state: dict, catalogue: Catalogue, seat: str) -> list[dict]:
    pending = state["pending"]
    if pending is not None:
        if pending["kind"] == "hole_fill":
            x, y = pending["holes"][0]
            return [
                {"type": "fill_hole", "hole_x": x, "hole_y": y, "source": option["source"],
                 "rotation": option["rotation"], "flip": option["flip"]}
                for option in hole_options(state, catalogue, seat, (x, y))
            ]
        return [{"type": "draw_tile", "source": source} for source in draw_sources(state, catalogue)]
    if state["phase"] == "draft":
        return [{"type": "draft_pick", "source": source} for source in draw_sources(state, catalogue)]
    player = state["players"][seat]
    board = Board(state, catalogue)
    moves: list[dict] = []
    payers = {base: [v for v in VESSELS if can_pay(player, v, action_cost(state, base))] for base in (1, 2, 3)}
    for vessel in payers[BASE_COST["draw_tile"]]:
        moves += [{"type": "draw_tile", "source": source, "pay_from": vessel}
                  for source in draw_sources(state, catalogue)]
    smalls = any(small_available(state, catalogue, kind) for kind in catalogue.small)
    if state["stock"] or smalls:
        moves += [{"type": "refresh_and_draw", "pay_from": vessel} for vessel in payers[BASE_COST["refresh_and_draw"]]]
    moves += placements(state, catalogue, board, player, payers[BASE_COST["place_tile"]])
    moves += transfers(state, player)
    if SHIP in payers[1]:
        moves += [{"type": "move_ship", "to": target} for target in board.ship_routes(player[SHIP]["at"])]
    if SLED in payers[1]:
        moves += [{"type": "move_sled", "to": target} for target in board.sled_routes(player[SLED]["at"])]
    for token_id, token in sorted(state["tokens"].items()):
        if token["owner"] is not None:
            continue
        kind = "explore" if token["kind"] in EXPLORED else "discover"
        base = BASE_COST[kind]
        moves += [{"type": kind, "token_id": token_id, "pay_from": vessel}
                  for vessel in payers[base] if player[vessel]["at"] == token["tile"]]
    if state["turn"]["actions"]:
        moves.append({"type": "end_turn"})
    moves.append({"type": "pass"})
    return moves


def placements(state: dict, catalogue: Catalogue, board: Board, player: dict, payers: list[str]) -> list[dict]:
    """NWP-ACT-3: every (tile, anchor, rotation, flip, paying vessel) that is legal now."""
    by_type: dict[str, list[str]] = {}
    for tile in player["hand"]:
        by_type.setdefault(tile_type(catalogue, tile), []).append(tile)
    patterns = catalogue.patterns
    moves = []
    for vessel in payers:
        contact = board.contact_cells(player[vessel]["at"])
        if not contact:
            continue
        for kind, tiles in sorted(by_type.items()):
            for rotation, flip, x, y in _fitting(board, patterns[kind], frozenset(contact)):
                moves += [{"type": "place_tile", "tile_id": tile, "anchor_x": x, "anchor_y": y,
                           "rotation": rotation, "flip": flip, "pay_from": vessel} for tile in tiles]
    return moves


Fitting = tuple[tuple[int, bool, int, int], ...]
_FITTING: dict[tuple, Fitting] = {}
FITTING_KEPT = 4096


def _fitting(board: Board, pattern: tuple[str, ...], contact: frozenset[Cell]) -> Fitting:
    """Every (rotation, flip, anchor) at which ``pattern`` fits against ``contact``, remembered by lattice.

    A search lists the moves of thousands of positions that share a board, and the lattice fixes the board:
    a cell is covered exactly when its centre point is determined, which only its own tile does."""
    key = (tuple(board.rows), pattern, contact)
    found = _FITTING.get(key)
    if found is None:
        found = tuple((rotation, flip, x, y) for rotation, flip, rows in orientations(pattern)
                      for x, y in sorted(board.anchors(rows, contact)) if board.fits(rows, x, y, contact))
        if len(_FITTING) >= FITTING_KEPT:
            _FITTING.clear()
        _FITTING[key] = found
    return found


def transfers(state: dict, player: dict) -> list[dict]:
    """NWP-ACT-5: every split of Available and Resting crew, in each allowed direction."""
    ship, sled = player[SHIP], player[SLED]
    cost = action_cost(state, BASE_COST["transfer_crew"])
    moves = []
    directions = []
    if can_pay(player, SHIP, cost) and not sled["returned"] and not sled["lost"] and sled["at"] in (None, ship["at"]):
        directions.append(("to_sled", ship))
    if can_pay(player, SLED, cost) and can_act(ship) and sled["at"] == ship["at"]:
        directions.append(("to_ship", sled))
    for direction, source in directions:
        available, resting = source["available"] - cost, source["resting"] + cost
        moves += [{"type": "transfer_crew", "direction": direction, "from_available": a, "from_resting": r}
                  for a in range(available + 1) for r in range(resting + 1) if a + r >= 1]
    return moves
