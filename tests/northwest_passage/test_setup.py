"""Setup and the opening draft (spec 3), with its chance decisions."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, IllegalMove
from domain.core.match import create, legal_moves, view, waiting_for
from domain.northwest_passage import RULES
from tests.northwest_passage.helpers import OPENING_DISPLAY, new_match, play, resolve, started


def test_the_initial_turn_order_is_a_public_chance_decision():
    """NWP-SETUP-2: the first player is drawn; all seats are candidates and everyone sees the result."""
    match, _ = create(RULES, {}, ["A", "B", "C"], "table", None)
    node = RULES.chance_node(match.state)
    assert node.key == "turn_order" and set(node.candidates) == {"p1", "p2", "p3"} and node.count == 3
    assert node.visible_to is None
    events = resolve(match, ["p2", "p3", "p1"])
    assert events[0]["data"]["outcome"] == ["p2", "p3", "p1"]
    assert match.state["order"] == ["p2", "p3", "p1"]


def test_the_opening_display_is_drawn_from_the_whole_stock():
    """NWP-SETUP-5 / NWP-SETUP-6 / NWP-COMP-6: 4 large tiles face up, drawn from the 64 unique tile ids."""
    match, _ = create(RULES, {}, ["A", "B"], "table", None)
    resolve(match, ["p1", "p2"])
    node = RULES.chance_node(match.state)
    assert node.key == "display" and node.count == 4 and len(node.candidates) == 64
    resolve(match, list(OPENING_DISPLAY))
    assert match.state["display"] == OPENING_DISPLAY
    assert len(match.state["stock"]) == 60


def test_everyone_starts_in_greenland_with_seven_crew_on_the_ship():
    """NWP-SETUP-3 / NWP-SETUP-4 / NWP-SETUP-8 / NWP-COMP-3 / NWP-COMP-19 / NWP-COMP-21 / NWP-COMP-22."""
    match = new_match(3)
    state = match.state
    assert state["sun"] == 0 and RULES.catalogue.frozen_cells[0] == frozenset()
    for player in state["players"].values():
        assert player["ship"]["at"] == "G"
        assert (player["ship"]["available"], player["ship"]["resting"]) == (7, 0)
        assert player["sled"]["at"] is None and player["sled"]["available"] + player["sled"]["resting"] == 0
        assert sum(player["fame_by"].values()) == 0 and sum(player["tokens"].values()) == 0
        assert not player["reached_northwest"]


def test_the_draft_runs_in_reverse_turn_order_and_refills_the_display():
    """NWP-SETUP-9 / NWP-SETUP-10 / NWP-CMD-1: last player first, one free tile each, display refilled."""
    match = new_match(3, order=["p2", "p3", "p1"])
    assert waiting_for(match) == ["p1"]
    moves = legal_moves(match, "p1")
    assert {move["source"] for move in moves} == set(OPENING_DISPLAY) | set(RULES.catalogue.small)
    assert all(move["type"] == "draft_pick" for move in moves)
    play(match, "p1", {"type": "draft_pick", "source": "L02#1"})
    assert match.state["players"]["p1"]["hand"] == ["L02#1"]
    assert match.state["players"]["p1"]["ship"]["available"] == 7
    node = RULES.chance_node(match.state)
    assert node.key == "refill" and node.count == 1 and "L02#1" not in node.candidates
    assert waiting_for(match) == [ORGANISER]
    resolve(match, ["L16#2"])
    assert match.state["display"] == ["L01#1", "L03#1", "L09#1", "L16#2"]
    assert waiting_for(match) == ["p3"]
    play(match, "p3", {"type": "draft_pick", "source": "S05"})
    assert match.state["players"]["p3"]["hand"] == ["S05#1"]
    assert waiting_for(match) == ["p2"]
    with pytest.raises(IllegalMove) as error:
        play(match, "p2", {"type": "draw_tile", "source": "S05", "pay_from": "ship"})
    assert error.value.rule_id == "NWP-SETUP-9"
    play(match, "p2", {"type": "draft_pick", "source": "S05"})
    assert match.state["players"]["p2"]["hand"] == ["S05#2"]


def test_round_one_starts_with_the_drawn_order():
    """NWP-SETUP-11 / NWP-COMP-23: after the draft the first player of the drawn order acts."""
    match = started(3, order=["p3", "p1", "p2"])
    assert match.state["phase"] == "play" and match.state["round"] == 1
    assert waiting_for(match) == ["p3"]
    assert match.state["order"] == ["p3", "p1", "p2"]


def test_only_the_stock_order_is_hidden():
    """Spec 10.4: display, reserves and crews are public; the stock shows only its size."""
    match = started(2)
    public = view(match, None)["state"]
    assert "stock" not in public and public["stock_size"] == 60
    assert public["players"]["p1"]["hand"] == ["S01#2"]
    assert public["display"] == OPENING_DISPLAY
    assert RULES.secrets(match.state) == {}
