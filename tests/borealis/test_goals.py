"""Goals (§5): requirements, automatic and manual claims, the claim window and removal at the end of the round."""
from __future__ import annotations

import pytest

from domain.borealis import RULES
from domain.borealis.board import new_board
from domain.borealis.goals import requirement_met
from domain.core import IllegalMove
from domain.core.match import legal_moves
from tests.borealis.helpers import board, new_game, pass_turn, place_scientists, play, resolve

COMPARING_NOTES = ["spotting_list", "comparing_notes", "bold_explorers"]


def goal(match, goal_id):
    return next(g for g in match.state["goals"] if g["goal_id"] == goal_id)


def camp_third_scientist(match, seat, card, camp_r):
    """Observe ``card`` at RIGHT so that its right-hand scientist becomes the third one in CAMP_R."""
    place_scientists(match, seat, {"CAMP_R": camp_r, "RIGHT": (1, 1, 1)})
    return play(match, seat, {"type": "observe", "card_id": card, "location": "RIGHT"})


def take_and_refill(match, seat, refill):
    play(match, seat, {"type": "take_card", "pool_slot": 0})
    resolve(match, refill)


def test_auto_mode_claims_at_the_first_checkpoint_where_the_requirement_is_met():
    """BOR-GOAL-1, BOR-GOAL-2, BOR-GOAL-6 (auto, the default): +5 stars in the same batch as the action."""
    match = new_game(goals=COMPARING_NOTES)
    events = camp_third_scientist(match, "p1", "animal-02", (1, 1, 0))
    assert [event["type"] for event in events] == ["card_observed", "goal_claimed"]
    assert events[1]["data"] == {"goal_id": "comparing_notes", "stars": 5, "opens_window": True}
    assert board(match, "p1")["token_stars"] == 7
    assert goal(match, "comparing_notes")["claimed_by"] == ["p1"]
    assert goal(match, "comparing_notes")["first_claim_round"] == 1
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "claim_goal", "goal_id": "comparing_notes"})
    assert refused.value.rule_id == "BOR-GOAL-6"


def test_goal_window_vector_in_auto_mode():
    """§9.4: B claims in round 5, C joins in the same round, A meets it in round 6 and gets nothing.

    BOR-GOAL-3, BOR-GOAL-4, BOR-ROUND-1.
    """
    match = new_game(players=3, goals=COMPARING_NOTES)
    match.state["round"] = 5
    pass_turn(match, "p1")
    camp_third_scientist(match, "p2", "animal-11", (1, 1, 0))
    take_and_refill(match, "p2", "animal-50")
    assert board(match, "p2")["token_stars"] == 7
    events = camp_third_scientist(match, "p3", "animal-20", (1, 0, 1))
    assert events[-1]["data"] == {"goal_id": "comparing_notes", "stars": 5, "opens_window": False}
    assert goal(match, "comparing_notes")["removed"] is False
    take_and_refill(match, "p3", "animal-51")
    assert board(match, "p3")["token_stars"] == 7
    assert goal(match, "comparing_notes")["removed"] is True  # left with its last token at the end of round 5
    assert match.state["round"] == 6
    events = camp_third_scientist(match, "p1", "animal-02", (1, 1, 0))
    assert [event["type"] for event in events] == ["card_observed"]
    assert board(match, "p1")["token_stars"] == 2


def test_goal_window_vector_in_manual_mode():
    """§9.4, BOR-GOAL-3: A met it on its round-5 turn before B's claim and may claim for the rest of round 5."""
    match = new_game(players=3, goals=COMPARING_NOTES, options={"goal_claim_mode": "manual"})
    match.state["round"] = 5
    events = camp_third_scientist(match, "p1", "animal-02", (1, 1, 0))
    assert [event["type"] for event in events] == ["card_observed"]  # manual: nothing is claimed for you
    assert board(match, "p1")["goals_met"] == ["comparing_notes"]
    assert {"type": "claim_goal", "goal_id": "comparing_notes"} in legal_moves(match, "p1")
    take_and_refill(match, "p1", "animal-50")
    assert RULES.to_act(match.state) == ["p2"] and RULES.may_act(match.state) == ["p1"]  # a claim out of turn
    assert [move["type"] for move in legal_moves(match, "p1")] == ["claim_goal"]
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "reorganise", "discard_card_ids": []})
    assert refused.value.rule_id == "BOR-TURN-1"
    camp_third_scientist(match, "p2", "animal-11", (1, 1, 0))
    play(match, "p2", {"type": "claim_goal", "goal_id": "comparing_notes"})
    take_and_refill(match, "p2", "animal-51")
    assert RULES.to_act(match.state) == ["p3"] and RULES.may_act(match.state) == ["p1"]
    play(match, "p1", {"type": "claim_goal", "goal_id": "comparing_notes"})  # out of turn, inside the window
    assert board(match, "p1")["token_stars"] == 7
    assert RULES.to_act(match.state) == ["p3"] and RULES.may_act(match.state) == []
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "claim_goal", "goal_id": "comparing_notes"})
    assert (refused.value.code, refused.value.rule_id) == ("already_claimed", "BOR-GOAL-1")
    pass_turn(match, "p3")
    assert goal(match, "comparing_notes")["removed"] is True
    for seat in ("p1", "p2"):  # BOR-GOAL-4 names the refusal whether or not it is the claimer's turn
        with pytest.raises(IllegalMove) as refused:
            play(match, seat, {"type": "claim_goal", "goal_id": "comparing_notes"})
        assert (refused.value.code, refused.value.rule_id) == ("goal_removed", "BOR-GOAL-4")
    assert goal(match, "comparing_notes")["claimed_by"] == ["p2", "p1"]


