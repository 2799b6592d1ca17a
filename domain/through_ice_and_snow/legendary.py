"""Legendary Expeditions (spec 8.6, TIS-LEG): ship cards and explorer events. Each player is dealt 2 of each
type used, keeps 1; a ship rewards every upgrade built, a kept explorer event joins its voyage deck.

Played with the option ``legendary_expeditions`` listing the card types used (TIS-LEG-1), and in Amundsen's
Voyage, which has Legendary cards of its own (the Gjøa, explorer event 53): so its hooks look at the cards in
play. The explorers' abilities are explorers.py's. Ship data: legendary.json; explorer events: events.json (45-54
with their decks, GAP-13).
"""
from __future__ import annotations

from domain.core import Event, IllegalMove, make_event
from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions, flow, voyage
from domain.through_ice_and_snow.board import State, event_number, owned, pay
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.tracks import lower_track, scurvy_like

OPTION = "legendary_expeditions"
SHIPS = {ship["id"]: ship for ship in CAT.legendary["ships"]}
EXPLORER_EVENTS = sorted(f"ev{number:02d}" for numbers in CAT.legendary_decks.values() for number in numbers)
# card kind (command field) -> (option value, deck, player key of the kept card)
KINDS = {"explorer": ("explorers", "explorer", "explorer"), "ship": ("ships", "ship", "ship"),
         "event": ("explorer_events", "explorer_event", "explorer_event")}
EXPLORERS = {explorer["id"]: explorer for explorer in CAT.legendary["explorers"]}
DECK_CARDS = {"explorer": sorted(EXPLORERS), "ship": sorted(SHIPS), "explorer_event": EXPLORER_EVENTS}
COMMAND = "choose_legendary_card"
RESCUE_CARD = 51


def used(state: State) -> list[str]:
    """The kinds of Legendary cards this game uses (TIS-LEG-1)."""
    return [kind for kind, (option, _, _) in KINDS.items() if option in state["options"].get(OPTION, [])]


def add_state(state: State) -> None:
    """TIS-LEG-2..4: the decks of the card types used (drawn, never shuffled up front)."""
    if not used(state):
        return
    state["legendary"] = {"dealt": 0, "inserted": [], "spare_sailors": []}
    for kind in used(state):
        _, deck, key = KINDS[kind]
        state["decks"][deck] = list(DECK_CARDS[deck])
        for player in state["players"]:
            player.update({key: None, f"{key}_dealt": []})


