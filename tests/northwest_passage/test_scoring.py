"""Arrivals, majorities, sets, abandonment and the final ranking (spec 6.2, 6.3; examples V6 to V8, V10)."""
from __future__ import annotations

import pytest

from domain.northwest_passage import RULES
from domain.northwest_passage.scoring import abandonment, majority_points, rank, sets
from tests.northwest_passage.helpers import event_of, play, put, started, vessel

TABLES = RULES.catalogue.tables
FOUR = TABLES["majority"]["wreck"]["4"]


@pytest.mark.parametrize(("counts", "points"), [
    ((3, 3, 1, 0), (3, 3, 1, 0)),
    ((2, 2, 2, 1), (1, 1, 1, 0)),
    ((4, 2, 2, 2), (6, 0, 0, 0)),
    ((5, 3, 3, 1), (6, 1, 1, 0)),
])
def test_v6_majorities_ties_take_the_worst_shared_place(counts, points):
    """NWP-SCORE-5 (V6 / A14): 4 players, table 6/3/1; ties share the lowest place; zero tokens score zero."""
    seats = ("A", "B", "C", "D")
    assert FOUR == [6, 3, 1]
    assert majority_points(dict(zip(seats, counts, strict=True)), FOUR) == dict(zip(seats, points, strict=True))


@pytest.mark.parametrize(("counts", "sets_made"), [((2, 1, 3, 2, 4), 1), ((2, 2, 2, 2, 3), 2), ((3, 0, 4, 4, 4), 0)])
def test_v7_sets_of_five(counts, sets_made):
    """NWP-SCORE-6 / NWP-COMP-16 (V7): one of each of Inuit, cairn, wreck, strait, map is a set worth 6."""
    tokens = dict(zip(("inuit", "cairn", "wreck", "strait", "map"), counts, strict=True))
    assert sets(tokens) == sets_made
    assert sets_made * TABLES["set_value"] == {0: 0, 1: 6, 2: 12}[sets_made]


def crew(at, available, resting=0, returned=False):
    return {"at": at, "available": available, "resting": resting, "returned": returned, "lost": False,
            "left_greenland": True}


@pytest.mark.parametrize(("ship", "sled", "penalty"), [
    (crew("L01#1", 4), crew("L02#1", 2, 1), -18),
    (crew("G", 4, returned=True), crew("L02#1", 3), -8),
    (crew("L01#1", 7), crew(None, 0), -16),
    (crew("L01#1", 0), crew("G", 7, returned=True), -2),
])
def test_v8_abandonment(ship, sled, penalty):
    """NWP-SCORE-7 (V8): -2 per crewman and -2 per vessel not back; -18 at most; an off-board sled is no vessel."""
    assert abandonment({"ship": ship, "sled": sled}, TABLES) == penalty
    assert abandonment({"ship": ship, "sled": sled}, TABLES, "abandoned") == penalty


def at_home(available):
    """A vessel in Greenland that never left it."""
    return {"at": "G", "available": available, "resting": 0, "returned": False, "lost": False,
            "left_greenland": False}


@pytest.mark.parametrize(("ship", "sled", "literal", "abandoned"), [
    (at_home(7), crew(None, 0), 0, -16),
    (at_home(4), at_home(3), 0, -18),
    (at_home(0), crew("L02#1", 7), -16, -18),
])
def test_a_vessel_that_never_left_greenland(ship, sled, literal, abandoned):
    """NWP-SCORE-7: the seed penalises a vessel that did not return to or has not arrived in Greenland; one
    still there pays nothing by default, and counts as abandoned with never_left_greenland = abandoned."""
    assert abandonment({"ship": ship, "sled": sled}, TABLES) == literal
    assert abandonment({"ship": ship, "sled": sled}, TABLES, "abandoned") == abandoned


def test_v10_arrival_ranks_with_three_players():
    """NWP-SCORE-3 / NWP-SCORE-4 (V10): B +8, A +5 in the Northwest; A +6, B +4 home; C home without it: nothing."""
    match = started(3, order=["p2", "p1", "p3"])
    put(match, "S01#5", 0, 7)
    put(match, "S01#6", 11, 3)
    put(match, "S03#6", 11, 4, rotation=90)
    for seat in ("p1", "p2"):
        vessel(match, seat, "ship", "S01#5", 5)
        vessel(match, seat, "sled", "S03#6", 2)
    vessel(match, "p3", "ship", "S01#6", 7)
    events = play(match, "p2", {"type": "move_ship", "to": "N"})
    assert event_of(events, "northwest_reached") == {"rank": 1, "fame": 8, "vessel": "ship"}
    play(match, "p2", {"type": "end_turn"})
    events = play(match, "p1", {"type": "move_ship", "to": "N"})
    assert event_of(events, "northwest_reached")["fame"] == 5
    play(match, "p1", {"type": "end_turn"})
    events = play(match, "p3", {"type": "move_ship", "to": "G"})
    assert event_of(events, "greenland_reached") == {"rank": None, "fame": 0, "vessel": "ship"}
    play(match, "p2", {"type": "pass"})
    events = play(match, "p1", {"type": "move_sled", "to": "G"})
    assert event_of(events, "greenland_reached") == {"rank": 1, "fame": 6, "vessel": "sled"}
    play(match, "p1", {"type": "pass"})
    assert match.state["order"] == ["p3", "p2", "p1"]
    events = play(match, "p2", {"type": "move_sled", "to": "G"})
    assert event_of(events, "greenland_reached") == {"rank": 2, "fame": 4, "vessel": "sled"}
    fame = {seat: player["fame_by"] for seat, player in match.state["players"].items()}
    assert (fame["p1"]["NWP-SCORE-3"], fame["p1"]["NWP-SCORE-4"]) == (5, 6)
    assert (fame["p2"]["NWP-SCORE-3"], fame["p2"]["NWP-SCORE-4"]) == (8, 4)
    assert (fame["p3"]["NWP-SCORE-3"], fame["p3"]["NWP-SCORE-4"]) == (0, 0)
    assert match.state["greenland_arrivals"] == ["p1", "p2"]


