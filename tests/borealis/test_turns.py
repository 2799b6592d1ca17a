"""Turns (§4): Observe with every way of taking a card, Reorganise, and the shared deck, pool and discard pile."""
from __future__ import annotations

import pytest

from domain.borealis import RULES
from domain.core import IllegalMove
from domain.core.match import legal_moves, redact, view
from tests.borealis.helpers import (
    POOL,
    board,
    moves_of,
    new_game,
    pass_turn,
    pending_key,
    place_scientists,
    play,
    resolve,
    scientists,
)

OOTAH_START = {"CAMP_L": (0, 1, 1), "LEFT": (0, 1, 0), "MIDDLE": (1, 0, 1), "RIGHT": (2, 0, 1), "CAMP_R": (0, 1, 0)}


def test_ootahs_three_turns():
    """§9.1: BOR-OBS-1, BOR-OBS-1a, BOR-OBS-2, BOR-OBS-3, BOR-REO-3, BOR-REO-4 with the spec's exact numbers."""
    match = new_game()
    place_scientists(match, "p1", OOTAH_START)
    # Turn 1: card #0 (snowy owl, sleigh, yellow left + yellow right) fits only the right location.
    assert {m["location"] for m in moves_of(match, "p1", "observe") if m["card_id"] == "animal-00"} == {"RIGHT"}
    for location in ("LEFT", "MIDDLE"):
        with pytest.raises(IllegalMove) as refused:
            play(match, "p1", {"type": "observe", "card_id": "animal-00", "location": location})
        assert refused.value.rule_id == "BOR-OBS-1a"
    event = play(match, "p1", {"type": "observe", "card_id": "animal-00", "location": "RIGHT"})[0]
    assert event["data"]["flag"] == {"track": "RIGHT", "from": 0, "to": 1}
    assert scientists(match, "p1", "MIDDLE") == (2, 0, 1)
    assert scientists(match, "p1", "RIGHT") == (0, 0, 1)
    assert scientists(match, "p1", "CAMP_R") == (1, 1, 0)
    assert board(match, "p1")["flags"] == {"LEFT": 0, "MIDDLE": 0, "RIGHT": 1}
    assert board(match, "p1")["stacks"]["RIGHT"] == ["animal-00"]
    play(match, "p1", {"type": "take_card", "pool_slot": 0})
    resolve(match, "animal-50")
    pass_turn(match, "p2")
    # Turn 2: card #2 (snowy owl, skis, yellow left + blue right) at the middle: skis is not on MIDDLE space 1.
    event = play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "MIDDLE"})[0]
    assert event["data"]["flag"] == {"track": "MIDDLE", "from": 0, "to": 0}
    assert scientists(match, "p1", "LEFT") == (1, 1, 0)
    assert scientists(match, "p1", "MIDDLE") == (1, 0, 0)
    assert scientists(match, "p1", "RIGHT") == (0, 0, 2)
    assert board(match, "p1")["flags"] == {"LEFT": 0, "MIDDLE": 0, "RIGHT": 1}
    play(match, "p1", {"type": "take_card", "pool_slot": 1})
    resolve(match, "animal-51")
    pass_turn(match, "p2")
    # Turn 3: Reorganise to the left location; 4 scientists come back, 4 stars.
    event = play(match, "p1", {"type": "reorganise", "discard_card_ids": ["animal-03"], "target_location": "LEFT"})[0]
    assert event["data"]["returned"] == 4 and event["data"]["stars_gained"] == 4
    assert scientists(match, "p1", "CAMP_L") == scientists(match, "p1", "CAMP_R") == (0, 0, 0)
    assert scientists(match, "p1", "LEFT") == (2, 3, 1)
    assert board(match, "p1")["token_stars"] == 6


def test_scientists_move_to_the_neighbours_and_camps_lock_them():
    """BOR-OBS-2: one step left, one step right; camped scientists never count for playing (BOR-OBS-1a)."""
    match = new_game()
    place_scientists(match, "p1", {"CAMP_L": (2, 0, 0), "LEFT": (0, 1, 1), "MIDDLE": (1, 1, 0), "RIGHT": (0, 1, 2)})
    playable = {(m["card_id"], m["location"]) for m in moves_of(match, "p1", "observe")}
    assert ("animal-00", "LEFT") not in playable  # the two yellows in the camp do not count
    assert ("animal-03", "MIDDLE") in playable  # pink left, yellow right
    play(match, "p1", {"type": "observe", "card_id": "animal-03", "location": "MIDDLE"})
    assert scientists(match, "p1", "LEFT") == (0, 2, 1)
    assert scientists(match, "p1", "RIGHT") == (1, 1, 2)
    assert scientists(match, "p1", "MIDDLE") == (0, 0, 0)


