"""What a reader sees of a game, and which card tokens are secret to whom.

The dealt and kept setup cards, the event cards seen through the Mast upgrade and the parts' own secrets (a
peeked top card) are the game's hidden information; everything else on the table is public.
"""
from __future__ import annotations

from domain.core import ORGANISER
from domain.through_ice_and_snow import flow
from domain.through_ice_and_snow.board import State, event_number
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.setup import SETUP_STEPS


def view(state: State, reader: str | None) -> dict:
    everything = reader == ORGANISER
    revealed = state["step"] not in SETUP_STEPS
    game = state["parts"]
    dealt_cards = game.hooks("dealt_cards")
    players = []
    for seat, player in zip(state["seats"], state["players"], strict=True):
        own = everything or reader == seat
        hidden = {"investor", "investor_dealt", "carto", "carto_dealt"}
        hidden.update(key for pair in dealt_cards for key in pair)
        shown = {key: value for key, value in player.items() if key not in hidden}
        shown["seat"] = seat
        for chosen, dealt in dealt_cards:
            if dealt in player:
                shown[chosen] = player[chosen] if own or revealed else None
                shown[dealt] = player[dealt] if own else len(player[dealt])
        shown["investor"] = player["investor"] if own or revealed else None
        shown["investor_dealt"] = player["investor_dealt"] if own else len(player["investor_dealt"])
        shown["carto"] = player["carto"] if own else None
        shown["carto_dealt"] = player["carto_dealt"] if own else len(player["carto_dealt"])
        players.append(shown)
    seats = state["seats"]
    return {
        "round": state["round"], "phase": flow.phase(state), "step": state["step"],
        "final_voyage": state["final_voyage"],
        "helm": None if state["helm"] is None else seats[state["helm"]],
        "leader": None if state["leader"] is None else seats[state["leader"]],
        "turn": None if state["turn"] is None else seats[state["turn"]],
        "anchor": state["anchor"], "destination": state["destination"], "sections": state["sections"],
        "dynamite_on": state["dynamite_on"], "mapped": state["mapped"], "cabins_on": state["cabins_on"],
        "revealed": state["revealed"], "event": state["event"], "event_card": _event_card(state),
        "event_taken": None if state["event_taken"] is None else seats[state["event_taken"]],
        "event_species": state["event_species"], "discovered": state["discovered"],
        "warehouses": state["warehouses"], "used": {space: seats[who] for space, who in state["used"].items()},
        "deck_sizes": {name: len(deck) for name, deck in state["decks"].items()},
        "discards": state["discards"], "supply": state["supply"], "tiles": state["tiles"],
        "pending": [{**entry, "seat": seats[entry["seat"]]} for entry in state["pending"]],
        "over": state["over"], "players": players,
        "bottom_of_decks": {deck: len(cards) for deck, cards in state["bottom"].items()},
        "shoal_of_fish": state["shoal_of_fish"], "freezing_wind": state["freezing_wind"],
        "known_events": sorted(_known_events(state, seats.index(reader))) if reader in seats else [],
        "seen_on_top": sorted(card for hook in game.hooks("secret_cards")
                              for card in hook(state).get(seats.index(reader), ())) if reader in seats else [],
        "removed_events": state["removed_events"] if everything else len(state["removed_events"]),
        **{key: state[key] for key in game.hooks("public_keys") if key in state},
    }


def _event_card(state: State) -> dict | None:
    if state["event"] is None:
        return None
    card = CAT.events[event_number(state["event"])]
    return {"number": card["number"], "name": card["name"], "action_crew": card.get("crew")}


def secrets(state: State) -> dict[str, set[str]]:
    revealed = state["step"] not in SETUP_STEPS
    game = state["parts"]
    dealt_cards = game.hooks("dealt_cards")
    result = {}
    for index, (seat, player) in enumerate(zip(state["seats"], state["players"], strict=True)):
        tokens = set(player["carto_dealt"]) | set(player["investor_dealt"]) | _known_events(state, index)
        for chosen, dealt in dealt_cards:
            tokens.update(player.get(dealt, ()))
            if revealed:
                tokens.discard(player.get(chosen))
        if revealed:
            tokens.discard(player["investor"])
        for hook in game.hooks("secret_cards"):
            tokens |= hook(state).get(index, set())
        result[seat] = tokens
    if revealed:
        # a kept Legendary card is public once revealed, even where another seat also knows where it lies
        public = {player.get(chosen) for player in state["players"] for chosen, _ in dealt_cards}
        result = {seat: tokens - public for seat, tokens in result.items()}
    return result


def _known_events(state: State, seat: int) -> set[str]:
    """Event cards only this seat has seen (Mast upgrade): the pair it is choosing from, then the card it put
    on the bottom of a deck."""
    known = set(state["peek"]) if state["peek"] and state["leader"] == seat else set()
    in_decks = set(state["decks"]["coastal"]) | set(state["decks"]["open_sea"])
    known.update(card for card, seen_by in state["peeked"].items() if seen_by == [seat] and card in in_decks)
    return known
