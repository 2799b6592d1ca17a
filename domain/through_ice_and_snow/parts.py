"""The rule parts a match is played with: its modules and single-player scenario, chosen from its options.

Each module and scenario file ends with its ``PART``, a :class:`~domain.core.parts.RulePart` naming the steps
it wraps, the tables it adds to and the hooks it runs; :func:`chosen` picks the parts of an option set and
:func:`composed` lays them over the base game's tables, once per option set. A match's state holds its
composition (``state["parts"]``), and the engine reads hooks and tables there, never a table a module changed.

:data:`ORDER` is the one order of the parts: the order in which their hooks run where several are played
together and hook the same point, and in which their wrappers wrap a step or an effect (the last listed is the
outermost). It is the order the rules have always been composed in, so every recorded game replays as it was
played, which the golden playthroughs pin. Most parts hook points that no part played with them hooks, or run
hooks that touch nothing of each other's; where the order decides anything, this is what it decides:

- setup draws come in this order, and with a seed which cards each one gets: Amundsen's Voyage's coastal cards
  to the box before Dual Animal Species' hunting cards, the Legendary cards dealt before the Lost Expedition's
  priority card;
- Walking on Ice wraps the voyage type after Belcher (explorers): once the ships are abandoned the Traverse
  type is chosen instead, by Belcher in the round he overrode the route;
- the card Kellett looked at and Back's slot are choices of an action before the Survival deposit is paired
  with each of them (``survival.with_deposits`` pairs the choices made before it);
- Inuit Myths refuses an action before Shelter Building and Walking on Ice do, and on the score sheet the
  shelter majority comes before the guilt of Walking on Ice;
- a view shows the parts' own state in this order.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from domain.core.parts import Composition
from domain.through_ice_and_snow import (
    actions,
    amundsen,
    decisions,
    dual_species,
    epidemic,
    explorers,
    flow,
    legendary,
    lost_expedition,
    magnetic,
    myths,
    shelter,
    solo,
    survival,
    variants,
    voyage,
    walking,
)

ORDER = ("single_player", "amundsens_voyage", "dual_species", "mysterious_epidemic", "legendary_expeditions",
         "explorers", "lost_expedition", "magnetic_north_pole", "inuit_myths", "shelter_building",
         "survival_record", "survival", "walking_on_ice", "variant_coastal_extra_species")

# The hook points of the base game, each run where its engine file says: setup.py (new_state, setup_draws,
# setup_choices), board.py (inuit_arrival), view.py (public_keys, dealt_cards, secret_cards: what each reader sees),
# flow.py (action_start, endings), decisions.py (decision_moves, answered, cabin_vp), voyage.py (route_filters,
# mapping_vp, extra_species), tracks.py (fuel_bands, effect_applied), actions.py (choices, refusals, requirements,
# lead_substitutes, rifle_bonus, explore_dogs, move_filters, turn_filters, move_fields, action_checks,
# cards_taken, before_effect, uncounted_crew, fishing_bonus, after_effect), scoring.py (score_lines,
# score_sheets), solo.py (objectives) and legendary.py (card_kept). The tables are those of :func:`composed`.
HOOK_POINTS = ("new_state", "public_keys", "dealt_cards", "secret_cards", "inuit_arrival", "setup_draws",
               "setup_choices", "action_start", "endings", "decision_moves", "answered", "cabin_vp",
               "route_filters", "mapping_vp", "fuel_bands", "effect_applied", "choices", "refusals",
               "requirements", "lead_substitutes", "rifle_bonus", "explore_dogs", "move_filters", "turn_filters",
               "move_fields", "action_checks", "cards_taken", "before_effect", "uncounted_crew", "fishing_bonus",
               "after_effect", "score_lines", "score_sheets", "objectives", "card_kept", "extra_species")


def chosen(options: dict) -> tuple[str, ...]:
    """The parts of a match with these (validated) options, in :data:`ORDER`.

    A module (or the translator's variant) is played when its option is on; the explorers when Legendary
    Expeditions uses explorer cards. A single-player scenario brings the rules every scenario shares and Survival
    (TIS-SURV-1); every match keeps the Survival record of the columns paid for (survival.RECORD). Amundsen's
    Voyage plays with Legendary cards of its own (the Gjøa's reward, explorer event 53), so with the rules of
    Legendary Expeditions too, though its option names no card type (TIS-SOLO-AMU-3).
    """
    scenario = options.get("scenario")
    cards = options.get("legendary_expeditions") or ()
    played = {
        "single_player": scenario is not None,
        "amundsens_voyage": scenario == "amundsens_voyage",
        "dual_species": bool(options.get("dual_species")),
        "mysterious_epidemic": scenario == "mysterious_epidemic",
        "legendary_expeditions": bool(cards) or scenario == "amundsens_voyage",
        "explorers": "explorers" in cards,
        "lost_expedition": scenario == "lost_expedition",
        "magnetic_north_pole": scenario == "magnetic_north_pole",
        "inuit_myths": bool(options.get("inuit_myths")),
        "shelter_building": bool(options.get("shelter_building")),
        "survival_record": True,
        "survival": bool(options.get("survival")) or scenario is not None,
        "walking_on_ice": bool(options.get("walking_on_ice")),
        "variant_coastal_extra_species": bool(options.get("variant_coastal_extra_species")),
    }
    return tuple(name for name in ORDER if played[name])


def for_options(options: dict) -> Composition:
    """The composition of a match with these options: the same one for every match with the same parts."""
    return composed(chosen(options))


@cache
def composed(names: tuple[str, ...]) -> Composition:
    """The named parts laid over the base game's tables, in the order given."""
    parts = {part.name: part for part in (solo.PART, amundsen.PART, dual_species.PART, epidemic.PART,
                                          legendary.PART, explorers.PART, lost_expedition.PART, magnetic.PART,
                                          myths.PART, shelter.PART, survival.RECORD, survival.PART, walking.PART,
                                          variants.PART)}
    # the base game's tables; those it leaves empty exist for the parts alone
    tables: dict[str, Mapping[str, Any]] = {
        "steps": flow.STEPS, "effects": actions.EFFECTS, "event_effects": voyage.EVENT_EFFECTS,
        "decisions": decisions.COMMANDS, "event_actions": {}, "module_choices": {}, "checks": {},
        "extra_moves": {}, "candidates": {}, "chance_handlers": {},
    }
    return Composition(HOOK_POINTS, tables, [parts[name] for name in names])