def test_a_flag_moves_one_space_at_most_and_only_when_the_vehicle_matches():
    """BOR-OBS-3: zeppelin matches LEFT space 1 but not space 2 of side I."""
    match = new_game()
    place_scientists(match, "p1", {"LEFT": (3, 3, 3)})
    play(match, "p1", {"type": "observe", "card_id": "animal-03", "location": "LEFT"})  # zeppelin
    assert board(match, "p1")["flags"]["LEFT"] == 1
    play(match, "p1", {"type": "take_card", "pool_slot": 3})
    resolve(match, "animal-53")
    pass_turn(match, "p2")
    board(match, "p1")["hand"].append("animal-08")  # another zeppelin, constructed
    play(match, "p1", {"type": "observe", "card_id": "animal-08", "location": "LEFT"})
    assert board(match, "p1")["flags"] == {"LEFT": 1, "MIDDLE": 0, "RIGHT": 0}


def test_a_flag_on_the_last_space_stays_there():
    """BOR-OBS-3: at index 7 nothing happens."""
    match = new_game()
    board(match, "p1")["flags"]["LEFT"] = 7
    play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "LEFT"})
    assert board(match, "p1")["flags"]["LEFT"] == 7


def test_taking_a_pool_card_refills_its_slot_in_public():
    """BOR-OBS-4 (a): the slot is refilled at once from the deck, face up."""
    match = new_game()
    play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "LEFT"})
    assert {m["type"] for m in legal_moves(match, "p1")} == {"take_card", "draw_blind", "refresh_pool"}
    play(match, "p1", {"type": "take_card", "pool_slot": 2})
    assert board(match, "p1")["hand"] == ["animal-00", "animal-03", "animal-04", POOL[2]]
    node = RULES.chance_node(match.state)
    assert node.key == "pool" and node.count == 1 and node.visible_to is None
    refill = resolve(match, "animal-77")[0]
    assert redact(match, refill, "p2")["data"]["outcome"] == ["animal-77"]
    assert match.state["pool"] == ["animal-90", "animal-91", "animal-77", "animal-93"]
    assert RULES.to_act(match.state) == ["p2"]


def test_a_blind_draw_is_seen_only_by_the_drawer_and_leaves_the_pool_alone():
    """BOR-OBS-4 (b)."""
    match = new_game()
    play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "LEFT"})
    play(match, "p1", {"type": "draw_blind"})
    node = RULES.chance_node(match.state)
    assert node.key == "hand" and node.visible_to == ("p1",)
    drawn = resolve(match, "animal-66")[0]
    assert "secret" not in redact(match, drawn, "p2")
    assert match.state["pool"] == POOL
    assert "animal-66" in board(match, "p1")["hand"]
    assert "animal-66" in RULES.secrets(match.state)["p1"]


def test_refreshing_the_pool_costs_a_star_and_rules_out_the_blind_draw():
    """BOR-OBS-4: pay 1 star, 4 cards to the discard pile, 4 new; then a pool card must be taken."""
    match = new_game()
    play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "LEFT"})
    play(match, "p1", {"type": "refresh_pool"})
    assert board(match, "p1")["token_stars"] == 1
    assert match.state["discards"] == POOL
    resolve(match, "animal-40", "animal-41", "animal-42", "animal-43")
    assert match.state["pool"] == ["animal-40", "animal-41", "animal-42", "animal-43"]
    assert {m["type"] for m in legal_moves(match, "p1")} == {"take_card"}
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "draw_blind"})
    assert refused.value.rule_id == "BOR-OBS-4"
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "refresh_pool"})
    assert refused.value.rule_id == "BOR-OBS-4"
    play(match, "p1", {"type": "take_card", "pool_slot": 0})


def test_refresh_needs_a_star():
    """BOR-OBS-4: at least 1 star is required."""
    match = new_game()
    board(match, "p1")["token_stars"] = 0
    play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "LEFT"})
    assert {"type": "refresh_pool"} not in legal_moves(match, "p1")
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "refresh_pool"})
    assert refused.value.code == "no_stars" and refused.value.rule_id == "BOR-OBS-4"


def _observe_and_refresh(match, seat, card, pool_outcome):
    play(match, seat, {"type": "observe", "card_id": card, "location": "LEFT"})
    play(match, seat, {"type": "refresh_pool"})
    resolve(match, *pool_outcome)
    play(match, seat, {"type": "take_card", "pool_slot": 0})
    resolve(match, "animal-99")


