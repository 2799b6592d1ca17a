"""The clock's fold (TABLE-CLOCK-2) on the engine alone: the fold a service makes as it decides, with the time
it will store the events at, equals the replay of the stored events, and a snapshot stands in for both."""
from __future__ import annotations

import pytest

from domain.core.clock import check_clock, instant
from domain.core.errors import IllegalMove
from domain.core.match import create, match_from_json, match_to_json, replay, replaying, submit_and_fold, view
from tests.core.high_card import RULES

T0 = "2026-12-07T01:00:00.000000Z"


def at(seconds: float) -> str:
    whole, micro = divmod(round(seconds * 1_000_000), 1_000_000)
    return f"2026-12-07T01:{whole // 60:02d}:{whole % 60:02d}.{micro:06d}Z"


def stored(events: list[dict], time: str) -> list[dict]:
    return [{**event, "time": time} for event in events]


def test_the_deciding_fold_equals_the_replay_of_the_stored_events_and_its_snapshot():
    match, opening = create(RULES, {}, ["Ann", "Bo"], "server", "clock-fold",
                            clock={"initial_seconds": 10, "increment_seconds": 2}, now=T0)
    history = stored(opening, T0)
    for seconds, seat, move in [(1.25, "p1", {"type": "keep"}), (4.5, "p2", {"type": "keep"}),
                                (5.0, "p1", {"type": "ready"})]:
        events, match = submit_and_fold(match, seat, move, "clock-fold", now=at(seconds))
        history += stored(events, at(seconds))
    replayed = replay(history, lambda _name: RULES)
    assert match_to_json(replayed) == match_to_json(match)
    assert match_to_json(match_from_json(match_to_json(match), RULES)) == match_to_json(match)
    clock = view(match, None)["clock"]
    # p1: 10 - 1.25, +2 as its turn passes, -0.5 in the confirmation (awaited with p2), +2 once it is ready;
    # p2: 10 - 3.25 for its choice, no increment (the confirmation awaits it at once), -0.5 and running still.
    assert clock["seats"]["p1"] == {"remaining_ms": 12_250, "running": False}
    assert clock["seats"]["p2"] == {"remaining_ms": 6_250, "running": True}
    assert clock["as_of"] == at(5.0) and instant(clock["as_of"]) - instant(T0) == 5_000_000


def test_a_game_without_a_clock_folds_none_and_writes_none_into_its_snapshot():
    match, _ = create(RULES, {}, ["Ann", "Bo"], "server", "no-clock", now=T0)
    assert match.clock is None and view(match, None)["clock"] is None
    assert "clock" not in match_to_json(match) and "clock" not in match.created


@pytest.mark.parametrize("clock, field", [
    ([], "clock"), ({"initial_seconds": "60"}, "clock.initial_seconds"), ({"turn_seconds": 0}, "clock.turn_seconds"),
])
def test_a_bad_clock_names_its_field(clock, field):
    with pytest.raises(IllegalMove) as refused:
        check_clock(clock)
    assert refused.value.field == field and refused.value.rule_id == "TABLE-CLOCK-1"


def test_the_increment_defaults_to_none():
    assert check_clock({"initial_seconds": 60}) == {"initial_seconds": 60, "increment_seconds": 0}


def test_a_takeback_rewinds_the_position_not_the_clocks_and_replays_as_it_was_decided():
    match, opening = create(RULES, {}, ["Ann", "Bo"], "server", "clock-takeback",
                            clock={"initial_seconds": 10, "increment_seconds": 0}, now=T0)
    history = stored(opening, T0)
    before = match_to_json(match)["state"]
    earlier = replaying(history, lambda _name: RULES)  # the history so far, as the loop extends it
    for seconds, seat, move in [(1.0, "p1", {"type": "keep"}), (1.5, "p1", {"type": "request_takeback"}),
                                (4.0, "p2", {"type": "accept_takeback"})]:
        events, match = submit_and_fold(match, seat, move, "clock-takeback", earlier, now=at(seconds))
        history += stored(events, at(seconds))
    assert [event["type"] for event in history[-2:]] == ["takeback_accepted", "moves_taken_back"]
    assert match_to_json(match)["state"] == before
    replayed = replay(history, lambda _name: RULES)
    assert match_to_json(replayed) == match_to_json(match)
    clock = view(match, None)["clock"]
    # p1's second of thought stays spent; p2 was on the clock while the request waited for its answer.
    assert clock["seats"]["p1"] == {"remaining_ms": 9_000, "running": True}
    assert clock["seats"]["p2"]["remaining_ms"] == 7_000