def deal(state: State) -> bool:
    """TIS-LEG-2 / TIS-LEG-3 / TIS-LEG-4: 2 cards of each type used to each player, seen by that seat only."""
    kinds = used(state)
    done = state["legendary"]["dealt"] if kinds else 0
    if done >= state["n"] * len(kinds):
        return False
    kind = kinds[done // state["n"]]
    state["chance"] = {"key": f"deal_{kind}", "deck": KINDS[kind][1], "count": CAT.legendary["dealt"],
                       "seat": done % state["n"], "kind": kind}
    return True


def dealt(state: State, node: dict, outcome: list[str]) -> None:
    state["players"][node["seat"]][f"{KINDS[node['kind']][2]}_dealt"] = list(outcome)
    state["legendary"]["dealt"] += 1


def owed(state: State, seat: int) -> list[dict]:
    """TIS-LEG-2..4 / TIS-CMD-4: keep one dealt card of each type (with the investor choice, hidden until all
    have chosen)."""
    player = state["players"][seat]
    return [{"type": COMMAND, "kind": kind, "card": card} for kind in used(state) if player[KINDS[kind][2]] is None
            for card in player[f"{KINDS[kind][2]}_dealt"]]


def choose(state: State, seat: int, command: dict) -> Event:
    if not actions.offered(command, owed(state, seat)):
        raise IllegalMove("not_dealt", "keep one of the cards of that kind dealt to you", rule_id="TIS-CMD-4",
                          field="card")
    return make_event("legendary_card_chosen", {"kind": command["kind"]}, secret={"card": command["card"]},
                      secret_to=[state["seats"][seat]])


def chosen(state: State, seat: int, data: dict) -> None:
    """The other card goes back to the box, never shown; the parts' ``card_kept`` hooks set up what keeping it
    does at once (explorers.py: Amundsen's dog track). TIS-LEG-4: with event 51 chosen, one spare sailor per
    player colour is set aside (the INTERPRETATION of the spec)."""
    state["players"][seat][KINDS[data["kind"]][2]] = data["card"]
    for hook in state["parts"].hooks("card_kept"):
        hook(state, seat, data)
    if data["kind"] == "event" and event_number(data["card"]) == RESCUE_CARD:
        state["legendary"]["spare_sailors"] = list(range(state["n"]))


def insert_events(state: State, base: flow.Step) -> bool:
    """TIS-LEG-5: per voyage deck, as many random cards to the box (unseen) as explorer events join it, then the
    kept explorer events join their deck (GAP-13), so each deck keeps its size."""
    if "event" not in used(state):
        return base(state)
    for deck, numbers in CAT.legendary_decks.items():
        if deck in state["legendary"]["inserted"]:
            continue
        joining = joining_events(state, deck, numbers)
        if joining:
            state["chance"] = {"key": "legendary_removal", "deck": deck, "count": len(joining), "hidden": True}
            return True
        state["legendary"]["inserted"].append(deck)
    return base(state)


def joining_events(state: State, deck: str, numbers: list[int]) -> list[str]:
    return sorted(player["explorer_event"] for player in state["players"]
                  if event_number(player["explorer_event"]) in numbers)


def removed(state: State, node: dict, outcome: list[str]) -> None:
    deck = node["deck"]
    state["removed_events"].extend(outcome)
    state["decks"][deck].extend(joining_events(state, deck, CAT.legendary_decks[deck]))
    state["legendary"]["inserted"].append(deck)


def ship_upgrade(state: State, seat: int, player: dict, space: dict, command: dict, placed: int,
                 base: actions.Effect) -> None:
    """TIS-LEG-3 / GAP-14: the ship card's reward, on top of the slot bonus, for a tile built with this action
    (tiles placed otherwise, like the Epidemic's free tile, give none)."""
    base(state, seat, player, space, command, placed)
    if player.get("ship") is None:
        return
    actions.grant(state, player, SHIPS[player["ship"]]["reward"])


def coastal_exploration(state: State, card: dict) -> None:
    """Event 48: a cartography token on the current region if it has none (no VP, ASSUMED), then the top card of
    the coastal deck is revealed and applied instead; an action card is this round's event action (ASSUMED)."""
    region = CAT.anchors[state["anchor"]]["region"]
    if region not in state["mapped"] and state["supply"]["cartography"]:
        state["supply"]["cartography"] -= 1
        state["mapped"][region] = state["seats"][state["leader"]]
    state["discards"]["events"].append(state["event"])
    state["event"] = None
    if state["decks"][voyage.COASTAL]:
        state["chance"] = {"key": "event", "deck": voyage.COASTAL, "count": 1}
        state["step"] = "event_effect"


def spoiled_food_cans(state: State, card: dict) -> None:
    """Event 49: every player lowers health with the space effect."""
    for seat in voyage.clockwise(state, state["leader"]):
        lower_track(state, seat, "health", card["amount"], effects=True)


def giant_iceberg(state: State, card: dict) -> None:
    """Event 54: every player discards 1 wood, or without wood puts 1 crew member in the sick bay, and lowers fuel
    by 1 with towing and no band (TIS-AMB-20); the order does not change the outcome."""
    for seat in voyage.clockwise(state, state["leader"]):
        player = state["players"][seat]
        if owned(player, "wood"):
            pay(state, player, "wood")
        else:
            scurvy_like(state, seat, 1, ())
    voyage.voyage_fuel_loss(state, dict.fromkeys(range(state["n"]), card["amount"]), False, state["step"])


def sailor_rescue(state: State, seat: int) -> None:
    """Event 51: a sailor of the taker's colour from those set aside, into the sick bay (back at Boarding)."""
    spare = state["legendary"]["spare_sailors"]
    if seat in spare:
        spare.remove(seat)
        state["players"][seat]["crew"]["sailor"] += 1


def kept_ability(player: dict, ability: str) -> bool:
    return any(CAT.events[event_number(card)].get("ability") == ability for card in player["kept_events"])


def sled_master(state: State, seat: int, space_id: str, options: list) -> list:
    """Event 53 kept: Improve Sled with an Inuk may ignore its 1-crew requirement."""
    if space_id == actions.EVENT_SPACE or CAT.spaces[space_id]["action"] != "improve_sled" \
            or not kept_ability(state["players"][seat], "sled_with_inuk"):
        return options
    return [*options, (("inuk",), 0, 0)]


def hunter_rifle(state: State, player: dict) -> int:
    """Event 47 kept: with a free Inuk, prey one rifle beyond those owned can be hunted (with that Inuk placed)."""
    return 1 if kept_ability(player, "hunt_with_inuk") and player["free"]["inuk"] else 0


def inuit_hunter(state: State, seat: int, space_id: str, moves: list[dict], base_moves) -> list[dict]:
    """Event 47 kept: a Hunt with at least 1 Inuk needs 1 rifle less; without an Inuk the full count."""
    player = state["players"][seat]
    if space_id == actions.EVENT_SPACE or CAT.spaces[space_id]["action"] != "hunt" or not hunter_rifle(state, player):
        return moves
    return [move for move in moves
            if CAT.hunting[move["card"]]["prey_number"] <= player["rifle"] or with_inuk(move)]


def with_inuk(move: dict) -> bool:
    return move["lead"] == "inuk" or bool(move["crew"].get("inuk"))


def check_hunter(state: State, seat: int, command: dict) -> None:
    """A Hunt the kept event 47 opens is checked against the moves it allows (TIS-LEG-7)."""
    space: str = command["space"]  # a string: the base game's checks, which run first, refuse any other
    if space == actions.EVENT_SPACE or CAT.spaces[space]["action"] != "hunt" \
            or not kept_ability(state["players"][seat], "hunt_with_inuk"):
        return
    if not actions.offered({**command, "type": "take_action"}, actions.space_moves(state, seat, space)):
        raise IllegalMove("requirement_not_met", "a Hunt needs rifles for its prey number, 1 less with an Inuk "
                          "placed and event 47 kept", rule_id="TIS-LEG-7", field="crew")


PART = RulePart(
    OPTION,
    hooks={"new_state": (add_state,), "public_keys": ("legendary",),
           "dealt_cards": (("explorer", "explorer_dealt"), ("ship", "ship_dealt"),
                           ("explorer_event", "explorer_event_dealt")),
           "setup_draws": (deal,), "setup_choices": (owed,), "requirements": ((sled_master, "TIS-LEG-7"),),
           "move_filters": (inuit_hunter,), "rifle_bonus": (hunter_rifle,), "action_checks": (check_hunter,)},
    entries={"chance_handlers": {"deal_explorer": dealt, "deal_ship": dealt, "deal_event": dealt,
                                 "legendary_removal": removed},
             "event_effects": {"coastal_exploration": coastal_exploration, "health_loss": spoiled_food_cans,
                               "giant_iceberg": giant_iceberg},
             "event_actions": {"sailor_rescue": sailor_rescue}},
    wraps={"steps": {"reveal": insert_events}, "effects": {"ship_upgrade": ship_upgrade}},
)
