"""A tiny game for testing the engine itself: every interface feature, no real rules.

Each seat is dealt one secret card from ten; in seat order each either keeps
it or swaps it for a new one once; then everyone must say "ready" (a decision
each seat makes out of turn); the highest card wins.
"""
from __future__ import annotations

from domain.core import ChanceNode, IllegalMove, Rules, full_data, make_event
from domain.core.commands import unknown_move
from domain.core.move_types import Field, MoveType, MoveTypes

CARDS = tuple(f"card-{n}" for n in range(1, 11))


class HighCard(Rules):
    name = "high-card"
    title = "High Card"
    rules_version = "1"
    player_counts = (2, 3)
    options_schema = {
        "type": "object",
        "properties": {"swaps": {"type": "integer", "minimum": 0, "maximum": 1, "default": 1}},
        "additionalProperties": False,
    }
    declared_moves = MoveTypes((
        MoveType("keep", "Keep your card.", None),
        MoveType("swap", "Swap your card for a new one (HC-2).", "HC-1",
                 (Field("card", "string", "the card in your hand"),)),
        MoveType("ready", "Confirm the end.", None),
    ))

    def setup(self, created):
        seats = [seat["seat"] for seat in created["seats"]]
        return {"seats": seats, "hands": {}, "deck": list(CARDS), "turn": 0, "phase": "deal",
                "discards": [], "swaps": created["options"]["swaps"], "ready": []}

    def event_types(self):
        return frozenset({"card_kept", "card_swapped", "ready"})

    def apply(self, state, event):
        data = full_data(event)
        if event["type"] == "chance_resolved":
            card = data["outcome"][0]
            state["deck"].remove(card)
            missing = [seat for seat in state["seats"] if seat not in state["hands"]]
            state["hands"][missing[0]] = card
            if state["phase"] == "deal" and len(state["hands"]) == len(state["seats"]):
                state["phase"] = "choose"
            elif state["phase"] == "swapping":
                state["phase"] = "choose"
                state["turn"] += 1
        elif event["type"] == "card_kept":
            state["turn"] += 1
        elif event["type"] == "card_swapped":
            state["discards"].append(data["card"])
            del state["hands"][event["seat"]]
            state["phase"] = "swapping"
        elif event["type"] == "ready":
            state["ready"].append(event["seat"])
        if state["phase"] == "choose" and state["turn"] == len(state["seats"]):
            state["phase"] = "confirm"
        return state

    def chance_node(self, state):
        if state["phase"] == "deal":
            seat = state["seats"][len(state["hands"])]
        elif state["phase"] == "swapping":
            seat = state["seats"][state["turn"]]
        else:
            return None
        return ChanceNode("deal", tuple(state["deck"]), 1, visible_to=(seat,))

    def to_act(self, state):
        if state["phase"] == "choose":
            return [state["seats"][state["turn"]]]
        if state["phase"] == "confirm":
            return [seat for seat in state["seats"] if seat not in state["ready"]]
        return []

    def decide(self, state, seat, command):
        kind = command["type"]
        if state["phase"] == "confirm":
            if kind != "ready":
                raise unknown_move(command, {"ready"})
            return [make_event("ready")]
        if kind == "keep":
            return [make_event("card_kept")]
        if kind == "swap":
            if state["swaps"] == 0:
                raise IllegalMove("no_swaps", "this game allows no swaps", rule_id="HC-1")
            card = command["card"]
            if card != state["hands"][seat]:
                raise IllegalMove("not_in_hand", "that card is not in your hand", rule_id="HC-2", field="card")
            return [make_event("card_swapped", {"card": card})]
        raise unknown_move(command, {"keep", "swap"})

    def legal_moves(self, state, seat):
        if state["phase"] == "confirm":
            return [{"type": "ready"}]
        moves = [{"type": "keep"}]
        if state["swaps"]:
            moves.append({"type": "swap", "card": state["hands"][seat]})
        return moves

    def view(self, state, reader):
        hands = {seat: (card if reader in (seat, "organiser") else None) for seat, card in state["hands"].items()}
        return {"hands": hands, "discards": state["discards"], "phase": state["phase"],
                "deck_size": len(state["deck"])}

    def secrets(self, state):
        return {seat: {card} for seat, card in state["hands"].items()}

    def is_over(self, state):
        return state["phase"] == "confirm" and len(state["ready"]) == len(state["seats"])

    def final_score(self, state):
        totals = {seat: int(card.split("-")[1]) for seat, card in state["hands"].items()}
        order = sorted(totals, key=totals.get, reverse=True)
        return {"outcome": "ranked", "totals": totals,
                "lines": [{"seat": s, "rule": "HC-3", "label": "card", "points": p} for s, p in totals.items()],
                "ranking": [{"rank": i + 1, "seats": [s]} for i, s in enumerate(order)], "tie_breaks": []}


RULES = HighCard()