def greenland_ready(options):
    match = started(2, options)
    put(match, "S01#5", 11, 4)
    put(match, "S03#5", 0, 7, rotation=270)
    vessel(match, "p1", "ship", "S01#5", 5)
    vessel(match, "p1", "sled", "S03#5", 2)
    return match


def test_without_the_northwest_requirement_any_return_ranks():
    """NWP-SCORE-4 (A2): greenland_requires_northwest = false pays the first return even without the Northwest."""
    match = greenland_ready({"greenland_requires_northwest": False})
    events = play(match, "p1", {"type": "move_ship", "to": "G"})
    assert event_of(events, "greenland_reached") == {"rank": 1, "fame": 6, "vessel": "ship"}


def test_the_northwest_can_be_counted_for_ships_only():
    """NWP-SCORE-3 (A2): northwest_arrival_trigger = ship ignores a sled entering the Northwest."""
    match = greenland_ready({"northwest_arrival_trigger": "ship"})
    events = play(match, "p1", {"type": "move_sled", "to": "N"})
    assert "northwest_reached" not in [event["type"] for event in events]
    default = greenland_ready({})
    assert event_of(play(default, "p1", {"type": "move_sled", "to": "N"}), "northwest_reached")["rank"] == 1


def test_the_greenland_return_can_wait_for_all_crew():
    """NWP-SCORE-4 (A2): greenland_arrival_trigger = all_crew ranks the return once no crewman is still out."""
    match = greenland_ready({"greenland_arrival_trigger": "all_crew", "greenland_requires_northwest": False})
    events = play(match, "p1", {"type": "move_ship", "to": "G"})
    assert "greenland_reached" not in [event["type"] for event in events]
    assert not match.state["players"]["p1"]["return_judged"]


def test_final_fame_adds_live_fame_majorities_sets_and_abandonment():
    """NWP-END-5 / NWP-SCORE-1 to NWP-SCORE-7: the score sheet has one line per scoring rule."""
    match = started(2)
    p1, p2 = match.state["players"]["p1"], match.state["players"]["p2"]
    p1["fame_by"].update({"NWP-SCORE-1": 5, "NWP-SCORE-2": 3, "NWP-SCORE-3": 8, "NWP-SCORE-4": 6})
    p1["tokens"].update({"inuit": 1, "cairn": 1, "wreck": 2, "strait": 1, "map": 1})
    p1["ship"].update(returned=True, left_greenland=True)
    p2["tokens"].update({"wreck": 1, "strait": 1, "map": 1})
    sheet = RULES.final_score(match.state)
    lines = {(line["seat"], line["rule"], line["label"]): line["points"] for line in sheet["lines"]}
    assert lines[("p1", "NWP-SCORE-5", "wreck majority (2)")] == 4
    assert lines[("p1", "NWP-SCORE-5", "strait majority (1)")] == 0
    assert lines[("p1", "NWP-SCORE-6", "1 sets of five")] == 6
    assert lines[("p1", "NWP-SCORE-7", "abandoned vessels and crew")] == 0
    assert lines[("p2", "NWP-SCORE-7", "abandoned vessels and crew")] == 0  # its ship never left Greenland
    assert sheet["totals"] == {"p1": 5 + 3 + 8 + 6 + 4 + 6, "p2": 0}
    assert sheet["ranking"] == [{"rank": 1, "seats": ["p1"]}, {"rank": 2, "seats": ["p2"]}]


def test_the_never_left_greenland_option_in_the_score_sheet():
    """NWP-SCORE-7: a ship that never left Greenland with its 7 crew costs nothing by default, -16
    with never_left_greenland = abandoned; a game recorded before the option was scored the second way."""
    for options, penalty in (({}, 0), ({"never_left_greenland": "not_abandoned"}, 0),
                             ({"never_left_greenland": "abandoned"}, -16)):
        match = started(2, options=options)
        assert match.state["players"]["p2"]["ship"]["at"] == "G"
        lines = {(line["seat"], line["rule"]): line["points"] for line in RULES.final_score(match.state)["lines"]}
        assert lines[("p2", "NWP-SCORE-7")] == penalty
    del match.state["options"]["never_left_greenland"]
    lines = {(line["seat"], line["rule"]): line["points"] for line in RULES.final_score(match.state)["lines"]}
    assert lines[("p2", "NWP-SCORE-7")] == -16


def test_equal_fame_goes_to_the_first_back_in_greenland():
    """NWP-END-6 (A19): the tied player who returned first wins; tied players who never returned share."""
    ranking, tie_breaks = rank({"p1": 20, "p2": 20, "p3": 20, "p4": 5}, ["p3"])
    assert ranking == [{"rank": 1, "seats": ["p3"]}, {"rank": 2, "seats": ["p1", "p2"]}, {"rank": 4, "seats": ["p4"]}]
    assert tie_breaks[0]["rule"] == "NWP-END-6" and "p3 returned to Greenland first" in tie_breaks[0]["detail"]
