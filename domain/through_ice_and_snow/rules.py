"""Through Ice and Snow behind Cairn's game interface: the base game for 2-4 players with the optional base-box
components, the modules (Survival, Shelter Building, Dual Animal Species, Walking on Ice, Inuit Myths, Legendary
Expeditions) and the single-player scenarios, each a game option."""
from __future__ import annotations

from domain.core import ChanceNode, IllegalMove, Rules
from domain.through_ice_and_snow import apply, decide, draws, flow, legal, parts, scoring, solo, view
from domain.through_ice_and_snow.board import State
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.decide import command_types
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


# What each command of command_types() does and the fields it takes (the rule in brackets): GET /docs shows it.
MOVE_DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "choose_investor": ("Setup, every seat once: keep one of your two dealt investors (TIS-SETUP-16).",
                        {"card": "one of your dealt investor ids"}),
    "choose_cartography": ("Setup, every seat once: keep one of your two dealt cartography cards (TIS-SETUP-16).",
                           {"card": "one of your dealt cartography ids (K1..K10)"}),
    "choose_legendary_card": ("Legendary Expeditions setup: choose your legendary card of a kind (TIS-LEG).",
                              {"kind": "the kind of card", "card": "the card chosen"}),
    "take_action": ("Action phase, your turn: place crew on an action space; some spaces take more fields.",
                    {"space": "the action space", "lead": "the leading crew type", "crew": "crew types to counts",
                     "card": "the card some spaces take", "upgrade": "the upgrade some spaces take",
                     "deposit": "what some spaces deposit",
                     "survival_deposit": "Survival: the resource deposited in the column's warehouse",
                     "creature_payment": "Inuit Myths: how a creature is paid"}),
    "pass": ("Action phase, your turn: pass, for the rest of the round (TIS-AMB-4).", {}),
    "choose_destination": ("The leader, Destination step: choose the next anchor (TIS-VOY-2).",
                           {"anchor": "a reachable anchor id"}),
    "place_map_section": ("The leader, after choosing a boundary anchor: place the map section (TIS-CMD-7).",
                          {"section": "the section", "side": "A or B"}),
    "choose_voyage_type": ("The leader, Voyage step: coastal or open sea (TIS-VOY-5).",
                           {"voyage": "coastal or open_sea"}),
    "inuk_guide_map": ("The leader holding event card 9, on an open-sea voyage to an unmapped region (TIS-CMD-11).",
                       {"map": "true or false"}),
    "choose_discard": ("A seat owing a discard: which resource (TIS-CMD-15).",
                       {"resource": "dynamite, wood, rifle or dog"}),
    "choose_sick_crew": ("A seat hit by Scurvy: which crew go to the sick bay (TIS-TRK-HEALTH-1).",
                         {"crew": "crew types to counts, totalling 2 (fewer if fewer are free)"}),
    "resolve_food_shortage": ("A seat short of food: a species card given up for food (TIS-TRK-FOOD-3).",
                              {"card": "a species card you hold"}),
    "lower_food_for_cabin": ("Right after Build Cabin: how much food goes to the cabin (TIS-ACT-20).",
                             {"amount": "0 to your food"}),
    "collect_resource": ("Right after Resource Collection, once per crew placed (TIS-ACT-42).",
                         {"resource": "a kind in the warehouse box"}),
    "use_boiler": ("Owner of upgrade 8 with wood, before a fuel loss of the Voyage step (TIS-AMB-7).",
                   {"use": "true or false"}),
    "mast_choose": ("The leader owning upgrade 9, after the voyage type: keep one of two event cards (TIS-CMD-10).",
                    {"card": "one of the two event cards seen"}),
    "damaged_compass_redirect": ("The player left of the leader, when event 25 is revealed (TIS-CMD-12).",
                                 {"anchor": "an anchor reachable from the previous anchor, or null to decline"}),
    "choose_start_anchor": ("Magnetic North Pole: choose the starting anchor (TIS-CMD-24).",
                            {"anchor": "one of the start anchors"}),
    "choose_free_upgrade": ("Epidemic: choose the free upgrade (TIS-CMD-25).", {"upgrade": "the upgrade number"}),
    "activate_treatment": ("Epidemic: activate a treatment card, or decline with card null (TIS-CMD-23).",
                           {"card": "the treatment card, or null", "requirement": "which of its requirements",
                            "crew": "crew types to counts cured", "species": "the species cards paid"}),
    "mcclure_trade": ("Explorers, McClure: how many times to trade (TIS-CMD-20).", {"times": "how many"}),
    "belcher_override": ("Explorers, Belcher: use the override or not (TIS-CMD-8).", {"use": "true or false"}),
    "collinson_chart": ("Explorers, Collinson, at any decision point: chart a region (TIS-CMD-21).",
                        {"region": "the region charted"}),
    "kellett_peek": ("Explorers, Kellett, at any decision point: look at the top card of a deck (TIS-LEG-6).",
                     {"deck": "the deck looked at"}),
    "abandon_ship": ("Walking on Ice: abandon the ship or not (TIS-CMD-5).", {"abandon": "true or false"}),
    "choose_cargo": ("Walking on Ice: which cargo to keep within the limit (TIS-CMD-18).",
                     {"keep": "the cargo kept"}),
    "return_upgrade": ("Walking on Ice: return an upgrade tile (TIS-WALK-6).", {"upgrade": "an upgrade you own"}),
    "discard_food_can": ("Walking on Ice, at any decision point: eat food cans (TIS-CMD-19).",
                         {"count": "how many cans"}),
    "let_sailor_die": ("Walking on Ice, at any decision point: let a sailor die (TIS-CMD-22).", {}),
}


class ThroughIceAndSnow(Rules):
    name = "through-ice-and-snow"
    title = "Through Ice and Snow"
    rules_version = "1"
    player_counts = (1, 2, 3, 4)
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
        is for 1 player."""
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

    def apply(self, state: State, event: dict) -> State:
        return apply.apply(state, event)

    def chance_node(self, state: State) -> ChanceNode | None:
        return draws.chance_node(state)

    def to_act(self, state: State) -> list[str]:
        return legal.to_act(state)

    def move_types(self) -> list[dict]:
        """Every type of :func:`command_types`, described by :data:`MOVE_DOCS`."""
        return [{"type": kind, "description": MOVE_DOCS[kind][0], "fields": MOVE_DOCS[kind][1]}
                for kind in sorted(command_types(), key=list(MOVE_DOCS).index)]

    def legal_moves(self, state: State, seat: str) -> list[dict]:
        return legal.legal_moves(state, seat)

    def decide(self, state: State, seat: str, command: dict) -> list[dict]:
        return decide.decide(state, seat, command)

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


RULES = ThroughIceAndSnow()
