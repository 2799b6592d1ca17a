"""The Boarding phase (TIS-BRD-*) and TIS-LOSE-2."""
from __future__ import annotations

import pytest

from domain.through_ice_and_snow.voyage import next_helm
from tests.through_ice_and_snow.helpers import act, bare_state, do, pass_all, player, sail, table_game, turn

P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]


@pytest.mark.parametrize(("dynamite", "helm"), [((3, 3, 1), 1), ((4, 3, 1), 0), ((1, 3, 3), 1)])
def test_next_leader_by_dynamite(dynamite, helm):
    """TV-17 / TIS-BRD-2: nobody took Lead; a tie goes clockwise from the current leader, who is excluded."""
    match = bare_state(3)
    state = match.state
    state["leader"] = 0
    for seat, count in enumerate(dynamite):
        state["players"][seat]["dynamite"] = count
    assert next_helm(state, None) == helm


def test_the_lead_taker_needs_dynamite_to_take_the_helm():
    """TIS-BRD-2."""
    match = bare_state(3)
    state = match.state
    state["leader"] = 0
    for seat, count in enumerate((2, 0, 1)):
        state["players"][seat]["dynamite"] = count
    assert next_helm(state, 2) == 2
    assert next_helm(state, 1) == 0


def test_nobody_with_dynamite_at_next_leader_loses_the_game():
    """TIS-LOSE-2."""
    match = table_game(2)
    sail(match, "E1")
    for hero in match.state["players"]:
        hero["dynamite"] = 0
    pass_all(match)
    assert match.ended and match.state["over"]["rule"] == "TIS-LOSE-2"
    assert match.rules.final_score(match.state) == {
        "outcome": "all_lost", "rule": "TIS-LOSE-2", "detail": "nobody owns dynamite to take the helm",
        "lines": [], "totals": {}, "ranking": [], "tie_breaks": []}


def test_boarding_meal_and_cleanup():
    """TIS-BRD-1 (with the Galley), TIS-BRD-3 and TIS-BRD-4 after one Action phase."""
    match = table_game(3, P1_LEADS[:3])
    match.state["anchor"] = "E1"
    sail(match, "E3", draws={"event": ["ev16"], "hunting_setup": ["H01", "H02"], "species_setup": ["S01", "S05"]})
    hero = player(match, "p1")
    hero["upgrades"] = [2]
    hero["food"] = 20
    act(match, "hire-inuk-1", "captain", {"sailor": 1})
    player(match, "p2")["free"]["sailor"] = 0  # as if in the sick bay
    do(match, "p2", {"type": "pass"})
    do(match, "p3", {"type": "pass"})
    act(match, "event", None, {"scientist": 1, "carpenter": 1})
    do(match, "p1", {"type": "pass"})
    # Galley +2, event +5, then the meal: 3 officers + 3 sailors + the hired Inuk = 7
    assert hero["food"] == 20 + 5 + 2 - 7
    assert hero["free"] == hero["crew"] == {"captain": 1, "carpenter": 1, "scientist": 1, "sailor": 3, "inuk": 1}
    assert player(match, "p2")["free"]["sailor"] == 3
    state = match.state
    assert state["discards"]["hunting"] == ["H01", "H02"]
    assert state["discards"]["species"] == ["S01", "S05"]
    assert state["discards"]["events"] == ["ev16"]
    assert state["revealed"] == {"hunting": [], "species": []} and state["event"] is None and state["used"] == {}
    assert turn(match) == "p1"  # round 2 begins: the helm stayed with the most dynamite