def test_a_requirement_met_earlier_may_still_be_claimed_late():
    """BOR-GOAL-5: met in round 1 unnoticed, claimed in round 3, which opens a window until the end of round 3."""
    match = new_game(players=2, goals=COMPARING_NOTES, options={"goal_claim_mode": "manual"})
    camp_third_scientist(match, "p1", "animal-02", (1, 1, 0))
    take_and_refill(match, "p1", "animal-50")
    pass_turn(match, "p2")
    pass_turn(match, "p1", target="LEFT")  # the camps empty again: the requirement no longer holds
    pass_turn(match, "p2")
    assert match.state["round"] == 3
    assert RULES.to_act(match.state) == ["p1"]
    events = play(match, "p1", {"type": "claim_goal", "goal_id": "comparing_notes"})
    assert events[0]["data"]["opens_window"] is True
    assert goal(match, "comparing_notes")["first_claim_round"] == 3
    assert RULES.to_act(match.state) == ["p1"]  # still p1's turn
    pass_turn(match, "p1")
    pass_turn(match, "p2")
    assert goal(match, "comparing_notes")["removed"] is True


def test_manual_claims_are_refused_without_the_requirement_or_twice():
    """BOR-GOAL-1, BOR-GOAL-2: only a requirement met at some checkpoint, once per player per goal."""
    match = new_game(goals=COMPARING_NOTES, options={"goal_claim_mode": "manual"})
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "claim_goal", "goal_id": "comparing_notes"})
    assert refused.value.rule_id == "BOR-GOAL-2"
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "claim_goal", "goal_id": "richness_of_nature"})
    assert refused.value.rule_id == "BOR-GOAL-1"
    camp_third_scientist(match, "p1", "animal-02", (1, 1, 0))
    play(match, "p1", {"type": "claim_goal", "goal_id": "comparing_notes"})
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "claim_goal", "goal_id": "comparing_notes"})
    assert refused.value.rule_id == "BOR-GOAL-1"


def test_a_goal_first_claimed_in_the_last_turn_of_a_round_leaves_at_once():
    """BOR-GOAL-4, BOR-ROUND-1 (1); a goal nobody claims stays available (BOR-GOAL-7)."""
    match = new_game(goals=COMPARING_NOTES, options={"goal_claim_mode": "manual"})
    pass_turn(match, "p1")
    camp_third_scientist(match, "p2", "animal-11", (1, 1, 0))
    play(match, "p2", {"type": "claim_goal", "goal_id": "comparing_notes"})
    take_and_refill(match, "p2", "animal-50")
    assert goal(match, "comparing_notes")["removed"] is True
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "claim_goal", "goal_id": "comparing_notes"})
    assert refused.value.rule_id == "BOR-GOAL-4"
    assert goal(match, "spotting_list")["removed"] is False and goal(match, "bold_explorers")["removed"] is False


def test_a_removed_goal_cannot_be_claimed():
    """BOR-GOAL-4: claiming after the window closed is refused even with the requirement met."""
    match = new_game(goals=COMPARING_NOTES, options={"goal_claim_mode": "manual"})
    camp_third_scientist(match, "p1", "animal-02", (1, 1, 0))
    goal(match, "comparing_notes")["removed"] = True
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "claim_goal", "goal_id": "comparing_notes"})
    assert refused.value.rule_id == "BOR-GOAL-4"