def test_one_refresh_per_player_per_round_by_default():
    """BOR-OBS-4 (§11 A4) and BOR-ROUND-1 (2): the allowance comes back with the next round."""
    match = new_game()
    _observe_and_refresh(match, "p1", "animal-02", ["animal-40", "animal-41", "animal-42", "animal-43"])
    play(match, "p2", {"type": "observe", "card_id": "animal-11", "location": "LEFT"})
    assert {"type": "refresh_pool"} in legal_moves(match, "p2")  # p1's refresh does not count against p2
    play(match, "p2", {"type": "draw_blind"})
    resolve(match, "animal-98")
    assert match.state["round"] == 2 and match.state["refreshed"] == []
    play(match, "p1", {"type": "observe", "card_id": "animal-03", "location": "MIDDLE"})
    assert {"type": "refresh_pool"} in legal_moves(match, "p1")


def test_the_table_wide_refresh_limit_is_an_option():
    """§11 A4 option ``table_per_round``: one refresh per round for the whole table."""
    match = new_game(options={"refresh_limit": "table_per_round"})
    _observe_and_refresh(match, "p1", "animal-02", ["animal-40", "animal-41", "animal-42", "animal-43"])
    play(match, "p2", {"type": "observe", "card_id": "animal-11", "location": "LEFT"})
    assert {"type": "refresh_pool"} not in legal_moves(match, "p2")
    with pytest.raises(IllegalMove) as refused:
        play(match, "p2", {"type": "refresh_pool"})
    assert refused.value.code == "refresh_used"


def test_a_turn_is_exactly_one_action_in_seat_order():
    """BOR-TURN-1, BOR-TURN-2, BOR-TURN-3, BOR-TURN-4."""
    match = new_game(players=3, first="p2")
    assert RULES.to_act(match.state) == ["p2"]
    with pytest.raises(IllegalMove) as refused:
        play(match, "p2", {"type": "take_card", "pool_slot": 0})
    assert refused.value.rule_id == "BOR-OBS-4"
    play(match, "p2", {"type": "observe", "card_id": "animal-11", "location": "MIDDLE"})
    assert board(match, "p2")["hand"] == ["animal-10", "animal-12", "animal-13"]
    with pytest.raises(IllegalMove) as refused:
        play(match, "p2", {"type": "reorganise", "discard_card_ids": []})
    assert refused.value.rule_id == "BOR-TURN-2"
    play(match, "p2", {"type": "take_card", "pool_slot": 0})
    resolve(match, "animal-70")
    assert len(board(match, "p2")["hand"]) == 4  # BOR-TURN-4
    assert RULES.to_act(match.state) == ["p3"]
    pass_turn(match, "p3")
    assert match.state["round"] == 1 and RULES.to_act(match.state) == ["p1"]
    pass_turn(match, "p1")
    assert match.state["round"] == 2 and RULES.to_act(match.state) == ["p2"]  # the same first player


def test_observe_refuses_cards_not_in_hand_and_camps():
    """BOR-OBS-1: a card from your hand, to one of your three locations."""
    match = new_game()
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "observe", "card_id": "animal-11", "location": "LEFT"})
    assert refused.value.rule_id == "BOR-OBS-1" and refused.value.field == "card_id"
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "CAMP_L"})
    assert refused.value.rule_id == "BOR-OBS-1" and refused.value.field == "location"


def test_reorganise_discards_draws_and_pays_for_camped_scientists():
    """BOR-REO-1, BOR-REO-2, BOR-REO-3, BOR-REO-4."""
    match = new_game()
    place_scientists(match, "p1", {"CAMP_L": (1, 0, 0), "LEFT": (0, 1, 1), "RIGHT": (1, 1, 0), "CAMP_R": (0, 0, 1)})
    reorganise = moves_of(match, "p1", "reorganise")
    assert len(reorganise) == 16 * 3  # every subset of the hand, to each location
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "reorganise", "discard_card_ids": []})
    assert refused.value.rule_id == "BOR-REO-4" and refused.value.field == "target_location"
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "reorganise", "discard_card_ids": ["animal-91"], "target_location": "LEFT"})
    assert refused.value.rule_id == "BOR-REO-1"
    play(match, "p1", {"type": "reorganise", "discard_card_ids": ["animal-04", "animal-00"],
                       "target_location": "RIGHT"})
    assert match.state["discards"] == ["animal-00", "animal-04"]
    assert board(match, "p1")["token_stars"] == 4
    assert scientists(match, "p1", "RIGHT") == (2, 1, 1)
    node = RULES.chance_node(match.state)
    assert node.count == 2 and node.visible_to == ("p1",)
    resolve(match, "animal-80", "animal-81")
    assert board(match, "p1")["hand"] == ["animal-02", "animal-03", "animal-80", "animal-81"]


