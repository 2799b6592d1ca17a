"""Expedition: Northwest Passage (the Board Game Arena edition) behind Cairn's game interface."""
from __future__ import annotations

import json

from domain.core.chance import ChanceNode
from domain.core.events import Event
from domain.core.rules import Rules
from domain.northwest_passage import apply, legal, setup
from domain.northwest_passage.catalogue import Catalogue, load_catalogue
from domain.northwest_passage.decide import Turn
from domain.northwest_passage.scoring import score_sheet
from domain.northwest_passage.state import fame

OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "hole_fill_source": {
            "description": "NWP-ACT-4 (A8): hand_first is the written rule; supply_only does as Board Game Arena",
            "enum": ["hand_first", "supply_only"],
            "default": "hand_first",
        },
        "sled_on_thawed_sea": {
            "description": "NWP-ACT-7 (A4): a sled on a tile with no land when its ice thaws is stuck, or lost",
            "enum": ["stuck", "lost"],
            "default": "stuck",
        },
        "greenland_requires_northwest": {
            "description": "NWP-SCORE-4 (A2): a Greenland return ranks only after reaching the Northwest",
            "type": "boolean",
            "default": True,
        },
        "greenland_arrival_trigger": {
            "description": "NWP-SCORE-4 (A2): the return counts with the first vessel back, or once all crew are back",
            "enum": ["first_vessel", "all_crew"],
            "default": "first_vessel",
        },
        "northwest_arrival_trigger": {
            "description": "NWP-SCORE-3 (A2): either vessel entering the Northwest counts, or the ship only",
            "enum": ["either_vessel", "ship"],
            "default": "either_vessel",
        },
        "never_left_greenland": {
            "description": "NWP-SCORE-7: a vessel still in Greenland at the end, never having left, is "
                           "not_abandoned (the seed: only a vessel that did not return or arrive pays) or "
                           "abandoned (NWP-END-3: it never came back)",
            "enum": ["not_abandoned", "abandoned"],
            "default": "not_abandoned",
        },
        "small_tiles_unlimited": {
            "description": "NWP-COMP-14: unlimited small tiles (Board Game Arena) or the printed copies of each",
            "type": "boolean",
            "default": True,
        },
    },
}


# Every command with its fields and the rule behind it: the declaration GET /docs shows.
MOVE_TYPES = (
    ("draft_pick", "During the draft, the drafting seat takes a tile (NWP-CMD-1, NWP-ACT-1).",
     {"source": "a tile of the display or the supply"}),
    ("draw_tile", "Your turn, cost 1: draw a tile; right after refresh_and_draw, the free draw takes source only "
     "(NWP-ACT-1, NWP-ACT-2).", {"source": "a tile of the display or the supply", "pay_from": "ship or sled"}),
    ("refresh_and_draw", "Your turn, cost 2: refresh the display, then draw from it (NWP-ACT-2).",
     {"pay_from": "ship or sled"}),
    ("place_tile", "Your turn, cost 1, paid by the vessel the tile touches: place a reserve tile (NWP-CMD-4, "
     "NWP-GEO-4, NWP-GEO-5).", {"tile_id": "a tile in your reserve", "anchor_x": "column", "anchor_y": "row",
                                "rotation": "quarter turns", "flip": "whether the tile is flipped",
                                "pay_from": "ship or sled"}),
    ("fill_hole", "While a hole choice is pending: fill the first open hole (NWP-ACT-4, NWP-CMD-5).",
     {"hole_x": "column", "hole_y": "row", "source": "a reserve tile id, or a small type id from the supply",
      "rotation": "quarter turns", "flip": "whether the tile is flipped"}),
    ("transfer_crew", "Your turn, cost 1, paid by the vessel the crew leave: move crew between ship and sled "
     "(NWP-ACT-5).", {"direction": "to_sled or to_ship", "from_available": "available crew moved",
                      "from_resting": "resting crew moved"}),
    ("move_ship", "Your turn, cost 1: sail to a tile by a sea route (NWP-ACT-6).", {"to": "a tile id, G or N"}),
    ("move_sled", "Your turn, cost 1: move the sled by a land route or over ice (NWP-ACT-7).",
     {"to": "a tile id, G or N"}),
    ("explore", "Your turn, cost 3: explore a wreck or strait on the payer's tile (NWP-ACT-8).",
     {"token_id": "a wreck or strait token", "pay_from": "ship or sled"}),
    ("discover", "Your turn, cost 2: discover Inuit or a cairn on the payer's tile (NWP-ACT-9).",
     {"token_id": "an Inuit or cairn token", "pay_from": "ship or sled"}),
    ("end_turn", "After at least one action: end your turn (NWP-ROUND-2).", {}),
    ("pass", "Your turn: pass, ending your round (NWP-ACT-10).", {}),
)

