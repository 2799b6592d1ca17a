"""Every command of Through Ice and Snow (spec 12.1), with its fields and the rule it belongs to, grouped by the
game option that brings it (rules/through-ice-and-snow.md).

:data:`BASE` holds the base game's commands; :data:`BY_OPTION` those each module, scenario or base-box component
adds, and :data:`FIELDS_BY_OPTION` the fields an option adds to a base command (a Survival deposit on an
action). :func:`compose` builds the declaration of a set of options; :data:`MOVES`, every option's, is what the
engine holds a command to: the rules themselves refuse a module's command while its option is off, naming the
rule. TIS-CMD-26 ``choose_tie_option`` is not declared: no tie is left for it to decide
(docs/games/through-ice-and-snow.md).
"""
from __future__ import annotations

from dataclasses import replace

from domain.core.move_types import Field, MoveType, MoveTypes

CREW = Field("crew", "object", "crew types to counts", items="integer")
CARD = Field("card", "string", "the card chosen")
USE = Field("use", "boolean", "true or false")


def optional(name: str, kind: str | tuple[str, ...], description: str, items: str | None = None) -> Field:
    return Field(name, kind, description, required=False, items=items)


BASE = (
    MoveType("choose_investor", "Setup, every seat once: keep one of your two dealt investors.", "TIS-SETUP-16",
             (Field("card", "string", "one of your dealt investor ids"),)),
    MoveType("choose_cartography", "Setup, every seat once: keep one of your two dealt cartography cards.",
             "TIS-SETUP-16", (Field("card", "string", "one of your dealt cartography ids (K1..K10)"),)),
    MoveType("take_action", "Action phase, your turn: place crew on an action space; some spaces take more fields, "
             "as legal-moves lists them.", "TIS-CMD-13",
             (Field("space", "string", "the action space"),
              Field("lead", ("string", "null"), "the leading crew type, or null where the space names none"), CREW,
              optional("card", "string", "the card some spaces take"),
              optional("upgrade", "integer", "the upgrade some spaces take"),
              optional("deposit", "string", "what some spaces deposit"))),
    MoveType("pass", "Action phase, your turn: pass, for the rest of the round (TIS-AMB-4).", "TIS-CMD-14"),
    MoveType("choose_destination", "The leader, Destination step: choose the next anchor.", "TIS-VOY-2",
             (Field("anchor", "string", "a reachable anchor id"),)),
    MoveType("place_map_section", "The leader, after choosing a boundary anchor: place the map section.",
             "TIS-CMD-7", (Field("section", "string", "the section"), Field("side", "string", "A or B"))),
    MoveType("choose_voyage_type", "The leader, Voyage step: coastal or open sea.", "TIS-VOY-5",
             (Field("voyage", "string", "coastal or open_sea; on foot, the Walking on Ice traverses"),)),
    MoveType("inuk_guide_map", "The leader holding event card 9, on an open-sea voyage to an unmapped region.",
             "TIS-CMD-11", (Field("map", "boolean", "true or false"),)),
    MoveType("choose_discard", "A seat owing a discard: which resource.", "TIS-CMD-15",
             (Field("resource", "string", "dynamite, wood, rifle or dog"),)),
    MoveType("choose_sick_crew", "A seat hit by Scurvy: which crew go to the sick bay.", "TIS-TRK-HEALTH-1",
             (Field("crew", "object", "crew types to counts, totalling 2 (fewer if fewer are free)",
                    items="integer"),)),
    MoveType("resolve_food_shortage", "A seat short of food: a species card given up for food.", "TIS-TRK-FOOD-3",
             (Field("card", "string", "a species card you hold"),)),
    MoveType("lower_food_for_cabin", "Right after Build Cabin: how much food goes to the cabin.", "TIS-ACT-20",
             (Field("amount", "integer", "0 to your food"),)),
    MoveType("collect_resource", "Right after Resource Collection, once per crew placed.", "TIS-ACT-42",
             (Field("resource", "string", "a kind in the warehouse box"),)),
)

