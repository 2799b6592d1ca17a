"""Setup (§3): boards, first player, pool, scoring cards, goals, hands and the one-time mulligan."""
from __future__ import annotations

import pytest

from domain.borealis import RULES
from domain.core import ORGANISER, SERVER, TABLE, IllegalMove
from domain.core.match import create, legal_moves, redact, view
from tests.borealis.helpers import HANDS, POOL, board, new_game, pending_key, play, resolve, scientists


def test_the_opening_chance_decisions_come_in_setup_order_and_are_recorded():
    """BOR-SETUP-2, BOR-SETUP-3, BOR-SETUP-4, BOR-SETUP-5, BOR-SETUP-6, BOR-SETUP-11."""
    match, events = create(RULES, {}, ["Ann", "Bo", "Cy"], TABLE, None)
    assert events[0]["data"]["data_versions"].keys() == {"cards", "boards", "goals", "scoring_cards", "species_sets"}
    assert pending_key(match) == "first_player"
    resolve(match, "p2")
    assert match.state["order"] == ["p2", "p3", "p1"]
    node = RULES.chance_node(match.state)
    assert node.key == "scoring_cards" and node.count == 2 and len(node.candidates) == 10
    resolve(match, "safe_return", "outer_lands")
    for kind, goal in (("animal", "spotting_list"), ("scientist", "morning_shift"), ("vehicle", "bold_explorers")):
        node = RULES.chance_node(match.state)
        assert node.key == f"goal_{kind}" and len(node.candidates) == 4
        resolve(match, goal)
    node = RULES.chance_node(match.state)
    assert node.key == "pool" and node.count == 4 and len(node.candidates) == 100  # the whole deck, unshuffled
    assert node.visible_to is None
    resolve(match, *POOL)
    assert match.state["pool"] == POOL
    for seat in ("p2", "p3", "p1"):  # dealt in seat order from the first player
        node = RULES.chance_node(match.state)
        assert node.key == "hand" and node.count == 4 and node.visible_to == (seat,)
        assert "animal-90" not in node.candidates
        resolve(match, *HANDS[seat])
    assert match.state["phase"] == "mulligan"
    assert [goal["goal_id"] for goal in match.state["goals"]] == ["spotting_list", "morning_shift", "bold_explorers"]
    assert all(goal["claimed_by"] == [] for goal in match.state["goals"])
    assert view(match, None)["state"]["goals"][0]["tokens_left"] == 3  # BOR-SETUP-6: one 5-star token per player


def test_a_dealt_hand_is_seen_only_by_its_owner():
    """BOR-SETUP-11: the hand is hidden from the others, in the view and in the event log."""
    match, _ = create(RULES, {"first_player": "p1"}, ["Ann", "Bo"], TABLE, None)
    for outcome in (["interspecies", "outer_lands"], ["spotting_list"], ["morning_shift"], ["bold_explorers"], POOL):
        resolve(match, *outcome)
    dealt = resolve(match, *HANDS["p1"])[0]
    assert redact(match, dealt, "p1")["secret"]["outcome"] == HANDS["p1"]
    assert "secret" not in redact(match, dealt, "p2") and "secret" not in redact(match, dealt, None)
    resolve(match, *HANDS["p2"])
    assert view(match, "p1")["state"]["players"]["p1"]["hand"] == HANDS["p1"]
    assert view(match, "p2")["state"]["players"]["p1"]["hand"] is None
    assert view(match, "p2")["state"]["players"]["p1"]["hand_count"] == 4
    assert RULES.secrets(match.state)["p1"] == set(HANDS["p1"])


def test_every_player_starts_with_the_same_board_position():
    """BOR-SETUP-7, BOR-SETUP-8, BOR-SETUP-9, BOR-SETUP-10, BOR-SETUP-13."""
    match = new_game(players=3)
    for seat in ("p1", "p2", "p3"):
        player = board(match, seat)
        assert player["board"] == "I"
        for location in ("LEFT", "MIDDLE", "RIGHT"):
            assert scientists(match, seat, location) == (1, 1, 1)
        assert scientists(match, seat, "CAMP_L") == scientists(match, seat, "CAMP_R") == (0, 0, 0)
        assert player["flags"] == {"LEFT": 0, "MIDDLE": 0, "RIGHT": 0}
        assert player["token_stars"] == 2
    assert match.state["phase"] == "play" and match.state["round"] == 1
    assert RULES.to_act(match.state) == ["p1"]


