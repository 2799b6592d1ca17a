"""Borealis: Arctic Expeditions as a Cairn game (rules: ../shared/rules/borealis.md)."""
from __future__ import annotations

import marshal

from domain.borealis import apply, decide, legal, setup, table, view
from domain.borealis.catalogue import Catalogue, load_catalogue
from domain.borealis.goals import GOAL_TYPES, claimable_goals
from domain.borealis.scoring import score_sheet
from domain.borealis.turns import active_seat
from domain.core import ChanceNode, IllegalMove, Rules

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

# Every move a player makes, with its fields (the rule in brackets): the declaration GET /docs shows.
MOVE_TYPES = (
    ("mulligan", "Once, during setup: discard 0-4 cards of the starting hand face up and draw as many "
     "(BOR-SETUP-12).", {"discard_card_ids": "the cards discarded, from your hand"}),
    ("observe", "Your action: play a card from your hand to a location whose scientists match it (BOR-OBS-1).",
     {"card_id": "a card in your hand", "location": "the location it is observed at"}),
    ("reorganise", "Your action: discard 0-4 cards and move your scientists back from the camps (BOR-REO-1).",
     {"discard_card_ids": "the cards discarded, from your hand",
      "target_location": "where the scientists go, when some are in the camps"}),
    ("refresh_pool", "Before taking a card: pay to replace the pool (BOR-OBS-4).", {}),
    ("take_card", "After observing: take a pool card into your hand (BOR-OBS-4).",
     {"pool_slot": "the pool slot, 0-3"}),
    ("draw_blind", "After observing: take the top card of the deck instead (BOR-OBS-4).", {}),
    ("claim_goal", "Manual goal claims: claim a goal whose requirement you have met, at any time during play, "
     "in or out of turn (BOR-GOAL-5, BOR-GOAL-6).", {"goal_id": "the goal claimed"}),
    ("choose_farewell_location", "With Farewell Party: name one location before scoring (BOR-END-3).",
     {"location": "the location named"}),
)

# Who is waited for, by phase: each player once for the mulligan and the Farewell Party, else the active player.
OUT_OF_TURN_RULES = {"mulligan": "BOR-SETUP-12", "farewell": "BOR-END-3", "play": "BOR-TURN-1"}


class Borealis(Rules):
    name = "borealis"
    title = "Borealis: Arctic Expeditions"
    rules_version = "1"
    player_counts = (2, 3, 4)

    def __init__(self, catalogue: Catalogue | None = None):
        self.catalogue = catalogue or load_catalogue()
        self.options_schema = options_schema(self.catalogue)
        self._goal_ids = {kind: self.catalogue.goals_of_type(kind) for kind in GOAL_TYPES}
        self._side_two = self.catalogue.boards_of_side("II")
        self._scoring_ids = sorted(self.catalogue.scoring_cards)

    def data_versions(self) -> dict[str, str]:
        return dict(self.catalogue.versions)

    def validate_options(self, options: dict, seat_count: int) -> dict:
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

    def setup(self, created: dict) -> dict:
        return setup.initial_state(created, self.catalogue)

    def event_types(self) -> frozenset[str]:
        return MOVE_EVENTS

    def apply(self, state: dict, event: dict) -> dict:
        return apply.apply(state, event, self.catalogue)

    def decide(self, state: dict, seat: str, command: dict) -> list[dict]:
        return decide.decide(state, seat, command, self.catalogue)

    def chance_node(self, state: dict) -> ChanceNode | None:
        return table.chance_node(state, state["seats"], self._side_two, self._scoring_ids, self._goal_ids)

    def to_act(self, state: dict) -> list[str]:
        phase = state["phase"]
        if phase == "mulligan":
            return [seat for seat in state["seats"] if state["players"][seat]["mulligan"] is None]
        if phase == "farewell":
            return [seat for seat in state["seats"] if state["players"][seat]["farewell"] is None]
        if phase != "play":
            return []
        return [active_seat(state)]

    def move_types(self) -> list[dict]:
        return [{"type": kind, "description": text, "fields": fields} for kind, text, fields in MOVE_TYPES]

    # BOR-GOAL-5: in manual mode any player claims a goal at any time during play; decide names the rule
    # that refuses a claim, whoever's turn it is.
    out_of_turn_moves = frozenset({"claim_goal"})

    def may_act(self, state: dict) -> list[str]:
        """BOR-GOAL-6 ``manual``: the other players with a goal to claim."""
        if state["phase"] != "play" or state["options"]["goal_claim_mode"] != "manual":
            return []
        active = active_seat(state)
        return [seat for seat in state["seats"] if seat != active and claimable_goals(state, seat)]

    def out_of_turn(self, state: dict, seat: str) -> IllegalMove:
        rule = OUT_OF_TURN_RULES.get(state["phase"], "BOR-TURN-1")
        return IllegalMove("not_your_turn", f"the game is not waiting for {seat}", rule_id=rule)

    def legal_moves(self, state: dict, seat: str) -> list[dict]:
        return legal.legal_moves(state, seat, self.catalogue)

    def view(self, state: dict, reader: str | None) -> dict:
        return view.view(state, reader, self.catalogue)

    def secrets(self, state: dict) -> dict[str, set[str]]:
        return view.secrets(state)

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over" and not state["chance"]

    def final_score(self, state: dict) -> dict:
        return score_sheet(state, self.catalogue)

    def copy_state(self, state: dict) -> dict:
        return marshal.loads(marshal.dumps(state))
