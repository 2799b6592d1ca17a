"""I C E Expedition behind the Cairn game interface (spec ``rules/ice-expedition.md``)."""
from __future__ import annotations

import pickle

from domain.core import ChanceNode, Rules
from domain.core.events import Event, JsonObject
from domain.ice_expedition import apply, chances, decide, legal, setup, view
from domain.ice_expedition.catalogue import load_catalogue
from domain.ice_expedition.events import COMMAND_OF
from domain.ice_expedition.flow import Flow
from domain.ice_expedition.geometry import Geometry
from domain.ice_expedition.move_types import MOVES
from domain.ice_expedition.scoring import score_sheet
from domain.ice_expedition.setup import IceExpeditionState

# Options: every alternative reading the spec offers (AMB-4, AMB-2, AMB-3, AMB-13, AMB-22, AMB-24)
# and its variants (First Steps, guild choice, logbook order), defaults from the data files.
OPTION_CHOICES: dict[str, JsonObject] = {
    "first_steps": {"type": "boolean"},
    "guild_allocation": {"enum": ["random", "choice"]},
    "excavate_base_cost": {"enum": [3, 4]},
    "excavate_cap_stage": {"enum": ["gross", "net"]},
    "leader_counts_for_cost": {"type": "boolean"},
    "camp_and_nunatak_stack": {"type": "boolean"},
    "overwork_max_per_turn": {"enum": [1, 2]},
    "hand_discard_incoming": {"type": "boolean"},
    "rune_targets": {"enum": ["not_fully_covered", "uncovered"]},
    "shape_combinations": {"enum": ["disjoint", "pairs"]},
    "allow_voluntary_end_day": {"type": "boolean"},
    "logbook_order": {"enum": ["fixed", "shuffled"]},
}


class IceExpedition(Rules[IceExpeditionState]):
    name = "ice-expedition"
    title = "I C E Expedition"
    rules_version = "2"
    player_counts = (2, 3, 4, 5)
    declared_moves = MOVES

    def __init__(self) -> None:
        self.data = load_catalogue()
        self.geo = Geometry(self.data.board)
        defaults = {**self.data.params, "logbook_order": self.data.cards["logbook_order"]}
        self.options_schema = {
            "type": "object",
            "properties": {key: {**spec, "default": defaults[key]} for key, spec in OPTION_CHOICES.items()},
            "additionalProperties": False,
        }

    def data_versions(self) -> dict[str, str]:
        return dict(self.data.versions)

    def setup(self, created: JsonObject) -> IceExpeditionState:
        return setup.initial_state(self, created)

    def event_types(self) -> frozenset[str]:
        return frozenset(COMMAND_OF)

    def apply(self, state: IceExpeditionState, event: Event) -> IceExpeditionState:
        return apply.apply(self, state, event)

    def decide(self, state: IceExpeditionState, seat: str, command: JsonObject) -> list[Event]:
        return decide.decide(self, state, seat, command)

    def decide_offered(self, state: IceExpeditionState, seat: str, move: JsonObject) -> list[Event]:
        """Offered moves skip ``decide``'s check, which lists every legal move again."""
        return [decide.event_of(self, state, seat, move)]

    def chance_node(self, state: IceExpeditionState) -> ChanceNode | None:
        if not state["chance"]:
            return None
        return chances.node_for(Flow(self, state), state["chance"][0])

    def to_act(self, state: IceExpeditionState) -> list[str]:
        return legal.to_act(state)

    def legal_moves(self, state: dict, seat: str) -> list[dict]:
        return legal.legal_moves(self, state, seat)

    def view(self, state: IceExpeditionState, reader: str | None) -> JsonObject:
        return view.view(self, state, reader)

    def secrets(self, state: IceExpeditionState) -> dict[str, set[str]]:
        return view.secrets(state)

    def is_over(self, state: IceExpeditionState) -> bool:
        return state["phase"] == "over"

    def final_score(self, state: IceExpeditionState) -> JsonObject:
        return score_sheet(self.data, state)

    def copy_state(self, state: IceExpeditionState) -> IceExpeditionState:
        """Pickle round trip: the state is plain JSON data, and this is the fastest faithful copy."""
        return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
