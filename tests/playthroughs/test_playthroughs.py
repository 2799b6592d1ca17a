"""Every golden playthrough replays through today's engines to the same events, states and score."""
from __future__ import annotations

import pytest

from domain.registry import get_rules
from tests.playthroughs.cases import CASES, TAKEBACKS
from tests.playthroughs.record import FOLDER, difference, recorded, replay


@pytest.mark.parametrize("case", CASES, ids=[case.path for case in CASES])
def test_playthrough_replays_identically(case):
    golden, replayed = replay(case)
    assert replayed == golden, (
        "the engines no longer play this recorded history the same way; if the rules change is meant, raise "
        f"{case.game}'s rules_version and run ./run playthroughs\n" + difference(case, golden, replayed)
    )


@pytest.mark.parametrize("case", CASES, ids=[case.path for case in CASES])
def test_playthrough_is_recorded_under_the_current_rules_version(case):
    golden = (FOLDER / case.path).read_text(encoding="utf-8")
    assert recorded(golden, "rules_version") == get_rules(case.game).rules_version


def test_every_playthrough_file_has_a_case():
    named = {case.path for case in CASES}
    on_disk = {str(path.relative_to(FOLDER)) for path in FOLDER.glob("*/*.txt")}
    assert on_disk == named


@pytest.mark.parametrize("case", TAKEBACKS, ids=[case.path for case in TAKEBACKS])
def test_a_takeback_playthrough_takes_back_once_and_plays_on(case):
    """TABLE-TAKEBACK-3 pinned in every game: one granted takeback, then the game goes on to its end."""
    golden = (FOLDER / case.path).read_text(encoding="utf-8")
    assert golden.count('"type":"moves_taken_back"') == 1
    assert golden.index('"type":"moves_taken_back"') < golden.rindex("\nmove ")
