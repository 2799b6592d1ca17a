"""Random legal play to the end under the non-default options, through the generic conformance checks."""
from __future__ import annotations

import random

import pytest

from domain.core import SERVER, TABLE, IllegalMove
from domain.core.match import apply_event, create, legal_moves, submit, waiting_for
from domain.northwest_passage import RULES
from tests.conformance.harness import perturbations, play_random_game

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


ENGINE_CODES = {"missing_field", "invalid_field", "unknown_move_type", "not_your_turn", "chance_pending"}


def test_every_rule_refusal_names_its_rule():
    """Spec 10.2: a refused command cites the rule that forbids it (NWP-ROUND-4, NWP-ACT-3, ...)."""
    rng = random.Random(3)
    match, _ = create(RULES, {}, ["A", "B", "C"], SERVER, "refusals")
    refused = 0
    while not match.ended:
        seat = waiting_for(match)[0]
        moves = legal_moves(match, seat)
        for move in perturbations(moves, rng, 5):
            if move in moves:
                continue
            try:
                submit(match, seat, move, "refusals")
            except IllegalMove as error:
                refused += 1
                assert error.code in ENGINE_CODES or error.rule_id and error.rule_id.startswith("NWP-"), error
        for event in submit(match, seat, rng.choice(moves), "refusals"):
            apply_event(match, event)
    assert refused > 100
