"""The table's commands in the engine alone (domain/core/table.py): who may send them, what they record, how a
game they end is scored, and that a match holding a table survives its snapshot's JSON."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import apply_event, create, match_from_json, match_to_json, submit
from domain.core.table import resigned_last, score_sheet
from tests.core.high_card import RULES


def game(players: int = 3, open_seats: tuple[str, ...] = ()):
    match, _events = create(RULES, {}, [f"P{n}" for n in range(1, players + 1)], "server", "table-seed", open_seats)
    return match


def play(match, actor: str, command: dict) -> list[dict]:
    events = submit(match, actor, command, "table-seed")
    for event in events:
        apply_event(match, event)
    return events


def refusal(match, actor: str, command: dict) -> IllegalMove:
    with pytest.raises(IllegalMove) as refused:
        submit(match, actor, command, "table-seed")
    return refused.value


def test_the_resigning_seat_ranks_last_and_the_others_keep_their_order_and_ties():
    standing = [{"rank": 1, "seats": ["p2"]}, {"rank": 2, "seats": ["p1", "p4"]}, {"rank": 4, "seats": ["p3"]}]
    assert resigned_last(standing, ["p1", "p2", "p3", "p4"], ["p2"]) == [
        {"rank": 1, "seats": ["p1", "p4"]}, {"rank": 3, "seats": ["p3"]}, {"rank": 4, "seats": ["p2"]}]
    assert resigned_last([], ["p1", "p2"], ["p1"]) == [{"rank": 1, "seats": ["p2"]}, {"rank": 2, "seats": ["p1"]}]


def test_a_resignation_ends_the_game_with_the_seed_and_is_scored_by_the_table():
    match = game()
    events = play(match, "p3", {"type": "resign"})
    assert [event["type"] for event in events] == ["seat_resigned", "game_ended"]
    assert match.ended and match.seed == "table-seed"
    sheet = score_sheet(match)
    assert sheet["outcome"] == "resigned" and sheet["ranking"][-1] == {"rank": 3, "seats": ["p3"]}
    assert refusal(match, "p3", {"type": "keep"}).code == "seat_resigned"
    assert refusal(match, "p1", {"type": "keep"}).code == "game_over"


def test_who_may_send_each_table_command():
    match = game()
    assert refusal(match, "organiser", {"type": "resign"}).code == "organiser_cannot_resign"
    assert refusal(match, "p1", {"type": "abandon"}).code == "not_organiser"
    assert refusal(match, "p1", {"type": "rotate_token", "reader": "p2"}).code == "wrong_seat"
    assert refusal(match, "p1", {"type": "join_seat"}).code == "seat_taken"
    assert refusal(match, "organiser", {"type": "rotate_token", "reader": "p9"}).code == "unknown_seat"
    assert refusal(match, "p1", {"type": "abandon", "reason": 7}).code in ("not_organiser", "invalid_field")
    assert refusal(match, "organiser", {"type": "abandon", "reason": 7}).code == "invalid_field"


def test_an_abandoned_game_ranks_nobody():
    match = game()
    play(match, "organiser", {"type": "abandon", "reason": "late"})
    sheet = score_sheet(match)
    assert sheet["outcome"] == "abandoned" and sheet["ranking"] == [] and sheet["detail"] == "late"
    assert set(sheet["totals"]) == {"p1", "p2", "p3"}


def test_an_open_seat_holds_the_game_until_joined_and_the_table_survives_a_snapshot():
    match = game(2, ("p2",))
    assert refusal(match, "p1", {"type": "keep"}).code == "seats_open"
    assert refusal(match, "organiser", {"type": "rotate_token", "reader": "p2"}).code == "seat_open"
    play(match, "p2", {"type": "join_seat", "name": "Bo"})
    assert match.table.open_seats == [] and match.table.tokens_changed_at == match.version
    play(match, "organiser", {"type": "rotate_token", "reader": "p1"})
    assert match.table.tokens_changed_at == match.version
    copied = match_from_json(match_to_json(match), RULES)
    assert copied.table == match.table and copied.version == match.version
    play(match, "p1", {"type": "keep"})


def test_a_snapshot_of_a_game_without_table_events_is_written_as_before():
    match = game(2)
    assert "table" not in match_to_json(match)
    assert match_from_json(match_to_json(match), RULES).table == match.table
