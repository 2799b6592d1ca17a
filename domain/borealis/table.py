"""The shared table: animal deck, pool, discard pile, and the chance decisions that feed them.

The deck is never shuffled up front. Every draw is a chance node whose
candidates are the cards still in the deck, which is the same distribution as
drawing from a shuffled deck and leaves no hidden order to leak. Pending draws
wait in ``state["chance"]`` in the order the rules ask for them; the head of
that queue is the game's chance node.
"""
from __future__ import annotations

from domain.core import ChanceNode

POOL_SIZE = 4
HAND_SIZE = 4  # BOR-TURN-4: Observe plays 1 and takes 1, Reorganise discards k and draws k


def queue_hand_draw(state: dict, seat: str, count: int, purpose: str) -> None:
    if count:
        state["chance"].append({"kind": "hand", "seat": seat, "count": count, "purpose": purpose})


def queue_pool_fill(state: dict, slots: list[int], purpose: str) -> None:
    if slots:
        state["chance"].append({"kind": "pool", "slots": list(slots), "purpose": purpose})


def discard(state: dict, card_ids: list[str]) -> None:
    """BOR-DECK-1: one shared pile, face up, so every discarded card is public from now on."""
    state["discards"].extend(card_ids)
    state["shown"].extend(card_ids)


def settle_draws(state: dict) -> None:
    """Before the next draw: an empty deck takes the discard pile (BOR-DECK-2), or the draw is skipped (BOR-DECK-3).

    The reshuffle happens lazily, at the moment a draw finds the deck empty
    (§11 A9). As draws are chance nodes over the remaining cards, "shuffling"
    the pile only means its cards become the candidates of the next draw.
    """
    queue = state["chance"]
    while queue and queue[0]["kind"] in ("hand", "pool") and not state["deck"]:
        if state["discards"]:
            state["deck"] = sorted(state["discards"])  # BOR-DECK-2; cards in play never come back (BOR-DECK-4)
            state["discards"] = []
            state["reshuffles"] += 1
        else:
            queue.pop(0)  # BOR-DECK-3: nothing left to draw; the slot or hand stays short


def chance_node(state: dict, seats: list[str], board_ids: list[str], scoring_ids: list[str],
                goal_ids: dict[str, list[str]]) -> ChanceNode | None:
    if not state["chance"]:
        return None
    item = state["chance"][0]
    kind = item["kind"]
    if kind == "boards":
        # BOR-SETUP-1: each player gets a different side-II board; the outcome lists them in seat order.
        return ChanceNode("side_two_boards", tuple(board_ids), len(seats), label="side II board for each seat")
    if kind == "first_player":
        return ChanceNode("first_player", tuple(seats), 1, label="first player")  # BOR-SETUP-2
    if kind == "scoring_cards":
        return ChanceNode("scoring_cards", tuple(scoring_ids), 2, label="2 of the 10 scoring cards")  # BOR-SETUP-5
    if kind == "goal":
        # BOR-SETUP-6: one goal of each type.
        return ChanceNode(f"goal_{item['type']}", tuple(goal_ids[item["type"]]), 1, label=f"{item['type']} goal")
    deck = tuple(state["deck"])
    if kind == "pool":
        count = min(len(item["slots"]), len(deck))
        return ChanceNode("pool", deck, count, label="animal cards revealed into the pool",
                          details={"purpose": item["purpose"], "slots": item["slots"][:count]})
    count = min(item["count"], len(deck))
    return ChanceNode("hand", deck, count, visible_to=(item["seat"],), label=f"animal cards drawn by {item['seat']}",
                      details={"purpose": item["purpose"], "seat": item["seat"]})


def take_from_deck(state: dict, card_ids: list[str]) -> None:
    deck = state["deck"]
    for card_id in card_ids:
        deck.remove(card_id)


def resolve_draw(state: dict, item: dict, outcome: list[str]) -> None:
    """Put drawn cards where the pending draw said, keeping the rest of the draw pending if the deck ran out."""
    take_from_deck(state, outcome)
    if item["kind"] == "pool":
        for slot, card_id in zip(item["slots"], outcome, strict=False):
            state["pool"][slot] = card_id
        state["shown"].extend(outcome)
        item["slots"] = item["slots"][len(outcome):]
        finished = not item["slots"]
    else:
        state["players"][item["seat"]]["hand"].extend(outcome)
        item["count"] -= len(outcome)
        finished = item["count"] == 0
    if finished:
        state["chance"].pop(0)
