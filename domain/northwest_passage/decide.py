"""Commands in, events out (spec 10.2).

A :class:`Turn` works on a copy of the state and folds each event into it as
soon as it is emitted, so every later check in the same command (holes after
a placement, islands after the holes, automatic passes, the end of the
round) sees the board as it now is.
"""
from __future__ import annotations

from domain.core.errors import IllegalMove
from domain.core.events import Event, make_event
from domain.northwest_passage.apply import apply
from domain.northwest_passage.board import Board
from domain.northwest_passage.catalogue import Catalogue
from domain.northwest_passage.lattice import LAND, Lattice, footprint, orient
from domain.northwest_passage.state import (
    GREENLAND,
    NORTHWEST,
    SHIP,
    SLED,
    VESSELS,
    action_cost,
    all_explorers_home,
    can_act,
    crew_aboard,
    next_small_id,
    small_available,
    tile_type,
    usable_crew,
)

EXPLORED = ("wreck", "strait")
DISCOVERED = ("inuit", "cairn")
BASE_COST = {
    "draw_tile": 1, "refresh_and_draw": 2, "place_tile": 1, "transfer_crew": 1,
    "move_ship": 1, "move_sled": 1, "explore": 3, "discover": 2,
}


def hole_options(state: dict, catalogue: Catalogue, seat: str, hole: tuple[int, int]) -> list[dict]:
    """NWP-ACT-4: matching small tiles for a hole, from the hand first, else from the supply.

    With the option ``hole_fill_source`` = ``supply_only`` the hand is never
    used, as on Board Game Arena (A8).
    """
    board = Board(state, catalogue)
    if state["options"]["hole_fill_source"] == "hand_first":
        in_hand = [
            {"source": tile, "from": "hand", "type": tile_type(catalogue, tile), "rotation": rotation, "flip": flip,
             "rows": rows}
            for tile in sorted(state["players"][seat]["hand"]) if tile_type(catalogue, tile) in catalogue.small
            for rotation, flip, rows in board.small_fits(tile_type(catalogue, tile), hole)
        ]
        if in_hand:
            return in_hand
    return [
        {"source": kind, "from": "supply", "type": kind, "rotation": rotation, "flip": flip, "rows": rows}
        for kind in sorted(catalogue.small) if small_available(state, catalogue, kind)
        for rotation, flip, rows in board.small_fits(kind, hole)
    ]


def draw_sources(state: dict, catalogue: Catalogue) -> list[str]:
    """NWP-ACT-1: any display tile, or any small type the supply still has."""
    return [*state["display"], *(kind for kind in sorted(catalogue.small) if small_available(state, catalogue, kind))]


def island_fame(catalogue: Catalogue, size: int) -> int:
    """NWP-ACT-3 / NWP-SCORE-2: fame by island size in tiles (A13), from the data table."""
    fame = 0
    for row in catalogue.tables["island_fame"]:
        if size >= row["min_size"]:
            fame = row["fame"]
    return fame


def arrival_fame(catalogue: Catalogue, state: dict, where: str, rank: int) -> int:
    """NWP-SCORE-3/4: fame by arrival rank for this player count; ranks beyond the table pay nothing."""
    table = catalogue.tables["arrival"][str(len(state["seats"]))][where]
    return table[rank - 1] if rank <= len(table) else 0


