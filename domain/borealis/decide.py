"""Commands in, events out: what each command does now, or the rule that forbids it.

Every refusal names the rule of ``rules/borealis.md`` that forbids it.
"""
from __future__ import annotations

from domain.borealis import board as boards
from domain.borealis.catalogue import Catalogue
from domain.borealis.goals import goal_available, requirement_met
from domain.borealis.table import POOL_SIZE
from domain.borealis.turns import active_seat
from domain.core import Event, IllegalMove, make_event

GOAL_STARS = 5
MAX_DISCARDS = 4


def decide(state: dict, seat: str, command: dict, catalogue: Catalogue) -> list[Event]:
    kind = command["type"]
    if kind == "mulligan":
        return _mulligan(state, seat, command)
    if kind == "claim_goal":
        return _claim_goal(state, seat, command)
    if kind == "choose_farewell_location":
        return _farewell(state, seat, command)
    _check_turn(state, seat, kind)
    if kind == "observe":
        return _observe(state, seat, command, catalogue)
    if kind == "reorganise":
        return _reorganise(state, seat, command, catalogue)
    if kind == "take_card":
        return _take_card(state, command)
    if kind == "draw_blind":
        return _draw_blind(state)
    return _refresh_pool(state, seat)


def _check_turn(state: dict, seat: str, kind: str) -> None:
    if state["phase"] == "mulligan":
        raise IllegalMove("setup_not_finished", "no turn is taken until every player has decided on a mulligan",
                          rule_id="BOR-SETUP-12")
    if active_seat(state) != seat:
        raise IllegalMove("not_active", "only the active player takes a turn", rule_id="BOR-TURN-1")
    main_step = kind in ("observe", "reorganise")
    if main_step and state["step"] != "action":
        raise IllegalMove("action_taken", "one action per turn: now take a card", rule_id="BOR-TURN-2")
    if not main_step and state["step"] != "take":
        raise IllegalMove("observe_first", "a card is taken only after observing an animal", rule_id="BOR-OBS-4")


def _discards(command: dict, hand: list[str], rule_id: str) -> list[str]:
    cards = command["discard_card_ids"]
    if len(cards) > MAX_DISCARDS:
        raise IllegalMove("too_many_cards", f"at most {MAX_DISCARDS} cards", rule_id=rule_id, field="discard_card_ids")
    if not all(isinstance(card, str) for card in cards) or len(set(cards)) != len(cards):
        raise IllegalMove("invalid_field", "a list of distinct card ids", rule_id=rule_id, field="discard_card_ids")
    for card in cards:
        if card not in hand:
            raise IllegalMove("not_in_hand", f"{card} is not in your hand", rule_id=rule_id, field="discard_card_ids")
    return [card for card in hand if card in cards]


def _mulligan(state: dict, seat: str, command: dict) -> list[Event]:
    """BOR-SETUP-12: once, during setup, any 0-4 cards of the starting hand face up, then as many drawn."""
    if state["phase"] != "mulligan":
        raise IllegalMove("not_setup", "the mulligan is only possible during setup", rule_id="BOR-SETUP-12")
    player = state["players"][seat]
    if player["mulligan"] is not None:
        raise IllegalMove("mulligan_done", "each player may mulligan only once", rule_id="BOR-SETUP-12")
    cards = _discards(command, player["hand"], "BOR-SETUP-12")
    return [make_event("mulligan", {"discard_card_ids": cards})]


def _location(command: dict, name: str, rule_id: str) -> str:
    if command.get(name) is None:
        raise IllegalMove("missing_field", f"'{name}' is required: one of {', '.join(boards.LOCATIONS)}",
                          rule_id=rule_id, field=name)
    location = command[name]
    if location not in boards.LOCATIONS:
        raise IllegalMove("not_a_location", f"'{name}' must be one of {', '.join(boards.LOCATIONS)}; camps are not "
                          "locations", rule_id=rule_id, field=name)
    return location


