"""Every command of I C E Expedition (spec 10.1, ICE-CMD-n), with its fields and the rule it belongs to: the rule
a refusal names when no more specific one is found (rules/ice-expedition.md)."""
from __future__ import annotations

from domain.core.move_types import Field, MoveType, MoveTypes

ARCHAEOLOGISTS = Field("archaeologists", "integer", "archaeologists going along: 0-3, or 0 but for the Navigators")
TO = Field("to", "string", "a slot")
HAND_TILE = Field("tile", "string", "a snow tile id in your hand")


def optional(name: str, kind: str | tuple[str, ...], description: str) -> Field:
    return Field(name, kind, description, required=False)


MOVES = MoveTypes((
    MoveType("choose_guild", "Setup with guild_allocation 'choice', in seat order: take a guild.",
             "ICE-CMD-1", (Field("guild", "string", "G-CRYO, G-INCA, G-NAVI, G-ICEW or G-ALCH"),)),
    MoveType("keep_request", "After a registry draw, the drawing seat keeps one card.", "ICE-CMD-2",
             (Field("card", "string", "a drawn card id"),)),
    MoveType("move", "Move a leader (ICE-CMD-3).", "ICE-ACT-1",
             (Field("leader", "string", "a seat"), TO, Field("archaeologists", "integer", "0-3 going along"))),
    MoveType("excavate", "Excavate under a leader (ICE-EXC-1..4, ICE-CMD-4).", "ICE-EXC-1",
             (Field("leader", "string", "a seat"), Field("cryo", "boolean", "use the CryoArchitects' ability"),
              Field("tile", ("string", "null"), "a Termite or Talisman snow tile id, or null"))),
    MoveType("set_up_camp", "Set up a camp (ICE-CMD-5).", "ICE-ACT-3", (TO, ARCHAEOLOGISTS)),
    MoveType("recruit", "Recruit an explorer (ICE-CMD-6).", "ICE-ACT-4",
             (Field("kind", "string", "what is recruited", values=("archaeologist", "leader")),
              Field("camp", "string", "a slot"), ARCHAEOLOGISTS)),
    MoveType("check_registry", "Check the registry (ICE-CMD-7).", "ICE-ACT-5"),
    MoveType("overwork", "Overwork (ICE-CMD-8).", "ICE-ACT-6"),
    MoveType("plan", "Plan (ICE-CMD-9).", "ICE-ACT-7"),
    MoveType("resend", "Resend (ICE-CMD-10).", "ICE-ACT-8"),
    MoveType("send_to_city", "The seat whose day is ending sends an artifact to the city (ICE-CMD-11).",
             "ICE-ACT-9", (Field("artifact", "string", "an artifact id"),)),
    MoveType("stop_sending", "The seat whose day is ending sends nothing more (ICE-CMD-11).", "ICE-ACT-9"),
    MoveType("play_snow_tile", "Play a snow tile; the fields besides tile are its effect's, as legal-moves lists "
             "them (ICE-CMD-12).", "ICE-ACT-10",
             (HAND_TILE, optional("from", "string", "Spiders: the start slot"),
              optional("to", "string", "Spiders, Manta Ray: the slot"),
              optional("archaeologists", "integer", "Manta Ray: how many"),
              optional("at", "string", "Smilodon, Rune: the slot"),
              optional("leader", ("string", "null"), "Sailboat, Charisma: a seat; Sailboat: null when none"),
              optional("player", "string", "Wreck: a seat"),
              optional("slot", ("string", "null"), "Storm Whistle: a slot, or null when none exists"))),
    MoveType("use_guild_ability", "Use your guild's ability (ICE-GLD-*, ICE-CMD-13).", "ICE-ACT-11",
             (optional("count", "integer", "Alchemists: 1-3; no field for the other guilds"),)),
    MoveType("use_artifact_effect", "Use an unlocked artifact's effect (ICE-CMD-14): always refused, since no effect "
             "is unlocked until the effect data is supplied (GAP-13).", "ICE-ACT-12",
             (Field("artifact_type", "string", "the artifact type whose effect is used"),
              optional("parameters", "object", "the effect's parameters"))),
    MoveType("discard_snow_tile", "Over the hand limit of 4: discard a snow tile (ICE-CMD-15).", "ICE-EXP-10",
             (HAND_TILE,)),
    MoveType("end_turn", "End your turn (ICE-CMD-17).", "ICE-EXP-6"),
    MoveType("end_day", "End your day (ICE-CMD-18).", "ICE-EXP-8"),
    MoveType("keep_tile", "Alchemists keep a drawn bag tile (ICE-CMD-16).", "ICE-GLD-5",
             (Field("tile", "string", "a drawn tile id"),)),
    MoveType("relocate", "Storm Whistle or snowfall: move one explorer off a tile it covered (ICE-CMD-16).",
             "ICE-SNOW-12", (Field("explorer", "string", "a leader's seat, or archaeologist"), TO)),
    MoveType("choose_tile", "The first player chooses a tile (ICE-LOG-6, ICE-CMD-16).", "ICE-LOG-4",
             (Field("at", "string", "a slot"),)),
    MoveType("place_snowflake", "The first player places a logbook snowflake (ICE-LOG-E4, ICE-CMD-16).",
             "ICE-SNOW-12", (Field("slot", "string", "a slot"),)),
    MoveType("place_explorers", "The excavator places the explorers of the excavated tile (ICE-CMD-16).",
             "ICE-EXC-4",
             (Field("shares", "array", "explorers per destination: the tiles below in slot order, then edge-1, "
                    "edge-2", items="integer"),
              Field("leaders", "object", "{seat: destination}", items="string"))),
    MoveType("place_leader", "Icewalkers, after their placement: place the leader (ICE-CMD-16).", "ICE-GLD-4",
             (TO,)),
    MoveType("move_camp", "The excavator of a camp tile moves the camp (ICE-CMD-16).", "ICE-EXC-3", (TO,)),
))