class Turn:
    def __init__(self, state: dict, catalogue: Catalogue, seat: str, copy):
        self.state = copy(state)
        self.catalogue = catalogue
        self.seat = seat
        self.events: list[Event] = []

    @property
    def player(self) -> dict:
        return self.state["players"][self.seat]

    def board(self) -> Board:
        return Board(self.state, self.catalogue)

    def emit(self, type_: str, data: dict, seat: str | None = None) -> None:
        event = make_event(type_, data, seat=seat or self.seat)
        apply(self.state, event, self.catalogue)
        self.events.append(event)

    def run(self, command: dict) -> list[Event]:
        state = self.state
        kind = command["type"]
        pending = state["pending"]
        if pending is not None and pending["kind"] == "hole_fill":
            if kind != "fill_hole":
                raise IllegalMove("hole_fill_pending", "first choose the small tile for the hole (NWP-ACT-4)",
                                  rule_id="NWP-CMD-5", field="type")
            self.fill_hole(command)
        elif pending is not None:
            if kind != "draw_tile":
                raise IllegalMove("draw_pending", "refresh and draw: now draw from the new display (NWP-ACT-2)",
                                  rule_id="NWP-ACT-2", field="type")
            self.draw_after_refresh(command)
        elif state["phase"] == "draft":
            if kind != "draft_pick":
                raise IllegalMove("draft_pending", "the opening draft comes first", rule_id="NWP-SETUP-9", field="type")
            self.draft_pick(command)
        elif kind in ("fill_hole", "draft_pick"):
            rule = "NWP-CMD-5" if kind == "fill_hole" else "NWP-CMD-1"
            raise IllegalMove("not_now", f"{kind} is not expected now", rule_id=rule, field="type")
        else:
            getattr(self, "pass_" if kind == "pass" else kind)(command)
        return self.events

    def source(self, command: dict) -> str:
        source = command["source"]
        if source not in draw_sources(self.state, self.catalogue):
            raise IllegalMove("not_drawable", f"{source} is neither in the display nor a small tile type in supply",
                              rule_id="NWP-ACT-1", field="source")
        return source

    def drawn_tile(self, source: str) -> str:
        return next_small_id(self.state, source) if source in self.catalogue.small else source

    def draft_pick(self, command: dict) -> None:
        """NWP-SETUP-9 / NWP-CMD-1: one free tile, large from the display or small, in reverse turn order."""
        source = self.source(command)
        self.emit("tile_drafted", {"source": source, "tile": self.drawn_tile(source)})

    def pay(self, command: dict, base: int, vessel: str | None = None) -> tuple[str, int]:
        """NWP-ROUND-3/4: the cost with its surcharge, all from one vessel's Available row."""
        if vessel is None:
            if "pay_from" not in command:
                raise IllegalMove("missing_field", "'pay_from' is required: the vessel whose crew pay",
                                  rule_id="NWP-ROUND-3", field="pay_from")
            vessel = command["pay_from"]
        cost = action_cost(self.state, base)
        if not can_act(self.player[vessel]):
            raise IllegalMove("vessel_cannot_act", f"your {vessel} cannot act: off the board, lost or back home",
                              rule_id="NWP-ROUND-5", field="pay_from")
        if self.player[vessel]["available"] < cost:
            raise IllegalMove("not_enough_crew",
                              f"this action costs {cost} crew from the {vessel} alone (NWP-ROUND-3), "
                              f"which has {self.player[vessel]['available']} available", rule_id="NWP-ROUND-4",
                              field="pay_from")
        return vessel, cost

    def draw_tile(self, command: dict) -> None:
        """NWP-CMD-2 / NWP-ACT-1."""
        source = self.source(command)
        vessel, cost = self.pay(command, BASE_COST["draw_tile"])
        self.emit("tile_drawn", {"source": source, "tile": self.drawn_tile(source), "pay_from": vessel, "cost": cost})
        self.finish_action()

    def draw_after_refresh(self, command: dict) -> None:
        """NWP-CMD-3 / spec 10.3 (a): the draw that completes a refresh, at no further cost."""
        if "pay_from" in command:
            raise IllegalMove("already_paid", "the refresh already paid for this draw", rule_id="NWP-ACT-2",
                              field="pay_from")
        source = self.source(command)
        self.emit("tile_drawn", {"source": source, "tile": self.drawn_tile(source), "pay_from": None, "cost": 0})
        self.finish_action()

    def refresh_and_draw(self, command: dict) -> None:
        """NWP-CMD-3 / NWP-ACT-2: four new display tiles, then a draw; legal only if a draw can follow."""
        vessel, cost = self.pay(command, BASE_COST["refresh_and_draw"])
        smalls = [kind for kind in self.catalogue.small if small_available(self.state, self.catalogue, kind)]
        if not self.state["stock"] and not smalls:
            raise IllegalMove("nothing_to_draw", "the stock is empty and no small tile is left to draw",
                              rule_id="NWP-ACT-2")
        self.emit("display_refreshed", {"pay_from": vessel, "cost": cost})

    def place_tile(self, command: dict) -> None:
        """NWP-CMD-4 / NWP-ACT-3: grid, adjacency to the paying vessel, land and sea matching."""
        tile = command["tile_id"]
        if tile not in self.player["hand"]:
            raise IllegalMove("not_in_reserve", f"{tile} is not in your reserve", rule_id="NWP-CMD-4", field="tile_id")
        x = command["anchor_x"]
        y = command["anchor_y"]
        rotation = command["rotation"]
        flip = command["flip"]
        vessel, cost = self.pay(command, BASE_COST["place_tile"])
        kind = tile_type(self.catalogue, tile)
        rows = orient(self.catalogue.patterns[kind], rotation, flip)
        cells = footprint(rows, x, y)
        board = self.board()
        if not board.free(cells):
            raise IllegalMove("cells_not_free", "a tile lies on empty cells of the board's grid",
                              rule_id="NWP-COMP-1", field="anchor_x")
        if not any(cell in board.contact_cells(self.player[vessel]["at"]) for cell in cells):
            raise IllegalMove("not_adjacent", f"the tile must share a side with the {vessel}'s tile or port",
                              rule_id="NWP-GEO-5", field="anchor_x")
        if not board.matches(rows, x, y):
            raise IllegalMove("land_sea_mismatch", "land and sea must agree with every neighbour, diagonals too",
                              rule_id="NWP-GEO-4", field="rotation")
        self.emit("tile_placed", {"tile": tile, "type": kind, "anchor_x": x, "anchor_y": y, "rotation": rotation,
                                  "flip": flip, "pay_from": vessel, "cost": cost, "cells": [list(c) for c in cells]})
        if self.fill_holes(board.holes_next_to(list(cells))):
            self.finish_action()

    def fill_holes(self, holes: list[tuple[int, int]]) -> bool:
        """NWP-ACT-4: fill each hole in (y, x) order; stop for the player's choice when tiles differ (A9).

        Returns True once every hole is dealt with and the islands are scored.
        """
        for index, hole in enumerate(holes):
            options = hole_options(self.state, self.catalogue, self.seat, hole)
            if not options:
                continue
            if len({option["type"] for option in options}) > 1:
                self.emit("hole_fill_pending", {"holes": [list(cell) for cell in holes[index:]]})
                return False
            self.emit_fill(hole, options[0])
        self.score_islands()
        return True

    def emit_fill(self, hole: tuple[int, int], option: dict) -> None:
        tile = option["source"] if option["from"] == "hand" else next_small_id(self.state, option["type"])
        self.emit("hole_filled", {"hole_x": hole[0], "hole_y": hole[1], "tile": tile, "type": option["type"],
                                  "from": option["from"], "rotation": option["rotation"], "flip": option["flip"]})

    def fill_hole(self, command: dict) -> None:
        """NWP-CMD-5: the player's choice for the first open hole."""
        holes = [tuple(cell) for cell in self.state["pending"]["holes"]]
        x = command["hole_x"]
        y = command["hole_y"]
        if (x, y) != holes[0]:
            raise IllegalMove("other_hole", f"holes are filled in order; the next is {holes[0]}",
                              rule_id="NWP-ACT-4", field="hole_x")
        source = command["source"]
        rotation = command["rotation"]
        flip = command["flip"]
        options = hole_options(self.state, self.catalogue, self.seat, holes[0])
        chosen = [o for o in options if (o["source"], o["rotation"], o["flip"]) == (source, rotation, flip)]
        if not chosen:
            raise IllegalMove("no_fit", "that small tile does not fit the hole this way, or another source comes first",
                              rule_id="NWP-ACT-4", field="source")
        self.emit_fill(holes[0], chosen[0])
        if self.fill_holes(holes[1:]):
            self.finish_action()

    def score_islands(self) -> None:
        """NWP-ACT-3 step 3 / NWP-SCORE-2: every island the placement completed, hole fills included."""
        state = self.state
        board = self.board()
        lattice = Lattice(self.catalogue.width, self.catalogue.height, state["lattice"])
        found = lattice.completed_islands([tuple(p) for p in state["placement"]["new_points"]], board.tile_at)
        islands = []
        left = state["map_tokens_left"]
        for _, tiles in found:
            if len(tiles) < 2:
                continue
            map_token = left is None or left > 0  # NWP-COMP-17: the island still scores when maps run out
            if left is not None and left > 0:
                left -= 1
            size = len(tiles)
            islands.append({"size": size, "fame": island_fame(self.catalogue, size), "map_token": map_token,
                            "tiles": sorted(tiles)})
        self.emit("islands_scored", {"islands": islands})

    def transfer_crew(self, command: dict) -> None:
        """NWP-CMD-6 / NWP-ACT-5: crew change vessel, keeping their row; the vessel they leave pays (A7)."""
        direction = command["direction"]
        from_available = command["from_available"]
        from_resting = command["from_resting"]
        if from_available < 0 or from_resting < 0 or from_available + from_resting < 1:
            raise IllegalMove("no_crew_moved", "move at least one crewman, with no negative counts",
                              rule_id="NWP-ACT-5", field="from_available")
        payer = SHIP if direction == "to_sled" else SLED
        _, cost = self.pay(command, BASE_COST["transfer_crew"], vessel=payer)
        ship, sled = self.player[SHIP], self.player[SLED]
        if direction == "to_sled":
            if sled["returned"] or sled["lost"] or sled["at"] not in (None, ship["at"]):
                raise IllegalMove("sled_elsewhere", "the sled must be off the board or on the ship's tile (A6)",
                                  rule_id="NWP-ACT-5", field="direction")
        elif not can_act(ship) or sled["at"] != ship["at"]:
            raise IllegalMove("not_together", "crew return to the ship only where ship and sled share a tile",
                              rule_id="NWP-ACT-5", field="direction")
        source = self.player[payer]
        if from_available > source["available"] - cost or from_resting > source["resting"] + cost:
            raise IllegalMove("not_enough_crew", f"the {payer} has not that many crew in those rows after paying",
                              rule_id="NWP-ACT-5", field="from_available")
        self.emit("crew_transferred", {"direction": direction, "from_available": from_available,
                                       "from_resting": from_resting, "cost": cost, "pay_from": payer})
        self.finish_action()

    def move_ship(self, command: dict) -> None:
        """NWP-CMD-7 / NWP-ACT-6."""
        self.move(command, SHIP)

    def move_sled(self, command: dict) -> None:
        """NWP-CMD-8 / NWP-ACT-7."""
        self.move(command, SLED)

    def move(self, command: dict, vessel: str) -> None:
        target = command["to"]
        _, cost = self.pay(command, BASE_COST[f"move_{vessel}"], vessel=vessel)
        board = self.board()
        here = self.player[vessel]["at"]
        routes = board.ship_routes(here) if vessel == SHIP else board.sled_routes(here)
        if target not in routes:
            if vessel == SHIP and board.is_frozen(here):
                raise IllegalMove("frozen_in", "the ship's tile is frozen: it cannot move until it thaws",
                                  rule_id="NWP-ACT-6", field="to")
            rule = "NWP-ACT-6" if vessel == SHIP else "NWP-ACT-7"
            kind = "sea" if vessel == SHIP else "land (or ice)"
            raise IllegalMove("no_route", f"no {kind} route from {here} to {target}", rule_id=rule, field="to")
        self.emit("vessel_moved", {"vessel": vessel, "from": here, "to": target, "cost": cost, "pay_from": vessel})
        self.arrivals(vessel, target)
        self.finish_action()

    def arrivals(self, vessel: str, target: str) -> None:
        """NWP-SCORE-3 and NWP-SCORE-4: ranks in the order players arrive, under the arrival options (A2)."""
        state, player, options = self.state, self.player, self.state["options"]
        counts = options["northwest_arrival_trigger"] == "either_vessel" or vessel == SHIP
        if target == NORTHWEST and not player["reached_northwest"] and counts:
            rank = len(state["northwest_arrivals"]) + 1
            fame = arrival_fame(self.catalogue, state, "northwest", rank)
            self.emit("northwest_reached", {"rank": rank, "fame": fame, "vessel": vessel})
        if target != GREENLAND or not player[vessel]["returned"] or player["return_judged"]:
            return
        if options["greenland_arrival_trigger"] == "all_crew" and any(
            crew_aboard(player[name]) and not player[name]["returned"] for name in VESSELS
        ):
            return
        if options["greenland_requires_northwest"] and not player["reached_northwest"]:
            self.emit("greenland_reached", {"rank": None, "fame": 0, "vessel": vessel})
            return
        rank = len(state["greenland_arrivals"]) + 1
        self.emit("greenland_reached", {"rank": rank, "fame": arrival_fame(self.catalogue, state, "greenland", rank),
                                        "vessel": vessel})

    def claim(self, command: dict, kinds: tuple[str, ...], base: int, per_zone: int, rule: str) -> None:
        token_id = command["token_id"]
        token = self.state["tokens"].get(token_id)
        if token is None or token["kind"] not in kinds or token["owner"] is not None:
            raise IllegalMove("no_such_token", f"no unclaimed {' or '.join(kinds)} token {token_id} on the board",
                              rule_id=rule, field="token_id")
        vessel, cost = self.pay(command, base)
        if self.player[vessel]["at"] != token["tile"]:
            raise IllegalMove("not_on_tile", f"your {vessel} must be on the token's tile", rule_id=rule,
                              field="pay_from")
        fame = self.catalogue.zone(tuple(token["cell"])) * per_zone
        self.emit("token_claimed", {"token": token_id, "kind": token["kind"], "fame": fame, "pay_from": vessel,
                                    "cost": cost})
        self.finish_action()

    def explore(self, command: dict) -> None:
        """NWP-CMD-9 / NWP-ACT-8: a wreck or strait, 3 crew, zone multiplier x 1 fame (NWP-COMP-2)."""
        self.claim(command, EXPLORED, BASE_COST["explore"], 1, "NWP-ACT-8")

    def discover(self, command: dict) -> None:
        """NWP-CMD-10 / NWP-ACT-9: Inuit or a cairn, 2 crew, zone multiplier x 2 fame (NWP-COMP-2)."""
        self.claim(command, DISCOVERED, BASE_COST["discover"], 2, "NWP-ACT-9")

    def end_turn(self, command: dict) -> None:
        """NWP-CMD-11 / NWP-ACT-11 / NWP-ROUND-2: a turn holds at least one action."""
        if not self.state["turn"]["actions"]:
            raise IllegalMove("no_action_yet", "take at least one action before ending the turn (or pass)",
                              rule_id="NWP-ROUND-2", field="type")
        self.emit("turn_ended", {})

    def pass_(self, command: dict) -> None:
        """NWP-CMD-12 / NWP-ACT-10: no cost, no more turns this round; pass order is next round's order."""
        self.emit("player_passed", {"auto": False})
        self.end_round_if_all_passed()

    def finish_action(self) -> None:
        """After each action: the all-home end (NWP-END-2, NWP-ROUND-11), then the automatic pass (NWP-ROUND-7)."""
        if all_explorers_home(self.state):
            self.emit("expedition_ended", {"rule": "NWP-END-2"})
            return
        if usable_crew(self.player) == 0:
            self.emit("player_passed", {"auto": True})
            self.end_round_if_all_passed()

    def end_round_if_all_passed(self) -> None:
        """NWP-ROUND-10: once everyone has passed, end the game after the last round or move the sun.

        NWP-ROUND-1 / NWP-END-1: ten rounds. NWP-COMP-7 / NWP-COMP-10: the sun
        moves one position counter-clockwise (T0, T1, ...), not after the last
        round. NWP-ROUND-9: the pass order is next round's order.
        NWP-ROUND-8 / NWP-END-4: a player with no vessel able to act (or no
        crew on one) passes at once at the start of the round.
        """
        state = self.state
        while state["phase"] == "play" and len(state["passed"]) == len(state["seats"]):
            if state["round"] == self.catalogue.tables["rounds"]:
                self.emit("expedition_ended", {"rule": "NWP-END-1"})
                return
            sun = (state["sun"] + 1) % len(self.catalogue.sun_track)
            self.emit("round_ended", {"round": state["round"] + 1, "sun": sun, "order": list(state["passed"]),
                                      "sleds_lost": self.sleds_lost(sun)})
            for seat in list(state["order"]):
                if usable_crew(state["players"][seat]) == 0:
                    self.emit("player_passed", {"auto": True}, seat=seat)

    def sleds_lost(self, sun: int) -> list[str]:
        """NWP-ACT-7 (A4): with ``sled_on_thawed_sea`` = ``lost``, a sled on a thawed tile with no land is lost."""
        if self.state["options"]["sled_on_thawed_sea"] != "lost":
            return []
        board = self.board()
        frozen_next = self.catalogue.frozen_cells[sun]
        lost = []
        for seat in self.state["seats"]:
            sled = self.state["players"][seat][SLED]
            if not can_act(sled) or sled["at"] in (GREENLAND, NORTHWEST) or not board.is_frozen(sled["at"]):
                continue
            cells = board.tile_cells(sled["at"])
            if any(cell in frozen_next for cell in cells):
                continue
            if not any(LAND in "".join(board.rows[j][2 * x:2 * x + 3] for j in range(2 * y, 2 * y + 3))
                       for x, y in cells):
                lost.append(seat)
        return lost