class NorthwestPassage(Rules):
    name = "northwest-passage"
    title = "Expedition: Northwest Passage"
    rules_version = "2"
    player_counts = (2, 3, 4)
    options_schema = OPTIONS_SCHEMA

    def __init__(self, catalogue: Catalogue | None = None):
        self.catalogue = catalogue or load_catalogue()

    def data_versions(self) -> dict[str, str]:
        return dict(self.catalogue.versions)

    def setup(self, created: dict) -> dict:
        seats = [seat["seat"] for seat in created["seats"]]
        return setup.initial_state(self.catalogue, seats, created["options"])

    def event_types(self) -> frozenset[str]:
        return frozenset(apply.HANDLERS)

    def apply(self, state: dict, event: Event) -> dict:
        return apply.apply(state, event, self.catalogue)

    def decide(self, state: dict, seat: str, command: dict) -> list[Event]:
        return Turn(state, self.catalogue, seat, self.copy_state).run(command)

    def chance_node(self, state: dict) -> ChanceNode | None:
        """NWP-SETUP-2, NWP-SETUP-5/6, NWP-ACT-1, NWP-ACT-2: order, display, refills and refreshes are drawn.

        Tiles are drawn from the face-down stock when needed (spec 10.4); the
        display is face up, so every outcome is public.
        """
        chance = state["chance"]
        if chance is None or state["phase"] == "over":
            return None
        key, count = chance["key"], chance["count"]
        if key == "turn_order":
            return ChanceNode(key, tuple(state["seats"]), count, label="initial turn order (NWP-SETUP-2)")
        labels = {"display": "opening display (NWP-SETUP-6)", "refill": "display refill (NWP-ACT-1)",
                  "refresh": "new display (NWP-ACT-2)"}
        return ChanceNode(key, tuple(state["stock"]), count, label=labels[key])

    def to_act(self, state: dict) -> list[str]:
        """Spec 10.1: the pending decision's seat, the drafting seat, or the active seat."""
        if state["phase"] == "over" or state["chance"] is not None:
            return []
        if state["pending"] is not None:
            return [state["pending"]["seat"]]
        if state["phase"] == "draft":
            return [state["draft_queue"][0]]
        if state["phase"] == "play" and state["turn"] is not None:
            return [state["turn"]["seat"]]
        return []

    def move_types(self) -> list[dict]:
        return [{"type": kind, "description": text, "fields": fields} for kind, text, fields in MOVE_TYPES]

    def legal_moves(self, state: dict, seat: str) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        return legal.legal_moves(state, self.catalogue, seat)

    def view(self, state: dict, reader: str | None) -> dict:
        """Spec 10.4: everything is public except the order of the face-down stock, shown as a count."""
        shown = {key: value for key, value in state.items() if key not in ("stock", "lattice", "cells")}
        shown["stock_size"] = len(state["stock"])
        shown["lattice"] = state["lattice"]
        shown["fame"] = {seat: fame(player) for seat, player in state["players"].items()}
        shown["sun_position"] = self.catalogue.sun_track[state["sun"]]["position"]
        return shown

    def secrets(self, state: dict) -> dict[str, set[str]]:
        """Reserves are open (spec 10.4, as on Board Game Arena); only the stock's order is hidden, from everyone."""
        return {}

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def final_score(self, state: dict) -> dict:
        return score_sheet(state, self.catalogue)

    def copy_state(self, state: dict) -> dict:
        return json.loads(json.dumps(state))
