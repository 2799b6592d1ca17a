"""The end (§6): the trigger at 7 cards, equal turns, the Farewell Party choice and the score sheet."""
from __future__ import annotations

import pytest

from domain.borealis import RULES
from domain.core import IllegalMove
from domain.core.match import legal_moves
from tests.borealis.helpers import board, new_game, pass_turn, play, resolve

STACK_OF_SIX = [f"animal-{n:02d}" for n in range(40, 46)]


def test_seven_cards_trigger_the_end_and_the_round_is_finished():
    """BOR-OBS-5, BOR-END-1, BOR-ROUND-1 (3): p2 triggers; p3 still plays; p1 gets no further turn."""
    match = new_game(players=3)
    board(match, "p2")["stacks"]["LEFT"] = list(STACK_OF_SIX)
    pass_turn(match, "p1")
    events = play(match, "p2", {"type": "observe", "card_id": "animal-11", "location": "LEFT"})
    assert events[0]["data"]["end_triggered"] is True and match.state["end_triggered"] is True
    play(match, "p2", {"type": "take_card", "pool_slot": 0})  # steps 2-4 of the turn still happen
    resolve(match, "animal-50")
    assert RULES.to_act(match.state) == ["p3"] and not RULES.is_over(match.state)
    pass_turn(match, "p3")
    assert RULES.is_over(match.state) and RULES.to_act(match.state) == []
    assert legal_moves(match, "p1") == []


OWLS = ["animal-05", "animal-06", "animal-07", "animal-08", "animal-09", "animal-14", "animal-15"]


def test_a_trigger_in_the_last_turn_of_a_round_ends_the_game_after_it():
    """BOR-END-1; BOR-END-2: a second 7 in the same round changes nothing, and an 8-card stack still scores."""
    match = new_game(players=2)
    board(match, "p1")["stacks"]["LEFT"] = list(STACK_OF_SIX) + ["animal-46"]
    board(match, "p2")["stacks"]["LEFT"] = list(OWLS)
    match.state["end_triggered"] = True
    pass_turn(match, "p1")
    play(match, "p2", {"type": "observe", "card_id": "animal-11", "location": "LEFT"})
    play(match, "p2", {"type": "draw_blind"})
    resolve(match, "animal-70")
    assert RULES.is_over(match.state)
    sheet = RULES.final_score(match.state)
    species_sets = {line["seat"]: line["points"] for line in sheet["lines"] if line["rule"] == "BOR-SCORE-1"}
    assert len(board(match, "p2")["stacks"]["LEFT"]) == 8
    assert species_sets == {"p1": 21, "p2": 28}


def end_with_farewell(players=2):
    match = new_game(players=players, scoring=["farewell_party", "safe_return"])
    match.state["end_triggered"] = True
    for seat in match.state["order"]:
        pass_turn(match, seat)
    return match


def test_farewell_party_asks_every_player_for_a_location():
    """BOR-END-3, BOR-SC-FAREWELL: a simultaneous decision before scoring; camps are not locations."""
    match = end_with_farewell()
    assert match.state["phase"] == "farewell" and not RULES.is_over(match.state)
    assert RULES.to_act(match.state) == ["p1", "p2"]
    assert legal_moves(match, "p2") == [{"type": "choose_farewell_location", "location": loc}
                                        for loc in ("LEFT", "MIDDLE", "RIGHT")]
    with pytest.raises(IllegalMove) as refused:
        play(match, "p2", {"type": "choose_farewell_location", "location": "CAMP_R"})
    assert refused.value.rule_id == "BOR-SC-FAREWELL"
    board(match, "p2")["scientists"]["RIGHT"] = {"yellow": 2, "pink": 1, "blue": 1}
    play(match, "p2", {"type": "choose_farewell_location", "location": "RIGHT"})
    with pytest.raises(IllegalMove) as refused:
        play(match, "p2", {"type": "choose_farewell_location", "location": "LEFT"})
    assert refused.value.code == "not_your_turn"
    assert RULES.to_act(match.state) == ["p1"]
    play(match, "p1", {"type": "choose_farewell_location", "location": "MIDDLE"})
    assert RULES.is_over(match.state)
    lines = [line for line in RULES.final_score(match.state)["lines"] if line.get("scoring_card") == "farewell_party"]
    assert [(line["seat"], line["location"], line["points"]) for line in lines] == [("p1", "MIDDLE", 6),
                                                                                   ("p2", "RIGHT", 8)]


def test_the_farewell_choice_is_only_made_at_the_end():
    """BOR-END-3."""
    match = new_game(scoring=["farewell_party", "safe_return"])
    with pytest.raises(IllegalMove) as refused:
        play(match, "p1", {"type": "choose_farewell_location", "location": "LEFT"})
    assert refused.value.rule_id == "BOR-END-3"


def test_the_score_sheet_has_the_five_parts_per_player_a_ranking_and_achievements():
    """§6.1 (BOR-SCORE-1..5 lines), BOR-WIN-4 on equal boards, §8 achievements per player."""
    match = new_game(players=2)
    match.state["end_triggered"] = True
    pass_turn(match, "p1")
    pass_turn(match, "p2")
    sheet = RULES.final_score(match.state)
    assert sheet["totals"] == {"p1": 2, "p2": 2}  # only the two starting star tokens
    assert [(line["seat"], line["part"]) for line in sheet["lines"]] == [
        (seat, part) for seat in ("p1", "p2") for part in (1, 2, 3, 4, 4, 5)
    ]
    assert sheet["ranking"] == [{"rank": 1, "seats": ["p1", "p2"]}]
    assert sheet["tie_breaks"][-1]["rule"] == "BOR-WIN-4"
    assert sheet["achievements"] == {"p1": ["ACH_WIN", "ACH_WIN_NO_GOALS"], "p2": ["ACH_WIN", "ACH_WIN_NO_GOALS"]}
