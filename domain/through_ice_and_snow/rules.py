"""Through Ice and Snow behind Cairn's game interface: the base game for 2-4 players with the optional base-box
components, the modules (Survival, Shelter Building, Dual Animal Species, Walking on Ice, Inuit Myths, Legendary
Expeditions) and the single-player scenarios, each a game option."""
from __future__ import annotations

from domain.core import ChanceNode, Event, IllegalMove, Rules
from domain.core.events import JsonObject
from domain.through_ice_and_snow import apply, decide, draws, flow, legal, parts, scoring, solo, view
from domain.through_ice_and_snow.board import State
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.move_types import MOVES
from domain.through_ice_and_snow.setup import new_state

# TIS-CMD-1: the game options, one per module, scenario and variant; seats and seat order come from the game's
# creation. The options choose the rule parts of the match (parts.py).
# Legendary Expeditions card types (TIS-LEG-1).
LEGENDARY_TYPES = ("explorers", "ships", "explorer_events")
# The single-player scenario of a 1-player game that names none (option ``scenario``).
SOLO_DEFAULT = "lost_expedition"
MODULE_OPTIONS = {
    "survival": "Survival module (TIS-SURV)",
    "shelter_building": "Shelter Building module (TIS-SHEL)",
    "dual_species": "Dual Animal Species module (TIS-DUAL)",
    "inuit_myths": "Inuit Myths (TIS-MYTH, Myths & Legends)",
    "walking_on_ice": "Walking on Ice (TIS-WALK, Myths & Legends)",
}
# The optional components of the base box (spec 2.3, 2.5, GAP-10) and the translator's variant.
BASE_BOX_OPTIONS = {
    "extra_events": {"type": "array", "items": {"enum": [25, 26, 27, 28]}, "uniqueItems": True, "default": [],
                     "description": "extra event cards added to their decks (TIS-SETUP-7)"},
    "all_upgrades": {"type": "boolean", "default": False, "description": "ship upgrades 7-11 (TIS-SETUP-4)"},
    "whale_hunting": {"type": "boolean", "default": False,
                      "description": "whale hunting cards, with the Fishing boat in the supply (TIS-SETUP-6)"},
    "variant_coastal_extra_species": {"type": "boolean", "default": False,
                                      "description": "translator's variant: 1 more species card after a coastal "
                                                     "voyage (TIS-VOY-5)"},
}


class ThroughIceAndSnow(Rules[State]):
    name = "through-ice-and-snow"
    title = "Through Ice and Snow"
    rules_version = "1"
    player_counts = (1, 2, 3, 4)
    declared_moves = MOVES
    options_schema = {
        "type": "object",
        "properties": {**BASE_BOX_OPTIONS,
                       **{key: {"type": "boolean", "default": False, "description": label}
                          for key, label in MODULE_OPTIONS.items()},
                       "legendary_expeditions": {
                           "type": "array", "items": {"enum": list(LEGENDARY_TYPES)}, "uniqueItems": True,
                           "default": [], "description": "Legendary Expeditions card types used (TIS-LEG-1)"},
                       "scenario": {"enum": [None, *solo.SCENARIOS], "default": None,
                                    "description": "single-player scenario (spec 8.7-8.10); 1 player only, "
                                                   "Lost Expedition when a 1-player game names none"}},
        "additionalProperties": False,
    }

    def data_versions(self) -> dict[str, str]:
        return dict(CAT.versions)

    def validate_options(self, options: dict, seat_count: int) -> dict:
        """TIS-CMD-1: a 1-player game is a single-player scenario (Lost Expedition unless named), and a scenario
        is for 1 player. A scenario always plays Survival (TIS-SURV-1), so an explicit ``"survival": false`` is
        refused rather than quietly overruled."""
        if seat_count == 1 and "scenario" not in options:
            options = {**options, "scenario": SOLO_DEFAULT}
        filled = super().validate_options(options, seat_count)
        name = filled["scenario"]
        if (name is None) != (seat_count > 1):
            raise IllegalMove("invalid_option", "a single-player scenario is played by exactly 1 player, and 1 "
                              "player plays a scenario", rule_id="TIS-CMD-1", field="options.scenario")
        if name == "amundsens_voyage" and filled["legendary_expeditions"]:
            raise IllegalMove("invalid_option", "Amundsen's Voyage sets its own Legendary cards (Amundsen, the Gjøa, "
                              "events 53 and 55)", rule_id="TIS-SOLO-AMU-3", field="options.legendary_expeditions")
        if name is not None and options.get("survival") is False:
            raise IllegalMove("invalid_option", "Survival is played in every single-player scenario; leave out "
                              "'survival' or set it true", rule_id="TIS-SURV-1", field="options.survival")
        if name is not None and filled["walking_on_ice"]:
            raise IllegalMove("invalid_option", "Walking on Ice is played without a single-player scenario",
                              rule_id="TIS-WALK-1", field="options.walking_on_ice")
        return filled

    def setup(self, created: dict) -> State:
        seats = [seat["seat"] for seat in created["seats"]]
        options = created["options"]
        return flow.advance(new_state(seats, options, parts.for_options(options)))

    def event_types(self) -> frozenset[str]:
        return apply.EVENT_TYPES

    def apply(self, state: State, event: Event) -> State:
        return apply.apply(state, event)

    def chance_node(self, state: State) -> ChanceNode | None:
        return draws.chance_node(state)

    def to_act(self, state: State) -> list[str]:
        return legal.to_act(state)

    def legal_moves(self, state: State, seat: str) -> list[dict]:
        return legal.legal_moves(state, seat)

    def decide(self, state: State, seat: str, command: JsonObject) -> list[Event]:
        return decide.decide(state, seat, command)

    def decide_offered(self, state: State, seat: str, move: JsonObject) -> list[Event]:
        return decide.decide_offered(state, seat, move)

    def view(self, state: State, reader: str | None) -> dict:
        return view.view(state, reader)

    def secrets(self, state: State) -> dict[str, set[str]]:
        return view.secrets(state)

    def state_to_json(self, state: State) -> dict:
        """The state without its composition, which its options choose again (:meth:`state_from_json`)."""
        return {key: value for key, value in state.items() if key != "parts"}

    def state_from_json(self, value: dict) -> State:
        return {**value, "parts": parts.for_options(value["options"])}

    def is_over(self, state: State) -> bool:
        return state["over"] is not None

    def final_score(self, state: State) -> dict:
        return scoring.score_sheet(state)

    def standing(self, state: State) -> dict:
        """The sheet of a normal end (TIS-END-2) of the position now: its scoring reads how the game ended."""
        return scoring.score_sheet({**state, "over": state["over"] or {"outcome": "ranked"}})


RULES = ThroughIceAndSnow()