def _observe(state: dict, seat: str, command: dict, catalogue: Catalogue) -> list[Event]:
    player = state["players"][seat]
    card_id = command["card_id"]
    if card_id not in player["hand"]:
        raise IllegalMove("not_in_hand", f"{card_id} is not in your hand", rule_id="BOR-OBS-1", field="card_id")
    location = _location(command, "location", "BOR-OBS-1")
    card = catalogue.cards[card_id]
    if not boards.can_observe_at(player, card, location):
        raise IllegalMove(
            "scientists_missing",
            f"{location} must hold the card's scientists ({card.move_left_colour} and {card.move_right_colour})",
            rule_id="BOR-OBS-1a", field="location",
        )
    after = boards.copy_board(player)
    after["hand"].remove(card_id)
    outcome = boards.observe(after, card, location, catalogue.boards[player["board"]][location])
    triggers = any(len(stack) >= 7 for stack in after["stacks"].values())
    events = [make_event("card_observed", {"card_id": card_id, "location": location, **outcome,
                                           "end_triggered": triggers and not state["end_triggered"]})]
    events += _auto_claims(state, seat, after, 0, catalogue)
    if not _can_take(state):
        events.append(_turn_ended(state, "BOR-DECK-3"))  # nothing anywhere to take: the step is skipped
    return events


def _can_take(state: dict) -> bool:
    return any(state["pool"]) or bool(state["deck"]) or bool(state["discards"])


def _turn_ended(state: dict, rule_id: str) -> Event:
    return make_event("turn_ended", {"round": state["round"], "rule": rule_id,
                                     "ends_round": state["turn"] == len(state["order"]) - 1})


def _take_card(state: dict, command: dict) -> list[Event]:
    """BOR-OBS-4 (a): one pool card into the hand; the slot is refilled from the deck."""
    slot = command["pool_slot"]
    if not 0 <= slot < POOL_SIZE:
        raise IllegalMove("invalid_field", f"'pool_slot' must be 0 to {POOL_SIZE - 1}", rule_id="BOR-OBS-4",
                          field="pool_slot")
    card_id = state["pool"][slot]
    if card_id is None:
        raise IllegalMove("empty_slot", "that pool slot is empty", rule_id="BOR-DECK-3", field="pool_slot")
    return [make_event("card_taken", {"pool_slot": slot, "card_id": card_id}), _turn_ended(state, "BOR-OBS-4")]


def _draw_blind(state: dict) -> list[Event]:
    """BOR-OBS-4 (b): the top card of the deck instead of a pool card; ruled out by a refresh this turn."""
    if state["refreshed_this_turn"]:
        raise IllegalMove("refreshed", "after refreshing the pool you must take a card from it", rule_id="BOR-OBS-4")
    if not state["deck"] and not state["discards"]:
        raise IllegalMove("no_cards", "the deck and the discard pile are both empty", rule_id="BOR-DECK-3")
    return [make_event("blind_draw"), _turn_ended(state, "BOR-OBS-4")]


def refresh_blocker(state: dict, seat: str) -> IllegalMove | None:
    """Why ``seat`` may not pay to refresh the pool now, if it may not."""
    if state["refreshed_this_turn"]:
        return IllegalMove("already_refreshed", "the pool was already refreshed this turn", rule_id="BOR-OBS-4")
    if state["options"]["refresh_limit"] == "table_per_round":
        if state["refreshed"]:
            return IllegalMove("refresh_used", "the pool was already refreshed this round", rule_id="BOR-OBS-4")
    elif seat in state["refreshed"]:
        return IllegalMove("refresh_used", "you already refreshed the pool this round", rule_id="BOR-OBS-4")
    if state["players"][seat]["token_stars"] < 1:
        return IllegalMove("no_stars", "refreshing the pool costs 1 star", rule_id="BOR-OBS-4")
    if not _can_take(state):
        return IllegalMove("no_cards", "there are no cards to refresh the pool with", rule_id="BOR-DECK-3")
    return None


def _refresh_pool(state: dict, seat: str) -> list[Event]:
    """BOR-OBS-4: pay 1 star, the 4 pool cards go to the discard pile, 4 new ones are revealed."""
    blocker = refresh_blocker(state, seat)
    if blocker:
        raise blocker
    return [make_event("pool_refreshed", {"discard_card_ids": [card for card in state["pool"] if card], "paid": 1})]


