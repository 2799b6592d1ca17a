"""I C E Expedition behind the Cairn game interface (spec ``rules/ice-expedition.md``)."""
from __future__ import annotations

import pickle

from domain.core import ChanceNode, Rules
from domain.ice_expedition import apply, chances, decide, legal, setup, view
from domain.ice_expedition.catalogue import load_catalogue
from domain.ice_expedition.events import COMMAND_OF, EVENT_OF
from domain.ice_expedition.flow import Flow
from domain.ice_expedition.geometry import Geometry
from domain.ice_expedition.scoring import score_sheet

# Every command with its fields and the rule behind it: the declaration GET /docs shows.
MOVE_FIELDS = {
    "choose_guild": ("Setup with guild_allocation 'choice', in seat order: take a guild (ICE-CMD-1).",
                     {"guild": "G-CRYO, G-INCA, G-NAVI, G-ICEW or G-ALCH"}),
    "keep_request": ("After a registry draw, the drawing seat keeps one card (ICE-CMD-2).",
                     {"card": "a drawn card id"}),
    "move": ("Move a leader (ICE-ACT-1, ICE-CMD-3).",
             {"leader": "a seat", "to": "a slot", "archaeologists": "0-3 going along"}),
    "excavate": ("Excavate under a leader (ICE-EXC-1..4, ICE-CMD-4).",
                 {"leader": "a seat", "cryo": "use the CryoArchitects' ability",
                  "tile": "a Termite or Talisman snow tile id, or null"}),
    "set_up_camp": ("Set up a camp (ICE-ACT-3, ICE-CMD-5).",
                    {"to": "a slot", "archaeologists": "Navigators' archaeologists, else 0"}),
    "recruit": ("Recruit an explorer (ICE-ACT-4, ICE-CMD-6).",
                {"kind": "archaeologist or leader", "camp": "a slot",
                 "archaeologists": "Navigators' archaeologists, else 0"}),
    "check_registry": ("Check the registry (ICE-ACT-5, ICE-CMD-7).", {}),
    "overwork": ("Overwork (ICE-ACT-6, ICE-CMD-8).", {}),
    "plan": ("Plan (ICE-ACT-7, ICE-CMD-9).", {}),
    "resend": ("Resend (ICE-ACT-8, ICE-CMD-10).", {}),
    "send_to_city": ("The seat whose day is ending sends an artifact to the city (ICE-ACT-9, ICE-CMD-11).",
                     {"artifact": "an artifact id"}),
    "stop_sending": ("The seat whose day is ending sends nothing more (ICE-ACT-9, ICE-CMD-11).", {}),
    "play_snow_tile": ("Play a snow tile; the fields besides tile are its effect's (ICE-ACT-10, ICE-CMD-12).",
                       {"tile": "a snow tile id in your hand", "from": "Spiders: the start slot",
                        "to": "Spiders, Manta Ray: the slot", "archaeologists": "Manta Ray: how many",
                        "at": "Smilodon, Rune: the slot", "leader": "Sailboat, Charisma: a seat",
                        "player": "Wreck: a seat", "slot": "Storm Whistle: a slot, or null when none exists"}),
    "use_guild_ability": ("Use your guild's ability (ICE-GLD-*, ICE-CMD-13).",
                          {"count": "Alchemists: 1-3; no field for the other guilds"}),
    "discard_snow_tile": ("Over the hand limit of 4: discard a snow tile (ICE-EXP-10, ICE-CMD-15).",
                          {"tile": "a snow tile id in your hand"}),
    "end_turn": ("End your turn (ICE-EXP-6, ICE-CMD-17).", {}),
    "end_day": ("End your day (ICE-EXP-8, ICE-CMD-18).", {}),
    "place_explorers": ("The excavator places the explorers of the excavated tile (ICE-EXC-4, ICE-CMD-16).",
                        {"shares": "explorers per destination: the tiles below in slot order, then edge-1, edge-2",
                         "leaders": "{seat: destination}"}),
    "place_leader": ("Icewalkers, after their placement: place the leader (ICE-GLD-4).", {"to": "a slot"}),
    "move_camp": ("The excavator of a camp tile moves the camp (ICE-EXC-3).", {"to": "a slot"}),
    "keep_tile": ("Alchemists keep a drawn bag tile (ICE-GLD-5).", {"tile": "a drawn tile id"}),
    "relocate": ("Storm Whistle or snowfall: move one explorer off a tile it covered (ICE-SNOW-12).",
                 {"explorer": "a leader's seat, or archaeologist", "to": "a slot"}),
    "choose_tile": ("The first player chooses a tile (ICE-LOG-4, ICE-LOG-6).", {"at": "a slot"}),
    "place_snowflake": ("The first player places a logbook snowflake (ICE-LOG-E4).", {"slot": "a slot"}),
}
# Options: every alternative reading the spec offers (AMB-4, AMB-2, AMB-3, AMB-13, AMB-22, AMB-24)
# and its variants (First Steps, guild choice, logbook order), defaults from the data files.
OPTION_CHOICES = {
    "first_steps": {"type": "boolean"},
    "guild_allocation": {"enum": ["random", "choice"]},
    "excavate_base_cost": {"enum": [3, 4]},
    "excavate_cap_stage": {"enum": ["gross", "net"]},
    "leader_counts_for_cost": {"type": "boolean"},
    "camp_and_nunatak_stack": {"type": "boolean"},
    "overwork_max_per_turn": {"enum": [1, 2]},
    "hand_discard_incoming": {"type": "boolean"},
    "rune_targets": {"enum": ["not_fully_covered", "uncovered"]},
    "shape_combinations": {"enum": ["disjoint", "pairs"]},
    "allow_voluntary_end_day": {"type": "boolean"},
    "logbook_order": {"enum": ["fixed", "shuffled"]},
}


