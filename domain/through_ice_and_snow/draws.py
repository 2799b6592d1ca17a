"""The draw the game waits for: the cards it may give, how many, and who sees them.

A draw is a chance node: the state holds which deck and how many cards, never an order, so the candidates are the
cards still in the deck (less those a rule keeps back) and the organiser or the server picks among them.
"""
from __future__ import annotations

from domain.core import ChanceNode
from domain.through_ice_and_snow.board import State, drawable


def chance_node(state: State) -> ChanceNode | None:
    node = state["chance"]
    if node is None:
        return None
    if node["key"] == "helm_tie":
        return ChanceNode("helm_tie", tuple(state["seats"][seat] for seat in node["seats"]), 1,
                          label="TIS-SETUP-18: the tied player who takes the helm")
    seat = node.get("seat")
    deck = node["deck"]
    # a part's deck whose drawable cards are not simply every card left (the compass deck's bottom 5)
    own = state["parts"].table("candidates")
    candidates = drawable(state, deck) if deck in ("coastal", "open_sea") and node["key"] != "extra_removal" \
        else own[deck](state) if deck in own else state["decks"][deck]
    visible_to = () if node.get("hidden") else None if seat is None else (state["seats"][seat],)
    count = node["count"]
    top = state["known_top"].get(deck)
    if top is not None:
        # a card known to be on top (Kellett, TIS-LEG-6) comes first: the draw is that card and count - 1 more
        candidates = [top] if count == 1 else [card for card in candidates if card != top]
        count = max(1, count - 1)
    return ChanceNode(node["key"], tuple(candidates), count, visible_to=visible_to,
                      label=f"draw from the {node['deck']} deck", details={"deck": node["deck"]})
