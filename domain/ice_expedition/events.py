"""The event that records each command, and back: decide writes one event per command, apply reads the command
out of it again.
"""
from __future__ import annotations

# Each command (spec 10.1, ICE-CMD-n) and the event that records it; ICE-CMD-14 (use_artifact_effect)
# is refused in decide, ICE-CMD-16 covers every pending decision.
EVENT_OF = {
    "choose_guild": "guild_chosen",  # ICE-CMD-1
    "keep_request": "request_kept",  # ICE-CMD-2
    "move": "leader_moved",  # ICE-CMD-3
    "excavate": "tile_excavated",  # ICE-CMD-4
    "set_up_camp": "camp_set_up",  # ICE-CMD-5
    "recruit": "explorer_recruited",  # ICE-CMD-6
    "check_registry": "registry_checked",  # ICE-CMD-7
    "overwork": "overworked",  # ICE-CMD-8
    "plan": "plan_taken",  # ICE-CMD-9
    "resend": "resent",  # ICE-CMD-10
    "send_to_city": "artifact_sent",  # ICE-CMD-11
    "stop_sending": "sending_stopped",  # ICE-CMD-11
    "play_snow_tile": "snow_tile_played",  # ICE-CMD-12
    "use_guild_ability": "guild_ability_used",  # ICE-CMD-13
    "discard_snow_tile": "snow_tile_discarded",  # ICE-CMD-15
    "end_turn": "turn_ended",  # ICE-CMD-17
    "end_day": "day_ended",  # ICE-CMD-18
    "keep_tile": "tile_kept",  # ICE-CMD-16
    "relocate": "explorers_relocated",  # ICE-CMD-16
    "choose_tile": "tile_chosen",  # ICE-CMD-16
    "place_snowflake": "snowflake_placed",  # ICE-CMD-16
    "place_explorers": "explorers_placed",  # ICE-CMD-16
    "place_leader": "leader_placed",  # ICE-CMD-16
    "move_camp": "camp_moved",  # ICE-CMD-16
}
COMMAND_OF = {event: command for command, event in EVENT_OF.items()}
# What decide adds to an event for the record (a dig's cost, a played tile's front and effect), not part of the
# command apply carries out again.
INFO_KEYS = ("cost", "front", "effect")
