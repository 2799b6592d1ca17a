"""Random legal play to the end under the non-default options, through the generic conformance checks."""
from __future__ import annotations

import pytest

from domain.core import SERVER, TABLE
from domain.northwest_passage import RULES
from tests.conformance.harness import play_random_game

VARIANTS = [
    {"hole_fill_source": "supply_only", "small_tiles_unlimited": False},
    {"sled_on_thawed_sea": "lost", "northwest_arrival_trigger": "ship"},
    {"greenland_requires_northwest": False, "greenland_arrival_trigger": "all_crew"},
]


@pytest.mark.parametrize("options", VARIANTS)
@pytest.mark.parametrize(("players", "mode"), [(2, TABLE), (4, SERVER)])
def test_options_play_to_the_end(options, players, mode):
    """NWP-ACT-4, NWP-ACT-7, NWP-SCORE-3, NWP-SCORE-4, NWP-COMP-14: every option keeps the game sound."""
    report = play_random_game(RULES, players, mode, 7, options=options)
    assert report.match.ended
    assert report.events[0]["data"]["options"] == {**report.events[0]["data"]["options"], **options}
    sheet = RULES.final_score(report.match.state)
    assert set(sheet["totals"]) == set(report.match.seats)
