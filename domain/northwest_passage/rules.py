"""Expedition: Northwest Passage (the Board Game Arena edition) behind Cairn's game interface."""
from __future__ import annotations

from domain.core.chance import ChanceNode
from domain.core.events import Event, JsonObject
from domain.core.rules import Rules
from domain.northwest_passage import apply, legal, setup
from domain.northwest_passage.catalogue import Catalogue, load_catalogue
from domain.northwest_passage.decide import Turn
from domain.northwest_passage.move_types import MOVES
from domain.northwest_passage.scoring import score_sheet
from domain.northwest_passage.state import NorthwestPassageState, fame

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


class NorthwestPassage(Rules[NorthwestPassageState]):
    name = "northwest-passage"
    title = "Expedition: Northwest Passage"
    rules_version = "2"
    player_counts = (2, 3, 4)
    options_schema = OPTIONS_SCHEMA
    declared_moves = MOVES

    def __init__(self, catalogue: Catalogue | None = None):
        self.catalogue = catalogue or load_catalogue()

    def data_versions(self) -> dict[str, str]:
        return dict(self.catalogue.versions)

    def setup(self, created: JsonObject) -> NorthwestPassageState:
        seats = [seat["seat"] for seat in created["seats"]]
        return setup.initial_state(self.catalogue, seats, created["options"])

    def event_types(self) -> frozenset[str]:
        return frozenset(apply.HANDLERS)

    def apply(self, state: NorthwestPassageState, event: Event) -> NorthwestPassageState:
        return apply.apply(state, event, self.catalogue)

    def decide(self, state: NorthwestPassageState, seat: str, command: JsonObject) -> list[Event]:
        return Turn(state, self.catalogue, seat, self.copy_state).run(command)

    def chance_node(self, state: NorthwestPassageState) -> ChanceNode | None:
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

    def to_act(self, state: NorthwestPassageState) -> list[str]:
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

    def legal_moves(self, state: dict, seat: str) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        return legal.legal_moves(state, self.catalogue, seat)

    def view(self, state: NorthwestPassageState, reader: str | None) -> JsonObject:
        """Spec 10.4: everything is public except the order of the face-down stock, shown as a count."""
        shown = {key: value for key, value in state.items() if key not in ("stock", "lattice", "cells")}
        shown["stock_size"] = len(state["stock"])
        shown["lattice"] = state["lattice"]
        shown["fame"] = {seat: fame(player) for seat, player in state["players"].items()}
        shown["sun_position"] = self.catalogue.sun_track[state["sun"]]["position"]
        return shown

    def secrets(self, state: NorthwestPassageState) -> dict[str, set[str]]:
        """Reserves are open (spec 10.4, as on Board Game Arena); only the stock's order is hidden, from everyone."""
        return {}

    def is_over(self, state: NorthwestPassageState) -> bool:
        return state["phase"] == "over"

    def final_score(self, state: NorthwestPassageState) -> JsonObject:
        return score_sheet(state, self.catalogue)