def test_morning_shift_counts_one_reorganise():
    """BOR-GOAL-1 with BOR-REO-4's returned count: 5 scientists back in one Reorganise."""
    match = new_game(goals=["spotting_list", "morning_shift", "bold_explorers"])
    place_scientists(match, "p1", {"CAMP_L": (2, 1, 0), "CAMP_R": (0, 1, 1), "LEFT": (1, 1, 0), "MIDDLE": (0, 0, 1),
                                   "RIGHT": (0, 0, 1)})
    events = play(match, "p1", {"type": "reorganise", "discard_card_ids": [], "target_location": "MIDDLE"})
    assert [event["type"] for event in events] == ["reorganised", "goal_claimed", "turn_ended"]
    assert board(match, "p1")["token_stars"] == 2 + 5 + 5


def _board(stacks=None, flags=None, spaces=None):
    state = new_board("I")
    for location, cards in (stacks or {}).items():
        state["stacks"][location] = cards
    state["flags"].update(flags or {})
    for space, (yellow, pink, blue) in (spaces or {}).items():
        state["scientists"][space] = {"yellow": yellow, "pink": pink, "blue": blue}
    return state


OWLS = [f"animal-{n:02d}" for n in range(10)]  # snowy owls, mixed vehicles
SEALS = [f"animal-{n:02d}" for n in range(18, 30)]
MIXED = ["animal-00", "animal-18", "animal-30", "animal-50", "animal-72"]  # owl, seal, puffin, fox, bear


@pytest.mark.parametrize(("goal_id", "met", "unmet", "returned"), [
    ("specialists_retreat", {"spaces": {"CAMP_L": (2, 0, 0), "CAMP_R": (1, 0, 0)}},
     {"spaces": {"CAMP_L": (2, 0, 0), "CAMP_R": (0, 1, 0)}}, 0),
    ("comparing_notes", {"spaces": {"CAMP_L": (1, 1, 1)}}, {"spaces": {"CAMP_L": (1, 1, 0), "CAMP_R": (1, 0, 0)}}, 0),
    ("splitting_up", {"spaces": {"LEFT": (1, 1, 0), "MIDDLE": (0, 1, 1), "RIGHT": (1, 0, 1)}}, {}, 0),
    ("balanced_ecosystem", {"stacks": {"LEFT": OWLS[:3], "MIDDLE": OWLS[3:6], "RIGHT": OWLS[6:9]}},
     {"stacks": {"LEFT": OWLS[:3], "MIDDLE": OWLS[3:5], "RIGHT": OWLS[6:9]}}, 0),
    ("richness_of_nature", {"stacks": {"MIDDLE": OWLS[:6]}}, {"stacks": {"MIDDLE": OWLS[:5], "LEFT": OWLS[5:8]}}, 0),
    ("spotting_list", {"stacks": {"LEFT": MIXED[:2], "RIGHT": MIXED[2:]}}, {"stacks": {"LEFT": MIXED[:4]}}, 0),
    ("favourite_research_object", {"stacks": {"LEFT": SEALS[:3], "RIGHT": SEALS[3:6]}},
     {"stacks": {"LEFT": SEALS[:5], "RIGHT": OWLS[:3]}}, 0),
    ("organized_expedition", {"stacks": {"LEFT": ["animal-00", "animal-05"], "RIGHT": ["animal-10", "animal-15"]}},
     {"stacks": {"LEFT": ["animal-00", "animal-05", "animal-10", "animal-01"]}}, 0),
    ("climbing_the_area", {"flags": {"LEFT": 2, "MIDDLE": 3, "RIGHT": 2}}, {"flags": {"LEFT": 2, "MIDDLE": 7}}, 0),
    ("bold_explorers", {"flags": {"RIGHT": 5}}, {"flags": {"LEFT": 4, "MIDDLE": 4, "RIGHT": 4}}, 0),
    ("promising_direction", {"flags": {"LEFT": 1, "MIDDLE": 5}}, {"flags": {"LEFT": 1, "MIDDLE": 4, "RIGHT": 2}}, 0),
])
def test_each_goal_requirement(goal_id, met, unmet, returned):
    """BOR-GOAL-1: the 12 goal texts of §10.5, each just met and just missed."""
    goal_card = RULES.catalogue.goals[goal_id]
    assert requirement_met(goal_card, _board(**met), RULES.catalogue.cards, returned)
    assert not requirement_met(goal_card, _board(**unmet), RULES.catalogue.cards, returned)


def test_morning_shift_requirement_reads_the_returned_count():
    """BOR-GOAL-1: ``returned_by_one_reorganise`` with threshold 5."""
    goal_card = RULES.catalogue.goals["morning_shift"]
    assert requirement_met(goal_card, _board(), RULES.catalogue.cards, 5)
    assert not requirement_met(goal_card, _board(), RULES.catalogue.cards, 4)