class IceExpedition(Rules):
    name = "ice-expedition"
    title = "I C E Expedition"
    rules_version = "2"
    player_counts = (2, 3, 4, 5)

    def __init__(self) -> None:
        self.data = load_catalogue()
        self.geo = Geometry(self.data.board)
        defaults = {**self.data.params, "logbook_order": self.data.cards["logbook_order"]}
        self.options_schema = {
            "type": "object",
            "properties": {key: {**spec, "default": defaults[key]} for key, spec in OPTION_CHOICES.items()},
            "additionalProperties": False,
        }

    def data_versions(self) -> dict[str, str]:
        return dict(self.data.versions)

    def setup(self, created: dict) -> dict:
        return setup.initial_state(self, created)

    def event_types(self) -> frozenset[str]:
        return frozenset(COMMAND_OF)

    def apply(self, state: dict, event: dict) -> dict:
        return apply.apply(self, state, event)

    def decide(self, state: dict, seat: str, command: dict) -> list[dict]:
        return decide.decide(self, state, seat, command)

    def chance_node(self, state: dict) -> ChanceNode | None:
        if not state["chance"]:
            return None
        return chances.node_for(Flow(self, state), state["chance"][0])

    def to_act(self, state: dict) -> list[str]:
        return legal.to_act(state)

    def move_types(self) -> list[dict]:
        return [{"type": kind, "description": MOVE_FIELDS[kind][0], "fields": MOVE_FIELDS[kind][1]}
                for kind in EVENT_OF]

    def legal_moves(self, state: dict, seat: str) -> list[dict]:
        return legal.legal_moves(self, state, seat)

    def view(self, state: dict, reader: str | None) -> dict:
        return view.view(self, state, reader)

    def secrets(self, state: dict) -> dict[str, set[str]]:
        return view.secrets(state)

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def final_score(self, state: dict) -> dict:
        return score_sheet(self.data, state)

    def copy_state(self, state: dict) -> dict:
        """Pickle round trip: the state is plain JSON data, and this is the fastest faithful copy."""
        return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
