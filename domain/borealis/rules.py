"""Borealis: Arctic Expeditions as a Cairn game (rules: ../shared/rules/borealis.md)."""
from __future__ import annotations

from domain.borealis import apply, decide, legal, setup, table, view
from domain.borealis.catalogue import Catalogue, load_catalogue
from domain.borealis.goals import GOAL_TYPES, claimable_goals
from domain.borealis.move_types import MOVES
from domain.borealis.scoring import score_sheet
from domain.borealis.setup import BorealisState
from domain.borealis.turns import active_seat
from domain.core import ChanceNode, IllegalMove, Rules
from domain.core.events import Event, JsonObject

SEAT_PATTERN = "^p[1-4]$"


def options_schema(catalogue: Catalogue) -> dict:
    return {
        "type": "object",
        "properties": {
            "board_side": {"enum": ["I", "II"], "default": "I",
                           "description": "BOR-SETUP-1: the side every player uses"},
            "side_two_boards": {"type": "array", "items": {"enum": catalogue.boards_of_side("II")},
                                "uniqueItems": True,
                                "description": "side II boards in seat order; drawn at random when omitted"},
            "first_player": {"type": "string", "pattern": SEAT_PATTERN,
                             "description": "BOR-SETUP-2: the first player; drawn at random when omitted"},
            "goal_claim_mode": {"enum": ["auto", "manual"], "default": "auto",
                                "description": "BOR-GOAL-6"},
            "refresh_limit": {"enum": ["per_player_per_round", "table_per_round"],
                              "default": "per_player_per_round", "description": "§11 A4"},
        },
        "additionalProperties": False,
    }


# What each move leaves in the history, as :meth:`Borealis.apply` folds it.
MOVE_EVENTS = frozenset({"mulligan", "card_observed", "pool_refreshed", "card_taken", "blind_draw", "reorganised",
                         "goal_claimed", "turn_ended", "farewell_location_chosen"})

# Who is waited for, by phase: each player once for the mulligan and the Farewell Party, else the active player.
OUT_OF_TURN_RULES = {"mulligan": "BOR-SETUP-12", "farewell": "BOR-END-3", "play": "BOR-TURN-1"}


class Borealis(Rules[BorealisState]):
    name = "borealis"
    title = "Borealis: Arctic Expeditions"
    rules_version = "1"
    player_counts = (2, 3, 4)
    declared_moves = MOVES

    def __init__(self, catalogue: Catalogue | None = None):
        self.catalogue = catalogue or load_catalogue()
        self.options_schema = options_schema(self.catalogue)
        self._goal_ids = {kind: self.catalogue.goals_of_type(kind) for kind in GOAL_TYPES}
        self._side_two = self.catalogue.boards_of_side("II")
        self._scoring_ids = sorted(self.catalogue.scoring_cards)

    def data_versions(self) -> dict[str, str]:
        return dict(self.catalogue.versions)

    def validate_options(self, options: JsonObject, seat_count: int) -> JsonObject:
        filled = super().validate_options(options, seat_count)
        first = filled.get("first_player")
        if first is not None and int(first[1:]) > seat_count:
            raise IllegalMove("invalid_option", f"there is no seat {first}", rule_id="BOR-SETUP-2",
                              field="options.first_player")
        boards_given = filled.get("side_two_boards")
        if boards_given is not None and (filled["board_side"] != "II" or len(boards_given) != seat_count):
            raise IllegalMove("invalid_option", "side_two_boards needs board_side II and one board per seat",
                              rule_id="BOR-SETUP-1", field="options.side_two_boards")
        return filled

    def setup(self, created: JsonObject) -> BorealisState:
        return setup.initial_state(created, self.catalogue)

    def event_types(self) -> frozenset[str]:
        return MOVE_EVENTS

    def apply(self, state: BorealisState, event: Event) -> BorealisState:
        return apply.apply(state, event, self.catalogue)

    def decide(self, state: BorealisState, seat: str, command: JsonObject) -> list[Event]:
        return decide.decide(state, seat, command, self.catalogue)

    def chance_node(self, state: BorealisState) -> ChanceNode | None:
        return table.chance_node(state, state["seats"], self._side_two, self._scoring_ids, self._goal_ids)

    def to_act(self, state: BorealisState) -> list[str]:
        phase = state["phase"]
        if phase == "mulligan":
            return [seat for seat in state["seats"] if state["players"][seat]["mulligan"] is None]
        if phase == "farewell":
            return [seat for seat in state["seats"] if state["players"][seat]["farewell"] is None]
        if phase != "play":
            return []
        active = active_seat(state)
        return [active] if active is not None else []

    # BOR-GOAL-5: in manual mode any player claims a goal at any time during play; decide names the rule
    # that refuses a claim, whoever's turn it is.
    out_of_turn_moves = frozenset({"claim_goal"})

    def may_act(self, state: BorealisState) -> list[str]:
        """BOR-GOAL-6 ``manual``: the other players with a goal to claim."""
        if state["phase"] != "play" or state["options"]["goal_claim_mode"] != "manual":
            return []
        active = active_seat(state)
        return [seat for seat in state["seats"] if seat != active and claimable_goals(state, seat)]

    def out_of_turn(self, state: BorealisState, seat: str) -> IllegalMove:
        rule = OUT_OF_TURN_RULES.get(state["phase"], "BOR-TURN-1")
        return IllegalMove("not_your_turn", f"the game is not waiting for {seat}", rule_id=rule)

    def legal_moves(self, state: BorealisState, seat: str) -> list[JsonObject]:
        return legal.legal_moves(state, seat, self.catalogue)

    def view(self, state: BorealisState, reader: str | None) -> JsonObject:
        return view.view(state, reader, self.catalogue)

    def secrets(self, state: BorealisState) -> dict[str, set[str]]:
        return view.secrets(state)

    def is_over(self, state: BorealisState) -> bool:
        return state["phase"] == "over" and not state["chance"]

    def final_score(self, state: BorealisState) -> JsonObject:
        return score_sheet(state, self.catalogue)