def test_side_two_gives_each_player_a_different_board_at_random():
    """BOR-SETUP-1: side II boards are a recorded chance decision, one different board per seat."""
    match, _ = create(RULES, {"board_side": "II"}, ["Ann", "Bo", "Cy"], TABLE, None)
    node = RULES.chance_node(match.state)
    assert node.key == "side_two_boards" and node.count == 3
    assert set(node.candidates) == {"II-1", "II-2", "II-3", "II-4"}
    resolve(match, "II-4", "II-1", "II-3")
    assert [board(match, seat)["board"] for seat in ("p1", "p2", "p3")] == ["II-4", "II-1", "II-3"]
    with pytest.raises(IllegalMove) as refused:
        create(RULES, {"board_side": "I", "side_two_boards": ["II-1", "II-2"]}, ["Ann", "Bo"], TABLE, None)
    assert refused.value.rule_id == "BOR-SETUP-1"
    named, _ = create(RULES, {"board_side": "II", "side_two_boards": ["II-2", "II-3"], "first_player": "p2"},
                      ["Ann", "Bo"], TABLE, None)
    assert [board(named, seat)["board"] for seat in ("p1", "p2")] == ["II-2", "II-3"]
    assert pending_key(named) == "scoring_cards"


def test_the_first_player_may_be_named_but_must_exist():
    """BOR-SETUP-2."""
    with pytest.raises(IllegalMove) as refused:
        create(RULES, {"first_player": "p3"}, ["Ann", "Bo"], TABLE, None)
    assert refused.value.rule_id == "BOR-SETUP-2"
    match = new_game(players=3, first="p3")
    assert match.state["order"] == ["p3", "p1", "p2"]
    assert RULES.to_act(match.state) == ["p3"]


def test_the_mulligan_is_a_simultaneous_decision_taken_once():
    """BOR-SETUP-12: every player decides at once; discards go face up and as many cards are drawn."""
    match = new_game(players=3, mulligan=False)
    assert RULES.to_act(match.state) == ["p1", "p2", "p3"]
    assert len(legal_moves(match, "p2")) == 16  # every subset of the 4-card hand
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "LEFT"})
    assert refused.value.rule_id == "BOR-SETUP-12"
    play(match, "p2", {"type": "mulligan", "discard_card_ids": ["animal-12", "animal-10"]})
    assert match.state["discards"] == ["animal-10", "animal-12"]
    node = RULES.chance_node(match.state)
    assert node.count == 2 and node.visible_to == ("p2",)
    resolve(match, "animal-50", "animal-51")
    assert board(match, "p2")["hand"] == ["animal-11", "animal-13", "animal-50", "animal-51"]
    assert RULES.to_act(match.state) == ["p1", "p3"]
    with pytest.raises(IllegalMove):
        play(match, "p2", {"type": "mulligan", "discard_card_ids": []})
    with pytest.raises(IllegalMove) as refused:
        play(match, "p3", {"type": "mulligan", "discard_card_ids": ["animal-00"]})
    assert refused.value.rule_id == "BOR-SETUP-12" and refused.value.field == "discard_card_ids"
    play(match, "p3", {"type": "mulligan", "discard_card_ids": []})
    assert match.state["phase"] == "mulligan"
    play(match, "p1", {"type": "mulligan", "discard_card_ids": HANDS["p1"]})
    resolve(match, "animal-60", "animal-61", "animal-62", "animal-63")
    assert match.state["phase"] == "play" and RULES.to_act(match.state) == ["p1"]
    with pytest.raises(IllegalMove) as refused:
        play(match, "p3", {"type": "mulligan", "discard_card_ids": []})
    assert refused.value.code == "not_your_turn"


def test_server_mode_deals_distinct_cards_and_keeps_them_out_of_the_pool():
    """BOR-SETUP-3, BOR-SETUP-4, BOR-SETUP-11: 100 distinct cards; pool and hands never share one."""
    match, _ = create(RULES, {}, ["Ann", "Bo", "Cy", "Di"], SERVER, "north")
    hands = [card for player in match.state["players"].values() for card in player["hand"]]
    assert len(hands) == 16 and len(set(hands) | set(match.state["pool"])) == 20
    assert len(match.state["deck"]) == 80
    assert view(match, None)["waiting_for"] == ["p1", "p2", "p3", "p4"]
    assert legal_moves(match, ORGANISER) == []
