"""Borealis: Arctic Expeditions as a Cairn game (rules: ../shared/rules/borealis.md)."""
from __future__ import annotations

import marshal

from domain.borealis import board as boards
from domain.borealis import flow, moves, table
from domain.borealis.catalogue import Catalogue, load_catalogue
from domain.borealis.move_types import MOVES
from domain.borealis.scoring import achievements, ranking, score_player
from domain.core import ORGANISER, ChanceNode, IllegalMove, Rules, full_data

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


class Borealis(Rules):
    name = "borealis"
    title = "Borealis: Arctic Expeditions"
    rules_version = "1"
    player_counts = (2, 3, 4)
    declared_moves = MOVES

    def __init__(self, catalogue: Catalogue | None = None):
        self.catalogue = catalogue or load_catalogue()
        self.options_schema = options_schema(self.catalogue)
        self._goal_ids = {kind: self.catalogue.goals_of_type(kind) for kind in flow.GOAL_TYPES}
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
        state = flow.new_state(created)
        flow.open_setup(state, self.catalogue)
        return state

    def event_types(self) -> frozenset[str]:
        return MOVE_EVENTS

    def apply(self, state: dict, event: dict) -> dict:
        kind = event["type"]
        data = full_data(event)
        seat = event.get("seat")
        if kind == "chance_resolved":
            item = state["chance"][0]
            if item["kind"] in ("hand", "pool"):
                table.resolve_draw(state, item, data["outcome"])
            else:
                flow.resolve_setup_choice(state, item, data["outcome"])
        else:
            self._apply_move(state, kind, seat, data)
        table.settle_draws(state)
        flow.advance_phase(state)
        return state

    def _apply_move(self, state: dict, kind: str, seat: str, data: dict) -> None:
        player = state["players"].get(seat)
        if kind == "mulligan":
            self._discard_from_hand(state, player, data["discard_card_ids"])  # BOR-SETUP-12
            table.queue_hand_draw(state, seat, len(data["discard_card_ids"]), "mulligan")
            player["mulligan"] = data["discard_card_ids"]
        elif kind == "card_observed":
            card = self.catalogue.cards[data["card_id"]]
            player["hand"].remove(card.card_id)
            boards.observe(player, card, data["location"], self.catalogue.boards[player["board"]][data["location"]])
            flow.check_end_trigger(state, seat)
            flow.latch_goals(state, seat, self.catalogue, 0)
            state["step"] = "take"
        elif kind == "pool_refreshed":
            player["token_stars"] -= data["paid"]
            table.discard(state, data["discard_card_ids"])
            state["pool"] = [None] * table.POOL_SIZE
            table.queue_pool_fill(state, list(range(table.POOL_SIZE)), "refresh")
            state["refreshed_this_turn"] = True
            state["refreshed"].append(seat)
        elif kind == "card_taken":
            slot = data["pool_slot"]
            player["hand"].append(state["pool"][slot])
            state["pool"][slot] = None
            table.queue_pool_fill(state, [slot], "refill")
        elif kind == "blind_draw":
            table.queue_hand_draw(state, seat, 1, "blind_draw")
        elif kind == "reorganised":
            self._discard_from_hand(state, player, data["discard_card_ids"])  # BOR-REO-1
            table.queue_hand_draw(state, seat, len(data["discard_card_ids"]), "reorganise")  # BOR-REO-2
            returned = boards.reorganise(player, data["target_location"])
            flow.latch_goals(state, seat, self.catalogue, returned)
        elif kind == "goal_claimed":
            flow.claim_goal(state, seat, data["goal_id"], data["stars"])
        elif kind == "turn_ended":
            flow.end_turn(state)
        elif kind == "farewell_location_chosen":
            player["farewell"] = data["location"]
            if all(p["farewell"] for p in state["players"].values()):
                state["phase"] = "over"

    @staticmethod
    def _discard_from_hand(state: dict, player: dict, card_ids: list[str]) -> None:
        for card_id in card_ids:
            player["hand"].remove(card_id)
        table.discard(state, card_ids)

    def decide(self, state: dict, seat: str, command: dict) -> list[dict]:
        return moves.decide(state, seat, command, self.catalogue)

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
        return [flow.active_seat(state)]

    # BOR-GOAL-5: in manual mode any player claims a goal at any time during play; decide names the rule
    # that refuses a claim, whoever's turn it is.
    out_of_turn_moves = frozenset({"claim_goal"})

    def may_act(self, state: dict) -> list[str]:
        """BOR-GOAL-6 ``manual``: the other players with a goal to claim."""
        if state["phase"] != "play" or state["options"]["goal_claim_mode"] != "manual":
            return []
        active = flow.active_seat(state)
        return [seat for seat in state["seats"] if seat != active and flow.claimable_goals(state, seat)]

    def out_of_turn(self, state: dict, seat: str) -> IllegalMove:
        rule = OUT_OF_TURN_RULES.get(state["phase"], "BOR-TURN-1")
        return IllegalMove("not_your_turn", f"the game is not waiting for {seat}", rule_id=rule)

    def legal_moves(self, state: dict, seat: str) -> list[dict]:
        return moves.legal_moves(state, seat, self.catalogue)

    def view(self, state: dict, reader: str | None) -> dict:
        players = {}
        for seat, player in state["players"].items():
            sees_hand = reader in (seat, ORGANISER)
            players[seat] = {
                "board": player["board"],
                "hand": list(player["hand"]) if sees_hand else None,
                "hand_count": len(player["hand"]),
                "stacks": player["stacks"],
                "scientists": player["scientists"],
                "flags": player["flags"],
                "token_stars": player["token_stars"],
                "mulligan_done": player["mulligan"] is not None,
                "goals_met": player["goals_met"],
                "goals_claimed": player["goals_claimed"],
                "farewell_location": player["farewell"],
            }
        return {
            "phase": state["phase"],
            "round": state["round"],
            "first_player": state["first_player"],
            "turn_order": state["order"],
            "active_seat": flow.active_seat(state),
            "step": state["step"] if state["phase"] == "play" else None,
            "end_triggered": state["end_triggered"],
            "pool": state["pool"],
            "discard_pile": state["discards"],
            "deck_count": len(state["deck"]),
            "reshuffles": state["reshuffles"],
            "scoring_cards": state["scoring_cards"],
            "goals": [
                {**goal, "title": self.catalogue.goals[goal["goal_id"]].title,
                 "tokens_left": 0 if goal["removed"] else len(state["seats"]) - len(goal["claimed_by"])}
                for goal in state["goals"]
            ],
            "refreshed_this_round": state["refreshed"],
            "options": state["options"],
            "players": players,
        }

    def secrets(self, state: dict) -> dict[str, set[str]]:
        """Hand cards whose face the table has not seen.

        A card once face up (in the pool or on the discard pile) is a token
        every reader already holds; which hand it is in now stays hidden (views
        show other hands as counts), but its id cannot be a secret token any more.
        """
        shown = set(state["shown"])
        return {seat: {card for card in player["hand"] if card not in shown} for seat, player in
                state["players"].items()}

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over" and not state["chance"]

    def final_score(self, state: dict) -> dict:
        scores = [
            score_player(seat, state["players"][seat], state["scoring_cards"], self.catalogue,
                         state["players"][seat]["farewell"])
            for seat in state["seats"]
        ]
        places, tie_breaks = ranking(scores)
        winners = set(places[0]["seats"])
        return {
            "outcome": "ranked",
            "lines": [line for score in scores for line in score.parts],
            "totals": {score.seat: score.total for score in scores},
            "ranking": places,
            "tie_breaks": tie_breaks,
            "achievements": {
                score.seat: achievements(score, state["players"][score.seat], self.catalogue,
                                         score.seat in winners, len(state["players"][score.seat]["goals_claimed"]))
                for score in scores
            },
        }

    def copy_state(self, state: dict) -> dict:
        return marshal.loads(marshal.dumps(state))