BY_OPTION: dict[str, tuple[MoveType, ...]] = {
    "all_upgrades": (
        MoveType("use_boiler", "Owner of upgrade 8 with wood, before a fuel loss of the Voyage step.", "TIS-AMB-7",
                 (USE,)),
        MoveType("mast_choose", "The leader owning upgrade 9, after the voyage type: keep one of two event cards.",
                 "TIS-CMD-10", (Field("card", "string", "one of the two event cards seen"),)),
    ),
    "extra_events": (
        MoveType("damaged_compass_redirect", "The player left of the leader, when event 25 is revealed.",
                 "TIS-CMD-12", (Field("anchor", ("string", "null"), "an anchor reachable from the previous anchor, "
                                      "or null to decline"),)),
    ),
    "legendary_expeditions": (
        MoveType("choose_legendary_card", "Legendary Expeditions setup: choose your legendary card of a kind.",
                 "TIS-CMD-4", (Field("kind", "string", "the kind of card"), CARD)),
        MoveType("mcclure_trade", "Explorers, McClure: how many times to trade.", "TIS-CMD-20",
                 (Field("times", "integer", "how many"),)),
        MoveType("belcher_override", "Explorers, Belcher: use the override or not.", "TIS-CMD-8", (USE,)),
        MoveType("collinson_chart", "Explorers, Collinson, at any decision point: chart a region.", "TIS-CMD-21",
                 (Field("region", "string", "the region charted"),)),
        MoveType("kellett_peek", "Explorers, Kellett, at any decision point: look at the top card of a deck.",
                 "TIS-LEG-6", (Field("deck", "string", "the deck looked at"),)),
    ),
    "walking_on_ice": (
        MoveType("abandon_ship", "Walking on Ice: abandon the ship or not.", "TIS-CMD-5",
                 (Field("abandon", "boolean", "true or false"),)),
        MoveType("choose_cargo", "Walking on Ice: which cargo to keep within the limit.", "TIS-CMD-18",
                 (Field("keep", "object", "cargo kinds to counts kept", items="integer"),)),
        MoveType("return_upgrade", "Walking on Ice: return an upgrade tile.", "TIS-WALK-6",
                 (Field("upgrade", "integer", "an upgrade you own"),)),
        MoveType("discard_food_can", "Walking on Ice, at any decision point: eat food cans.", "TIS-CMD-19",
                 (Field("count", "integer", "how many cans"),)),
        MoveType("let_sailor_die", "Walking on Ice, at any decision point: let a sailor die.", "TIS-CMD-22"),
    ),
    "scenario:magnetic_north_pole": (
        MoveType("choose_start_anchor", "Magnetic North Pole: choose the starting anchor.", "TIS-CMD-24",
                 (Field("anchor", "string", "one of the start anchors"),)),
    ),
    "scenario:mysterious_epidemic": (
        MoveType("choose_free_upgrade", "Mysterious Epidemic: choose the free upgrade.", "TIS-CMD-25",
                 (Field("upgrade", "integer", "the upgrade number"),)),
        MoveType("activate_treatment", "Mysterious Epidemic: activate a treatment card, or decline with card null.",
                 "TIS-CMD-23",
                 (Field("card", ("string", "null"), "the treatment card, or null"),
                  optional("requirement", "integer", "which of its requirements, from 1"),
                  optional("crew", "object", "crew types to counts cured", items="integer"),
                  optional("species", "array", "the species cards paid", items="string"))),
    ),
}

FIELDS_BY_OPTION: dict[str, dict[str, tuple[Field, ...]]] = {
    "survival": {"take_action": (optional("survival_deposit", "string", "Survival: the resource deposited in the "
                                          "column's warehouse"),)},
    "inuit_myths": {"take_action": (optional("creature_payment", "string", "Inuit Myths: how a creature is paid"),)},
    "legendary_expeditions": {"take_action": (optional("slot", "integer", "Explorers: the upgrade slot filled"),)},
    "walking_on_ice": {"lower_food_for_cabin": (optional("cans", "integer", "Walking on Ice: food cans discarded, "
                                                         "5 food each"),)},
}


def compose(options: tuple[str, ...]) -> MoveTypes:
    """The commands of a game with ``options`` (keys of :data:`BY_OPTION` and :data:`FIELDS_BY_OPTION`): the base
    commands with the fields the options add, then each option's own commands."""
    added: dict[str, tuple[Field, ...]] = {}
    for option in options:
        for kind, fields in FIELDS_BY_OPTION.get(option, {}).items():
            added[kind] = added.get(kind, ()) + fields
    base = tuple(replace(move, fields=move.fields + added.get(move.type, ())) for move in BASE)
    return MoveTypes(base, *(BY_OPTION.get(option, ()) for option in options))


MOVES = compose(tuple(dict.fromkeys([*BY_OPTION, *FIELDS_BY_OPTION])))
