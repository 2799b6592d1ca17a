"""Commands in, events out: each command is judged against the state, and a refusal names the rule that forbids it.

Setup choices, the pending decisions (``decisions.check``), the Action-phase turn (``actions.check_action``) and
the commands the match's parts open at any decision point each have their own judge; what is accepted becomes
one event, which ``apply`` folds.
"""
from __future__ import annotations

from domain.core import Event, IllegalMove, make_event
from domain.core.commands import unknown_move
from domain.core.events import JsonObject
from domain.through_ice_and_snow import actions, decisions, legendary
from domain.through_ice_and_snow.board import State
from domain.through_ice_and_snow.decisions import CHOICE_EVENTS
from domain.through_ice_and_snow.setup import SETUP_CHOICES, SETUP_STEPS

# The modules' commands and events are the game's whatever its options: /docs lists them, and a command of a
# module a match is not played with is refused by the rule that would open it.
# Commands open at any decision point (outside setup), next to the moves asked of the seat: command -> (the event
# it becomes, the rule opening it); the match's parts offer them (the ``extra_moves`` table).
EXTRA_COMMANDS = {"collinson_chart": ("region_charted", "TIS-CMD-21"),
                  "kellett_peek": ("top_card_looked_at", "TIS-LEG-6"),
                  "discard_food_can": ("food_cans_eaten", "TIS-CMD-19"),
                  "let_sailor_die": ("sailor_let_die", "TIS-CMD-22")}
# A module's setup command -> the event it decides (refused when no card of the kind is dealt).
SETUP_COMMANDS = {legendary.COMMAND: legendary.choose}


def decide(state: State, seat: str, command: JsonObject) -> list[Event]:
    index = state["seats"].index(seat)
    kind = command["type"]
    if kind in EXTRA_COMMANDS and state["step"] not in SETUP_STEPS:
        event, rule_id = EXTRA_COMMANDS[kind]
        moves = state["parts"].table("extra_moves").get(kind)
        offers = moves(state, index) if moves else []
        if not actions.offered(command, offers):
            raise IllegalMove("not_allowed_now", f"{kind} is not open to you now, or not with those fields",
                              rule_id=rule_id, field="type")
        return [make_event(event, {key: value for key, value in command.items() if key != "type"})]
    if state["pending"]:
        decisions.check(state, state["pending"][0], command)
        return [make_event(CHOICE_EVENTS[kind], {key: value for key, value in command.items() if key != "type"})]
    if state["step"] == "choose":
        if kind in SETUP_COMMANDS:
            return [SETUP_COMMANDS[kind](state, index, command)]
        return [_setup_choice(state, index, command)]
    if kind == "pass":
        if not actions.offered(command, actions.action_moves(state, index)):
            raise IllegalMove("must_act", "this turn must end with the action begun", rule_id="TIS-LEG-6")
        return [make_event("passed")]
    if kind == "take_action":
        actions.check_action(state, index, command)
        return [make_event("action_taken", {key: value for key, value in command.items() if key != "type"})]
    raise unknown_move(command, {"take_action", "pass"})


def decide_offered(state: State, seat: str, move: JsonObject) -> list[Event]:
    """The events of a move taken from the legal moves: a pass in the Action phase without the check that lists
    every action again to see whether the turn may still end (TIS-LEG-6); any other move as :func:`decide`."""
    if move["type"] == "pass" and not state["pending"] and state["step"] != "choose":
        return [make_event("passed")]
    return decide(state, seat, move)


def _setup_choice(state: State, index: int, command: JsonObject) -> Event:
    """TIS-SETUP-16 / TIS-CMD-2 / TIS-CMD-3: keep one dealt card, face down until the reveal."""
    kind = command.get("type")
    if kind not in SETUP_CHOICES:
        raise unknown_move(command, set(SETUP_CHOICES))
    chosen, dealt, rule_id = SETUP_CHOICES[kind]
    player = state["players"][index]
    if player[chosen] is not None:
        raise IllegalMove("already_chosen", "you already kept a card of that kind", rule_id=rule_id)
    card = command["card"]
    if card not in player[dealt]:
        raise IllegalMove("not_dealt", "keep one of the cards dealt to you", rule_id=rule_id, field="card")
    event = "investor_chosen" if kind == "choose_investor" else "cartography_chosen"
    return make_event(event, {}, secret={"card": card}, secret_to=[state["seats"][index]])