def test_an_empty_reorganise_is_a_pass():
    """BOR-REO-5: no discards and empty camps; a target given anyway is ignored (BOR-REO-4)."""
    match = new_game()
    assert moves_of(match, "p1", "reorganise")[0] == {"type": "reorganise", "discard_card_ids": []}
    before = view(match, None)["state"]["players"]["p1"]
    events = play(match, "p1", {"type": "reorganise", "discard_card_ids": [], "target_location": "MIDDLE"})
    assert events[0]["data"]["returned"] == 0 and events[0]["data"]["target_location"] is None
    assert view(match, None)["state"]["players"]["p1"] == before
    assert pending_key(match) is None and RULES.to_act(match.state) == ["p2"]


def test_discards_are_one_public_pile():
    """BOR-DECK-1: mulligan, Reorganise and refresh discards all land face up on one pile."""
    match = new_game(mulligan=False)
    play(match, "p2", {"type": "mulligan", "discard_card_ids": ["animal-10"]})
    resolve(match, "animal-60")
    play(match, "p1", {"type": "mulligan", "discard_card_ids": []})
    play(match, "p1", {"type": "reorganise", "discard_card_ids": ["animal-00"]})
    resolve(match, "animal-61")
    play(match, "p2", {"type": "observe", "card_id": "animal-11", "location": "LEFT"})
    play(match, "p2", {"type": "refresh_pool"})
    assert view(match, None)["state"]["discard_pile"] == ["animal-10", "animal-00", *POOL]


def test_an_empty_deck_takes_the_discard_pile_when_a_card_is_drawn():
    """BOR-DECK-2 (§11 A9), BOR-DECK-4: only discarded cards come back, never cards in play."""
    match = new_game()
    match.state["deck"] = ["animal-70"]
    play(match, "p1", {"type": "reorganise", "discard_card_ids": ["animal-00", "animal-04"]})
    node = RULES.chance_node(match.state)
    assert node.count == 1 and node.candidates == ("animal-70",)
    resolve(match, "animal-70")
    node = RULES.chance_node(match.state)
    assert node.candidates == ("animal-00", "animal-04") and node.count == 1
    assert match.state["discards"] == [] and match.state["reshuffles"] == 1
    resolve(match, "animal-04")
    assert board(match, "p1")["hand"] == ["animal-02", "animal-03", "animal-70", "animal-04"]
    play(match, "p2", {"type": "observe", "card_id": "animal-11", "location": "LEFT"})
    play(match, "p2", {"type": "take_card", "pool_slot": 0})
    assert RULES.chance_node(match.state).candidates == ("animal-00",)
    assert "animal-11" not in RULES.chance_node(match.state).candidates


def test_with_no_card_anywhere_a_draw_is_skipped():
    """BOR-DECK-3: the slot stays empty, the hand stays short, and a blind draw is not offered."""
    match = new_game()
    match.state["deck"] = []
    play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "LEFT"})
    assert {"type": "draw_blind"} not in legal_moves(match, "p1")
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "draw_blind"})
    assert refused.value.rule_id == "BOR-DECK-3"
    play(match, "p1", {"type": "take_card", "pool_slot": 1})
    assert pending_key(match) is None and match.state["pool"][1] is None
    play(match, "p2", {"type": "observe", "card_id": "animal-11", "location": "LEFT"})
    with pytest.raises(IllegalMove) as refused:
        play(match, "p2", {"type": "take_card", "pool_slot": 1})
    assert refused.value.rule_id == "BOR-DECK-3"
    play(match, "p2", {"type": "take_card", "pool_slot": 0})
    match.state["pool"] = [None] * 4
    play(match, "p1", {"type": "observe", "card_id": "animal-03", "location": "MIDDLE"})
    assert RULES.to_act(match.state) == ["p2"]  # nothing to take anywhere: the step is skipped
    assert len(board(match, "p1")["hand"]) == 3


def test_a_field_a_move_does_not_have_is_refused():
    """A pool card is taken by its slot alone: any other field is refused by name, not recorded."""
    match = new_game()
    play(match, "p1", {"type": "observe", "card_id": "animal-02", "location": "LEFT"})
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "take_card", "pool_slot": 1, "colour": "red"})
    assert (refused.value.code, refused.value.field) == ("unknown_field", "colour")
    assert refused.value.message == "'colour' is not a field of a take_card move"
    play(match, "p1", {"type": "take_card", "pool_slot": 1})
