"""The rule parts a match is played with: chosen from its options, in one order, composed once."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.through_ice_and_snow import RULES, actions, decisions, flow, parts, setup, voyage


def played(options: dict, players: int = 2) -> tuple[str, ...]:
    return parts.chosen(RULES.validate_options(options, players))


def test_the_base_game_plays_no_module():
    assert played({}) == ("survival_record",)


@pytest.mark.parametrize("options, players, names", [
    ({"survival": True, "walking_on_ice": True}, 2, ("survival_record", "survival", "walking_on_ice")),
    ({"legendary_expeditions": ["ships"]}, 3, ("legendary_expeditions", "survival_record")),
    ({"legendary_expeditions": ["explorers"], "inuit_myths": True}, 2,
     ("legendary_expeditions", "explorers", "inuit_myths", "survival_record")),
    ({}, 1, ("single_player", "lost_expedition", "survival_record", "survival")),  # TIS-CMD-1, TIS-SURV-1
    ({"scenario": "amundsens_voyage"}, 1,
     ("single_player", "amundsens_voyage", "legendary_expeditions", "survival_record", "survival")),
    ({"variant_coastal_extra_species": True, "dual_species": True}, 4,
     ("dual_species", "survival_record", "variant_coastal_extra_species")),
])
def test_the_options_choose_the_parts_in_one_order(options, players, names):
    assert played(options, players) == names


@pytest.mark.parametrize("scenario", ["lost_expedition", "magnetic_north_pole", "mysterious_epidemic",
                                      "amundsens_voyage"])
def test_a_scenario_refuses_to_be_played_without_survival(scenario):
    """TIS-SURV-1: Survival is mandatory in every single-player scenario; leaving it out or asking for it
    plays it, switching it off is refused rather than overruled."""
    with pytest.raises(IllegalMove) as refused:
        RULES.validate_options({"scenario": scenario, "survival": False}, 1)
    assert (refused.value.code, refused.value.rule_id, refused.value.field) == (
        "invalid_option", "TIS-SURV-1", "options.survival")
    assert "survival" in played({"scenario": scenario, "survival": True}, 1)
    assert "survival" in played({"scenario": scenario}, 1)
    assert "survival" not in played({"survival": False}, 2)


def test_one_composition_serves_every_match_with_the_same_options():
    first = RULES.setup({"seats": [{"seat": "p1"}, {"seat": "p2"}],
                         "options": RULES.validate_options({"inuit_myths": True}, 2)})
    second = RULES.setup({"seats": [{"seat": "p1"}, {"seat": "p2"}, {"seat": "p3"}],
                          "options": RULES.validate_options({"inuit_myths": True, "whale_hunting": True}, 3)})
    assert first["parts"] is second["parts"]
    assert first["parts"] is not parts.for_options(RULES.validate_options({}, 2))
    assert RULES.state_from_json(RULES.state_to_json(first))["parts"] is first["parts"]
    assert "parts" not in RULES.state_to_json(first)


def test_the_base_game_tables_hold_the_base_game_alone():
    """Every module file is imported, and none changed a table of the base game."""
    parts.composed(parts.ORDER)
    assert {step.__module__ for step in flow.STEPS.values()} == {flow.__name__, setup.__name__}
    assert {effect.__module__ for effect in actions.EFFECTS.values()} == {actions.__name__}
    assert {effect.__module__ for effect in voyage.EVENT_EFFECTS.values()} == {voyage.__name__}
    assert "abandon" not in decisions.COMMANDS and "build_shelter" not in actions.EFFECTS
    every = parts.composed(parts.ORDER)
    assert "abandon" in every.table("decisions") and "build_shelter" in every.table("effects")
