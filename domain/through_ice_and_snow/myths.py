"""Inuit Myths module (spec 8.5, TIS-MYTH): creature cards revealed on reaching an island, each hampering the
expedition until its action is taken or the round is over; ship upgrade 14 protects from cards 39-43.

Played with the option ``inuit_myths``. The cards are creatures.json; their action spaces (Build an inukshuk,
Visit the shaman) are in action_board.json marked with this module.
"""
from __future__ import annotations

from domain.core.canonical import canonical_json
from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions, flow
from domain.through_ice_and_snow.board import State, owned, pay
from domain.through_ice_and_snow.catalogue import CAT, OFFICERS, RESOURCES
from domain.through_ice_and_snow.tracks import has_upgrade, lower_track

OPTION = "inuit_myths"
FIELD = "creature_payment"
IJIRAQ, CURSE = 37, 38


def card_id(number: int) -> str:
    return f"cr{number}"


def add_state(state: State) -> None:
    """TIS-MYTH-1: the creature deck (8 cards, drawn one at a time), the creature token aside, upgrade 14."""
    state["decks"]["creature"] = sorted(card_id(number) for number in CAT.creatures)
    state["myths"] = {"token": None, "active": [], "shaman": []}
    for tile in CAT.upgrades.values():
        if tile["set"] == OPTION:
            state["tiles"][str(tile["number"])] = tile["copies"]
    for player in state["players"]:
        player.update(ijiraq=0, cursed=False)


def card_setup(state: State, base: flow.Step) -> bool:
    """TIS-MYTH-2: at the start of Card setup, a fleet on an island region without the creature token brings the
    token there and reveals the top creature card (none once the deck is empty, ASSUMED)."""
    anchor = CAT.anchors[state["anchor"]]
    if anchor["island"] and state["myths"]["token"] != anchor["region"]:
        state["myths"]["token"] = anchor["region"]
        if state["decks"]["creature"]:
            state["chance"] = {"key": "creature", "deck": "creature", "count": 1}
            return True
    return base(state)


def revealed(state: State, node: dict, outcome: list[str]) -> None:
    """TIS-MYTH-3: card 37 takes every Inuk pawn onto the card; card 38 curses every player."""
    number = int(outcome[0][2:])
    state["myths"]["active"].append(number)
    for player in state["players"]:
        if number == IJIRAQ:
            player["ijiraq"] += player["crew"]["inuk"]
            player["crew"]["inuk"] = player["free"]["inuk"] = 0
        elif number == CURSE:
            player["cursed"] = True
    if number == CURSE:
        state["myths"]["shaman"] = []


def held_by_ijiraq(state: State, player: dict, count: int) -> int:
    """TIS-MYTH-3 card 37: while it is in play, every Inuk a player receives goes onto the card (not fed)."""
    if IJIRAQ in state["myths"]["active"]:
        player["ijiraq"] += count
        return 0
    return count


def refusal(state: State, seat: int, space_id: str) -> actions.IllegalMove | None:
    """The creature cards' own actions exist while their card is in play; each player visits the shaman once."""
    if space_id == actions.EVENT_SPACE or CAT.spaces[space_id].get("module") != OPTION:
        return None
    number = next(number for number, card in CAT.creatures.items() if card.get("action") == space_id)
    if number not in state["myths"]["active"]:
        return actions.refuse("no_creature", f"creature card {number} is not in play", "TIS-MYTH-3", "space")
    if number == CURSE and seat in state["myths"]["shaman"]:
        return actions.refuse("shaman_visited", "you have already visited the shaman", "TIS-MYTH-3", "space")
    return None


