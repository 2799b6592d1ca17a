"""TIS-CMD: the declared commands are those the game and its modules take, grouped by the option that brings
them, and a module's command is still refused by the rules while its option is off."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import submit
from domain.through_ice_and_snow.decide import EXTRA_COMMANDS, SETUP_COMMANDS
from domain.through_ice_and_snow.decisions import CHOICE_EVENTS
from domain.through_ice_and_snow.move_types import BASE, BY_OPTION, FIELDS_BY_OPTION, MOVES, compose
from domain.through_ice_and_snow.parts import ORDER, composed
from domain.through_ice_and_snow.setup import SETUP_CHOICES
from tests.through_ice_and_snow.helpers import sail, table_game, turn


def test_every_command_the_game_and_its_modules_take_is_declared_and_no_other():
    every_part = composed(ORDER)
    taken = {"take_action", "pass", *SETUP_CHOICES, *CHOICE_EVENTS, *SETUP_COMMANDS, *EXTRA_COMMANDS,
             *(decision.command for decision in every_part.table("decisions").values())}
    assert set(MOVES) == taken
    assert {field.name for field in MOVES["take_action"].fields} >= set(every_part.hooks("move_fields"))


def test_a_composition_holds_the_base_commands_and_the_options_own():
    base = compose(())
    assert list(base) == [move.type for move in BASE]
    assert "cans" not in {field.name for field in base["lower_food_for_cabin"].fields}
    walking = compose(("walking_on_ice",))
    assert {move.type for move in BY_OPTION["walking_on_ice"]} <= set(walking)
    assert [field.name for field in walking["lower_food_for_cabin"].fields] == ["amount", "cans"]
    assert set(FIELDS_BY_OPTION) | set(BY_OPTION) >= {"survival", "inuit_myths", "walking_on_ice"}


def test_a_modules_command_is_refused_by_its_rule_while_the_module_is_off():
    """TIS-CMD-19: food cans are eaten only in Walking on Ice; the command fits its declaration, and the rules say
    it is not open."""
    match = table_game(2, ["parliament", "admiralty"])
    sail(match, "E1")
    with pytest.raises(IllegalMove) as refused:
        submit(match, turn(match), {"type": "discard_food_can", "count": 1})
    assert (refused.value.code, refused.value.rule_id) == ("not_allowed_now", "TIS-CMD-19")
