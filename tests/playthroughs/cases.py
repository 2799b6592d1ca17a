"""The golden playthroughs: one case for every game and every option set that changes what its engine does.

A case names the game, the player count, the options that differ from the defaults, the chance mode and the
seeds. Its file under ``tests/playthroughs/<game>/<name>.txt`` holds the history it recorded; the case list
is the only place that says which histories exist.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from domain.core import SERVER, TABLE


@dataclass(frozen=True)
class Case:
    game: str
    name: str
    players: int
    options: dict = field(default_factory=dict)
    chance_mode: str = SERVER
    # After this many random moves a seat resigns (TABLE-RESIGN-1), which ends the game.
    resign_after: int | None = None
    # From this many random moves on, the first seat that may take back its last command asks to, and the
    # others accept (TABLE-TAKEBACK-1..3); once in the game.
    takeback_after: int | None = None

    @property
    def seed(self) -> str | None:
        """The server's seed; a table game has none (the organiser's draws are recorded as moves)."""
        return f"golden-{self.game}-{self.name}" if self.chance_mode == SERVER else None

    @property
    def path(self) -> str:
        return f"{self.game}/{self.name}.txt"


def _borealis() -> list[Case]:
    game = "borealis"
    return [
        Case(game, "side-one", 2),
        Case(game, "side-one-table", 2, chance_mode=TABLE),
        Case(game, "side-two", 3, {"board_side": "II"}),
        Case(game, "manual-goal-claims", 4, {"goal_claim_mode": "manual"}),
        Case(game, "table-refresh-limit", 2, {"refresh_limit": "table_per_round"}),
    ]


TIS_MODULES = ("survival", "shelter_building", "dual_species", "inuit_myths", "walking_on_ice")
TIS_SCENARIOS = ("lost_expedition", "magnetic_north_pole", "mysterious_epidemic", "amundsens_voyage")
TIS_LEGENDARY = ["explorers", "ships", "explorer_events"]


def _through_ice_and_snow() -> list[Case]:
    game = "through-ice-and-snow"
    cases = [Case(game, "base", 2), Case(game, "base-table", 3, chance_mode=TABLE)]
    cases += [Case(game, module.replace("_", "-"), 2, {module: True}) for module in TIS_MODULES]
    cases.append(Case(game, "all-modules", 3, {module: True for module in TIS_MODULES}))
    cases.append(Case(game, "myths-and-legends", 2, {"inuit_myths": True, "walking_on_ice": True,
                                                     "legendary_expeditions": TIS_LEGENDARY}))
    cases.append(Case(game, "legendary-expeditions", 4, {"legendary_expeditions": TIS_LEGENDARY}))
    cases.append(Case(game, "base-box-extras", 2, {"extra_events": [25, 26, 27, 28], "all_upgrades": True,
                                                   "whale_hunting": True, "variant_coastal_extra_species": True}))
    cases += [Case(game, f"solo-{scenario.replace('_', '-')}", 1, {"scenario": scenario})
              for scenario in TIS_SCENARIOS]
    return cases


NWP_OPTIONS = {
    "hole_fill_source": "supply_only",
    "sled_on_thawed_sea": "lost",
    "greenland_requires_northwest": False,
    "greenland_arrival_trigger": "all_crew",
    "northwest_arrival_trigger": "ship",
    "small_tiles_unlimited": False,
    "never_left_greenland": "abandoned",
}


def _each_option_alone(game: str, options: dict, player_counts: tuple[int, ...]) -> list[Case]:
    """The defaults (server and table chance), then every option changed alone, the player counts in turn."""
    cases = [Case(game, "default", 2), Case(game, "default-table", 3, chance_mode=TABLE)]
    cases += [Case(game, key.replace("_", "-"), player_counts[index % len(player_counts)], {key: value})
              for index, (key, value) in enumerate(options.items())]
    return cases


ICE_OPTIONS = {
    "first_steps": True,
    "guild_allocation": "choice",
    "excavate_base_cost": 4,
    "excavate_cap_stage": "net",
    "leader_counts_for_cost": False,
    "camp_and_nunatak_stack": False,
    "overwork_max_per_turn": 2,
    "hand_discard_incoming": True,
    "rune_targets": "uncovered",
    "shape_combinations": "pairs",
    "allow_voluntary_end_day": False,
    "logbook_order": "shuffled",
}


# One resignation per game, in the middle of a game of three: the table ends it and ranks the seat last.
RESIGNATIONS = tuple(Case(game, "resignation", 3, resign_after=40)
                     for game in ("borealis", "through-ice-and-snow", "northwest-passage", "ice-expedition"))

# One granted takeback per game, in a game of three: both other seats accept, and the game goes on from the
# rewound state.
TAKEBACKS = tuple(Case(game, "takeback", 3, takeback_after=12)
                  for game in ("borealis", "through-ice-and-snow", "northwest-passage", "ice-expedition"))

CASES: tuple[Case, ...] = (*_borealis(), *_through_ice_and_snow(),
                           *_each_option_alone("northwest-passage", NWP_OPTIONS, (2, 3, 4)),
                           *_each_option_alone("ice-expedition", ICE_OPTIONS, (2, 3, 4, 5)), *RESIGNATIONS,
                           *TAKEBACKS)