def _reorganise(state: dict, seat: str, command: dict, catalogue: Catalogue) -> list[Event]:
    player = state["players"][seat]
    cards = _discards(command, player["hand"], "BOR-REO-1")
    returned = boards.scientists_in_camps(player)
    target = command.get("target_location")
    if returned:
        target = _location(command, "target_location", "BOR-REO-4")
    elif target is not None:
        _location(command, "target_location", "BOR-REO-4")
        target = None  # BOR-REO-4: with empty camps the target is accepted and ignored
    after = boards.copy_board(player)
    boards.reorganise(after, target)
    events = [make_event("reorganised", {"discard_card_ids": cards, "target_location": target,
                                         "returned": returned, "stars_gained": returned})]
    events += _auto_claims(state, seat, after, returned, catalogue)
    return events + [_turn_ended(state, "BOR-REO-4")]


def _auto_claims(state: dict, seat: str, after: dict, returned: int, catalogue: Catalogue) -> list[Event]:
    """BOR-GOAL-6 ``auto``: claim every available goal at the first checkpoint where it is met (BOR-GOAL-2)."""
    if state["options"]["goal_claim_mode"] != "auto":
        return []
    events = []
    for goal in state["goals"]:
        if (goal_available(goal, len(state["seats"])) and seat not in goal["claimed_by"]
                and requirement_met(catalogue.goals[goal["goal_id"]], after, catalogue.cards, returned)):
            events.append(make_event("goal_claimed", {"goal_id": goal["goal_id"], "stars": GOAL_STARS,
                                                      "opens_window": goal["first_claim_round"] is None}))
    return events


def _claim_goal(state: dict, seat: str, command: dict) -> list[Event]:
    """BOR-GOAL-5, BOR-GOAL-6 ``manual``: any player, at any time during play, for a requirement met once."""
    goal_id = command["goal_id"]
    goal = next((goal for goal in state["goals"] if goal["goal_id"] == goal_id), None)
    if goal is None:
        raise IllegalMove("unknown_goal", f"{goal_id} is not one of this game's goals", rule_id="BOR-GOAL-1",
                          field="goal_id")
    if state["options"]["goal_claim_mode"] != "manual":
        raise IllegalMove("auto_claims", "in this game goals are claimed automatically", rule_id="BOR-GOAL-6")
    if state["phase"] != "play":
        raise IllegalMove("not_in_play", "goals are claimed during play", rule_id="BOR-GOAL-5")
    if goal["removed"]:
        raise IllegalMove("goal_removed", "that goal left the game at the end of the round it was first claimed",
                          rule_id="BOR-GOAL-4", field="goal_id")
    if seat in goal["claimed_by"]:
        raise IllegalMove("already_claimed", "each player claims each goal once", rule_id="BOR-GOAL-1",
                          field="goal_id")
    if not goal_available(goal, len(state["seats"])):
        raise IllegalMove("no_token_left", "no 5-star token is left beside that goal", rule_id="BOR-GOAL-1",
                          field="goal_id")
    if goal_id not in state["players"][seat]["goals_met"]:
        raise IllegalMove("requirement_not_met", "you have not met that goal's requirement", rule_id="BOR-GOAL-2",
                          field="goal_id")
    return [make_event("goal_claimed", {"goal_id": goal_id, "stars": GOAL_STARS,
                                        "opens_window": goal["first_claim_round"] is None})]


def _farewell(state: dict, seat: str, command: dict) -> list[Event]:
    """BOR-END-3: with Farewell Party in the game, each player names one location before scoring."""
    if state["phase"] != "farewell":
        raise IllegalMove("not_final_scoring", "the Farewell Party location is chosen at game end",
                          rule_id="BOR-END-3")
    if state["players"][seat]["farewell"] is not None:
        raise IllegalMove("already_chosen", "you already chose your Farewell Party location", rule_id="BOR-END-3")
    location = _location(command, "location", "BOR-SC-FAREWELL")
    return [make_event("farewell_location_chosen", {"location": location})]
