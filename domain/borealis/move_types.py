"""Every move a Borealis player makes, with its fields and the rule it belongs to (rules/borealis.md)."""
from __future__ import annotations

from domain.core.move_types import Field, MoveType, MoveTypes

DISCARDS = Field("discard_card_ids", "array", "the cards discarded, 0-4 of your hand", items="string")

MOVES = MoveTypes((
    MoveType("mulligan", "Once, during setup: discard 0-4 cards of the starting hand face up and draw as many.",
             "BOR-SETUP-12", (DISCARDS,)),
    MoveType("observe", "Your action: play a card from your hand to a location whose scientists match it.",
             "BOR-OBS-1", (Field("card_id", "string", "a card in your hand"),
                           Field("location", "string", "the location it is observed at: LEFT, MIDDLE or RIGHT"))),
    MoveType("reorganise", "Your action: discard 0-4 cards and move your scientists back from the camps.",
             "BOR-REO-1", (DISCARDS, Field("target_location", ("string", "null"), "where the scientists go, when "
                                           "some are in the camps", required=False))),
    MoveType("refresh_pool", "Before taking a card: pay to replace the pool.", "BOR-OBS-4"),
    MoveType("take_card", "After observing: take a pool card into your hand.", "BOR-OBS-4",
             (Field("pool_slot", "integer", "the pool slot, 0-3"),)),
    MoveType("draw_blind", "After observing: take the top card of the deck instead.", "BOR-OBS-4"),
    MoveType("claim_goal", "Manual goal claims: claim a goal whose requirement you have met, at any time during "
             "play, in or out of turn (BOR-GOAL-6).", "BOR-GOAL-5", (Field("goal_id", "string", "the goal claimed"),)),
    MoveType("choose_farewell_location", "With Farewell Party: name one location before scoring.", "BOR-END-3",
             (Field("location", "string", "the location named: LEFT, MIDDLE or RIGHT"),)),
))
