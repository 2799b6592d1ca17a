"""Legendary Expeditions (spec 8.6, TIS-LEG): the ship cards. Each player is dealt 2, keeps 1, and gains its
reward each time they build a ship upgrade with the Ship Upgrade action.

Switched on by the option ``legendary_expeditions`` listing the card types used (TIS-LEG-1); only ``"ships"`` is
implemented: explorers (TIS-LEG-6) and explorer events (TIS-LEG-7) are refused. Ship data: legendary.json.
"""
from __future__ import annotations

from domain.core import IllegalMove, make_event
from domain.through_ice_and_snow import actions, board, flow
from domain.through_ice_and_snow.board import State, gain, score
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.tracks import raise_food, raise_track

OPTION = "legendary_expeditions"
SHIPS = {ship["id"]: ship for ship in CAT.legendary["ships"]}
COMMAND = "choose_legendary_card"


def ships_used(state: State) -> bool:
    return "ships" in state["options"].get(OPTION, [])


def add_state(state: State) -> None:
    """TIS-LEG-3: the ship deck (drawn, never shuffled up front)."""
    if not ships_used(state):
        return
    state["decks"]["ship"] = sorted(SHIPS)
    state["legendary_deal"] = 0
    for player in state["players"]:
        player.update(ship=None, ship_dealt=[])


def deal(state: State) -> bool:
    """TIS-LEG-2 / TIS-LEG-3: 2 ship cards to each player, each draw seen by its seat only."""
    if not ships_used(state) or state["legendary_deal"] >= state["n"]:
        return False
    state["chance"] = {"key": "deal_ship", "deck": "ship", "count": CAT.legendary["dealt"],
                       "seat": state["legendary_deal"]}
    return True


def dealt(state: State, node: dict, outcome: list[str]) -> None:
    state["players"][node["seat"]]["ship_dealt"] = list(outcome)
    state["legendary_deal"] += 1


def owed(state: State, seat: int) -> list[dict]:
    """TIS-LEG-3 / TIS-CMD-4: keep one dealt ship card (with the investor choice, hidden until all have chosen)."""
    player = state["players"][seat]
    if not ships_used(state) or player["ship"] is not None:
        return []
    return [{"type": COMMAND, "kind": "ship", "card": card} for card in player["ship_dealt"]]


def choose(state: State, seat: int, command: dict) -> dict:
    if command not in owed(state, seat):
        raise IllegalMove("not_dealt", "keep one of the ship cards dealt to you (kind 'ship')", rule_id="TIS-CMD-4",
                          field="card")
    return make_event("legendary_card_chosen", {"kind": "ship"}, secret={"card": command["card"]},
                      secret_to=[state["seats"][seat]])


def chosen(state: State, seat: int, data: dict) -> None:
    """The other card goes back to the box, never shown."""
    state["players"][seat]["ship"] = data["card"]


def ship_upgrade(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-LEG-3 / GAP-14: the ship card's reward, on top of the slot bonus, for a tile built with this action
    (tiles placed otherwise, like the Epidemic's free tile, give none)."""
    BASE_UPGRADE(state, seat, player, space, command, placed)
    if player.get("ship") is None:
        return
    for key, amount in SHIPS[player["ship"]]["reward"].items():
        if key == "vp":
            score(player, amount)
        elif key == "food":
            raise_food(player, amount)
        elif key in ("fuel", "health", "morale"):
            raise_track(player, key, amount)
        else:
            gain(state, player, key, amount)


BASE_UPGRADE = actions.EFFECTS["ship_upgrade"]
actions.EFFECTS["ship_upgrade"] = ship_upgrade
board.NEW_STATE.append(add_state)
board.PUBLIC_KEYS.append("legendary_deal")
board.DEALT_CARDS.append(("ship", "ship_dealt"))
flow.SETUP_DRAWS.append(deal)
flow.CHANCE_HANDLERS["deal_ship"] = dealt
flow.SETUP_CHOICES.append(owed)
flow.SETUP_COMMANDS[COMMAND] = choose
flow.EVENTS["legendary_card_chosen"] = chosen