def build_inukshuk(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """Card 37's action: the 2 crew placed and every Inuk on the card go to their owners' sick bays (they come
    back at Boarding); the card leaves play."""
    for other in state["players"]:
        other["crew"]["inuk"] += other["ijiraq"]
        other["ijiraq"] = 0
    state["myths"]["active"].remove(IJIRAQ)


def visit_shaman(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """Card 38's action (2 crew, ASSUMED; every player once): the curse cylinder goes back to the box; the card
    leaves play when every player has visited."""
    player["cursed"] = False
    state["myths"]["shaman"].append(seat)
    if len(state["myths"]["shaman"]) == state["n"]:
        state["myths"]["active"].remove(CURSE)


def acting_officer(state: State, seat: int, command: dict) -> str | None:
    """TIS-AMB-13: the officer an action-board action is performed with: the officer in its named slot, or the
    role a substitute acts as (TIS-ACT-61); an Inuk or sailor in the slot, or no slot, is no officer."""
    lead = command["lead"]
    if lead is None or command["space"] == actions.EVENT_SPACE:
        return None
    extra = actions.space_choice(state, command)
    named = {kind for option_lead, _, _ in actions.requirements(state, seat, command["space"], extra)
             for kind in option_lead or ()}
    if lead in named:
        return lead if lead in OFFICERS else None
    return next((kind for kind in OFFICERS if kind in named), None)


def hampering(state: State, seat: int) -> list[dict]:
    """The creature cards in play that hamper this player (upgrade 14 protects from those marked)."""
    immune = has_upgrade(state["players"][seat], "ritual_room")
    return [CAT.creatures[number] for number in state["myths"]["active"]
            if not (immune and CAT.creatures[number].get("ritual_room"))]


def sedna(state: State, seat: int, space_id: str, options: list) -> list:
    """Card 39: actions done with the carpenter need 1 more crew, which counts for nothing in the effect."""
    extra = sum(card["amount"] for card in hampering(state, seat) if card["effect"] == "extra_crew")
    if not extra:
        return options
    adjusted = []
    for lead, low, high in options:
        if lead and "carpenter" in lead:
            adjusted.append((("carpenter",), low + extra, high + extra))
            others = tuple(kind for kind in lead if kind != "carpenter")
            if others:
                adjusted.append((others, low, high))
        else:
            adjusted.append((lead, low, high))
    return adjusted


def uncounted(state: State, seat: int, command: dict) -> int:
    extra = sum(card["amount"] for card in hampering(state, seat) if card["effect"] == "extra_crew")
    return extra if extra and acting_officer(state, seat, command) == "carpenter" else 0


def dues(state: State, seat: int, command: dict) -> list[dict]:
    """The cards 40-42 whose requirement this move must also meet."""
    officer = acting_officer(state, seat, command)
    return [card for card in hampering(state, seat)
            if card.get("officer") == officer and card["effect"] in ("dynamite_or_rifles", "food", "resource")]


def payable(state: State, seat: int, move: dict, base_moves) -> list[dict]:
    """The move as cards 40-42 allow it: the extra dynamite (unless 5 rifles are owned), 4 food, or one
    resource of the player's choice (a ``creature_payment`` variant per resource), each leaving the action's own
    requirements met."""
    player = state["players"][seat]
    variants = [move]
    for card in dues(state, seat, move):
        if card["effect"] == "food":
            variants = variants if player["food"] >= card["amount"] else []
        elif card["effect"] == "dynamite_or_rifles" and player["rifle"] < card["rifles"]:
            variants = [variant for variant in variants if still_valid(state, seat, variant, "dynamite", base_moves)]
        elif card["effect"] == "resource":
            variants = [{**variant, FIELD: kind} for variant in variants for kind in RESOURCES
                        if still_valid(state, seat, variant, kind, base_moves)]
    return variants


def still_valid(state: State, seat: int, move: dict, kind: str, base_moves) -> bool:
    """Whether the move stays open once one more ``kind`` is paid (with what the move itself pays)."""
    player = state["players"][seat]
    key = "dogs" if kind == "dog" else kind
    if owned(player, kind) < 1:
        return False
    player[key] -= 1
    try:
        plain = canonical_json({name: value for name, value in move.items() if name != FIELD})
        return any(canonical_json(other) == plain for other in base_moves(state, seat, move["space"]))
    finally:
        player[key] += 1


def filter_moves(state: State, seat: int, space_id: str, moves: list[dict], base_moves) -> list[dict]:
    if not hampering(state, seat):
        return moves
    return [variant for move in moves for variant in payable(state, seat, move, base_moves)]


def check(state: State, seat: int, command: dict) -> None:
    """TIS-MYTH-3: a creature's added requirement must be met in full, or the action cannot be taken."""
    if not hampering(state, seat) and FIELD not in command:
        return
    key = canonical_json(command)
    if not any(canonical_json(move) == key for move in actions.space_moves(state, seat, command["space"])):
        raise actions.refuse("creature_requirement", "a creature card in play adds a requirement this action "
                             "does not meet (or the creature_payment is not due or not payable)", "TIS-MYTH-3",
                             FIELD if FIELD in command else "space")


def pay_dues(state: State, seat: int, command: dict) -> None:
    """TIS-MYTH-3 cards 40-44, paid as the action is taken. Card 43's health loss applies no Scurvy, card 44's
    morale loss no Mutiny; Death applies (TIS-AMB-5)."""
    cards = hampering(state, seat)
    if not cards:
        return
    player = state["players"][seat]
    officer = acting_officer(state, seat, command)
    placed = (command["lead"] is not None) + sum(command["crew"].values())
    for card in cards:
        effect = card["effect"]
        if card.get("officer") is not None and card["officer"] != officer:
            continue
        if effect == "dynamite_or_rifles" and player["rifle"] < card["rifles"]:
            pay(state, player, "dynamite", card["amount"])
        elif effect == "food":
            player["food"] -= card["amount"]
        elif effect == "resource":
            pay(state, player, command[FIELD])
        elif effect == "health":
            lower_track(state, seat, "health", card["amount"], effects=False)
        elif effect == "morale" and placed <= card["max_crew"]:
            lower_track(state, seat, "morale", card["amount"], effects=False)


def cleanup(state: State, base: flow.Step) -> bool:
    """TIS-MYTH-3: cards 39-44 leave play at Cleanup."""
    state["myths"]["active"] = [number for number in state["myths"]["active"]
                                if CAT.creatures[number]["duration"] != "round"]
    return base(state)


PART = RulePart(
    OPTION,
    hooks={"new_state": (add_state,), "public_keys": ("myths",), "inuit_arrival": (held_by_ijiraq,),
           "refusals": (refusal,), "requirements": ((sedna, "TIS-MYTH-3"),), "uncounted_crew": (uncounted,),
           "move_filters": (filter_moves,), "move_fields": (FIELD,), "action_checks": (check,),
           "before_effect": (pay_dues,)},
    entries={"chance_handlers": {"creature": revealed},
             "effects": {"build_inukshuk": build_inukshuk, "visit_shaman": visit_shaman}},
    wraps={"steps": {"card_setup": card_setup, "cleanup": cleanup}},
)
