"""Clocks (TABLE-CLOCK-1..5) through the API: time controls folded from the events' server times, timeouts
claimed on the moves endpoint and judged by the server's own clock.

No test asserts how long anything took: a test that needs a flag to fall waits until the server's own time
(``clock.now`` of a view) says it has, and every expected time left is computed from the events' times.
"""
from __future__ import annotations

import json
import threading
import time

import pytest

from domain import registry
from domain.core.clock import instant
from tests.api.conftest import Api, serve
from tests.api.test_stream import read_stream

GAMES = registry.game_names()
# Long enough that no test run, however slow the machine, sees it run out.
LONG = 3600
US = 1_000_000


def tokens_of(created: dict) -> dict[str, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}


def post(api: Api, game_id: str, token: str, move: dict, version: int | None = None, **headers):
    at = version if version is not None else api.get(f"/games/{game_id}").json()["version"]
    return api.post(f"/games/{game_id}/moves", token, json=move, headers={"If-Match": f'"{at}"', **headers})


def claim(api: Api, game_id: str, token: str, flagged: str, version: int | None = None, **headers):
    return post(api, game_id, token, {"type": "claim_timeout", "flagged": flagged}, version, **headers)


def events(api: Api, game_id: str) -> list[dict]:
    return api.get(f"/games/{game_id}/events").json()["events"]


def clock_of(api: Api, game_id: str) -> dict:
    return api.get(f"/games/{game_id}").json()["clock"]


def wait_for_flag(api: Api, game_id: str, seat: str, margin_us: int = 0) -> dict:
    """Wait until the server's own time says ``seat``'s running clock has run out (or is within ``margin_us``
    of it); the view it was seen in."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = api.get(f"/games/{game_id}").json()
        clock = view["clock"]
        entry = clock["seats"][seat]
        assert entry["running"], clock
        # remaining_ms is rounded down: the clock may hold up to a millisecond more.
        left_us = entry["remaining_ms"] * 1000 + 1000 - (instant(clock["now"]) - instant(clock["as_of"]))
        if left_us <= margin_us:
            return view
        time.sleep(min(0.05, max(left_us - margin_us, 0) / US))
    raise AssertionError(f"{seat}'s flag never fell")


@pytest.mark.parametrize("clock, field", [
    ("fast", "clock"),
    ({}, "clock.initial_seconds"),
    ({"initial_seconds": 0}, "clock.initial_seconds"),
    ({"initial_seconds": 1.5}, "clock.initial_seconds"),
    ({"initial_seconds": True}, "clock.initial_seconds"),
    ({"initial_seconds": 60, "increment_seconds": -1}, "clock.increment_seconds"),
    ({"initial_seconds": 60, "byoyomi": 5}, "clock.byoyomi"),
    ({"turn_seconds": 30, "increment_seconds": 5}, "clock.increment_seconds"),
    ({"turn_seconds": 10**9}, "clock.turn_seconds"),
])
def test_a_bad_clock_is_refused_naming_its_field_and_no_game_is_created(api, clock, field):
    before = api.get("/games").json()["total"]
    refused = api.post("/games", json={"game": "high-card", "players": ["Ann", "Bo"], "clock": clock})
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "invalid_field" and refused.json()["field"] == field
    assert refused.json()["rule_id"] == "TABLE-CLOCK-1"
    assert api.get("/games").json()["total"] == before


@pytest.mark.parametrize("game", GAMES)
def test_a_game_without_a_clock_records_none_and_refuses_a_claim(api, game):
    created = api.create(game, 2, seed=f"no-clock-{game}")
    game_id, tokens = created["game_id"], tokens_of(created)
    assert "clock" not in events(api, game_id)[0]["data"]
    view = api.get(f"/games/{game_id}").json()
    assert view["clock"] is None
    seat = view["waiting_for"][0]
    refused = claim(api, game_id, tokens["organiser"], seat)
    assert refused.status_code == 409 and refused.json()["code"] == "not_on_clock"
    assert refused.json()["rule_id"] == "TABLE-CLOCK-3" and refused.json()["field"] == "flagged"
    assert api.get(f"/games/{game_id}").json()["version"] == view["version"]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_takes_a_clock_that_runs_for_the_seats_it_waits_for(api, game):
    created = api.create(game, 2, seed=f"clock-{game}", clock={"initial_seconds": LONG, "increment_seconds": 2})
    game_id = created["game_id"]
    recorded = events(api, game_id)[0]
    assert recorded["data"]["clock"] == {"initial_seconds": LONG, "increment_seconds": 2}
    view = api.get(f"/games/{game_id}").json()
    clock = view["clock"]
    assert clock["mode"] == "fischer" and clock["as_of"] == events(api, game_id)[-1]["time"]
    assert instant(clock["now"]) >= instant(clock["as_of"])
    running = sorted(seat for seat, entry in clock["seats"].items() if entry["running"])
    assert running == sorted(seat for seat in view["waiting_for"] if seat != "organiser")
    assert all(entry["remaining_ms"] == LONG * 1000 for entry in clock["seats"].values())


def test_a_claim_before_the_flag_falls_is_refused_saying_how_much_time_is_left(api):
    created = api.create("high-card", 2, clock={"initial_seconds": LONG})
    game_id, tokens = created["game_id"], tokens_of(created)
    version = api.get(f"/games/{game_id}").json()["version"]
    for claimant in ("p2", "organiser", "p1"):
        refused = claim(api, game_id, tokens[claimant], "p1")
        assert refused.status_code == 409, refused.text
        problem = refused.json()
        assert problem["code"] == "clock_running" and problem["rule_id"] == "TABLE-CLOCK-3"
        assert problem["field"] == "flagged" and "s left" in problem["detail"]
        assert 0 < problem["remaining_ms"] <= LONG * 1000
    waiting = claim(api, game_id, tokens["p1"], "p2")  # high card: p1 chooses first, p2's clock is stopped
    assert waiting.status_code == 409 and waiting.json()["code"] == "not_on_clock"
    unknown = claim(api, game_id, tokens["p1"], "p7")
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_seat"
    assert unknown.json()["field"] == "flagged"
    missing = post(api, game_id, tokens["p1"], {"type": "claim_timeout"})
    assert missing.status_code == 422 and missing.json()["code"] == "missing_field"
    assert api.get(f"/games/{game_id}").json()["version"] == version


def test_once_the_flag_falls_the_seat_moves_no_more_and_a_claim_ends_the_game(api):
    created = api.create("high-card", 2, clock={"initial_seconds": 1})
    game_id, tokens = created["game_id"], tokens_of(created)
    version = wait_for_flag(api, game_id, "p1")["version"]
    late = post(api, game_id, tokens["p1"], {"type": "keep"}, version)
    assert late.status_code == 409 and late.json()["code"] == "out_of_time"
    assert late.json()["rule_id"] == "TABLE-CLOCK-5"
    granted = claim(api, game_id, tokens["p2"], "p1", version)
    assert granted.status_code == 201, granted.text
    answer = granted.json()
    assert [event["type"] for event in answer["events"]] == ["timeout_claimed", "game_ended"]
    assert answer["events"][0]["data"] == {"flagged": "p1"} and answer["events"][0]["seat"] == "p2"
    assert answer["status"] == "ended" and answer["waiting_for"] == []
    view = api.get(f"/games/{game_id}").json()
    assert view["ended_by"] == {"reason": "timeout", "seat": "p1"}
    assert view["clock"]["as_of"] == answer["events"][-1]["time"]
    assert view["clock"]["seats"]["p1"] == {"remaining_ms": 0, "running": False}
    assert view["clock"]["seats"]["p2"] == {"remaining_ms": 1000, "running": False}
    again = claim(api, game_id, tokens["p2"], "p1")
    assert again.status_code == 409 and again.json()["code"] == "game_over"


def test_the_flagged_seat_may_claim_against_itself_and_the_organiser_may_claim(api):
    for claimant in ("p1", "organiser"):
        created = api.create("high-card", 2, clock={"turn_seconds": 1})
        game_id, tokens = created["game_id"], tokens_of(created)
        version = wait_for_flag(api, game_id, "p1")["version"]
        granted = claim(api, game_id, tokens[claimant], "p1", version)
        assert granted.status_code == 201, granted.text
        assert granted.json()["events"][0]["seat"] == claimant
        assert api.get(f"/games/{game_id}").json()["ended_by"] == {"reason": "timeout", "seat": "p1"}


def test_a_claim_is_a_move_with_its_version_and_idempotency_key(api):
    created = api.create("high-card", 2, clock={"initial_seconds": 1})
    game_id, tokens = created["game_id"], tokens_of(created)
    version = wait_for_flag(api, game_id, "p1")["version"]
    stale = claim(api, game_id, tokens["p2"], "p1", version - 1)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    first = claim(api, game_id, tokens["p2"], "p1", version, **{"Idempotency-Key": "flag-1"})
    retried = claim(api, game_id, tokens["p2"], "p1", version, **{"Idempotency-Key": "flag-1"})
    assert first.status_code == retried.status_code == 201
    assert retried.headers["Idempotent-Replayed"] == "true" and retried.json()["events"] == first.json()["events"]
    other = claim(api, game_id, tokens["p2"], "p2", version, **{"Idempotency-Key": "flag-1"})
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert api.get(f"/games/{game_id}").json()["version"] == version + 2


def test_the_increment_is_added_when_the_turn_passes(api):
    created = api.create("high-card", 2, clock={"initial_seconds": LONG, "increment_seconds": 5})
    game_id, tokens = created["game_id"], tokens_of(created)
    before = events(api, game_id)[-1]
    kept = post(api, game_id, tokens["p1"], {"type": "keep"}).json()["events"][-1]
    used = instant(kept["time"]) - instant(before["time"])
    clock = clock_of(api, game_id)
    assert clock["as_of"] == kept["time"]
    assert clock["seats"]["p1"] == {"remaining_ms": (LONG * US - used + 5 * US) // 1000, "running": False}
    assert clock["seats"]["p2"] == {"remaining_ms": LONG * 1000, "running": True}


def test_a_turn_clock_gives_each_turn_its_full_time_and_runs_for_simultaneous_seats(api):
    created = api.create("high-card", 2, clock={"turn_seconds": 30})
    game_id, tokens = created["game_id"], tokens_of(created)
    opened = events(api, game_id)[-1]
    first = post(api, game_id, tokens["p1"], {"type": "keep"}).json()["events"][-1]
    clock = clock_of(api, game_id)
    p1_left = 30 * US - (instant(first["time"]) - instant(opened["time"]))
    assert clock["mode"] == "turn" and clock["turn_seconds"] == 30
    assert clock["seats"] == {"p1": {"remaining_ms": p1_left // 1000, "running": False},
                              "p2": {"remaining_ms": 30_000, "running": True}}
    second = post(api, game_id, tokens["p2"], {"type": "keep"}).json()["events"][-1]
    # The confirmation is simultaneous: p1's turn begins again (a full turn), p2's goes on.
    clock = clock_of(api, game_id)
    p2_left = 30 * US - (instant(second["time"]) - instant(first["time"]))
    assert clock["seats"] == {"p1": {"remaining_ms": 30_000, "running": True},
                              "p2": {"remaining_ms": p2_left // 1000, "running": True}}
    ready = post(api, game_id, tokens["p2"], {"type": "ready"}).json()["events"][-1]
    clock = clock_of(api, game_id)
    assert clock["seats"]["p1"] == {"remaining_ms": (30 * US - (instant(ready["time"]) - instant(second["time"])))
                                    // 1000, "running": True}
    assert clock["seats"]["p2"]["running"] is False


def test_no_clock_runs_while_a_seat_is_open(api):
    created = api.create("high-card", 2, clock={"initial_seconds": 1}, open_seats=["p2"])
    game_id, tokens = created["game_id"], tokens_of(created)
    assert clock_of(api, game_id)["seats"]["p1"] == {"remaining_ms": 1000, "running": False}
    time.sleep(1.2)  # longer than p1's whole clock: it must not have run
    refused = claim(api, game_id, tokens["p1"], "p1")
    assert refused.status_code == 409 and refused.json()["code"] == "not_on_clock"
    joined = api.post(f"/games/{game_id}/seats/p2/join", json={"name": "Bo"})
    assert joined.status_code == 201, joined.text
    clock = clock_of(api, game_id)
    assert clock["as_of"] == joined.json()["events"][-1]["time"]
    assert clock["seats"]["p1"] == {"remaining_ms": 1000, "running": True}


def test_no_clock_runs_while_the_organisers_draw_is_pending(api):
    created = api.create("high-card", 2, chance_mode="table", clock={"initial_seconds": 1})
    game_id, tokens = created["game_id"], tokens_of(created)
    assert not any(entry["running"] for entry in clock_of(api, game_id)["seats"].values())
    for card in ("card-1", "card-2"):
        dealt = post(api, game_id, tokens["organiser"], {"type": "resolve_chance", "outcome": [card]})
        assert dealt.status_code == 201, dealt.text
    dealt_at = dealt.json()["events"][-1]["time"]
    swapped = post(api, game_id, tokens["p1"], {"type": "swap", "card": "card-1"})
    assert swapped.status_code == 201, swapped.text
    swapped_at = swapped.json()["events"][-1]["time"]
    p1_left = US - (instant(swapped_at) - instant(dealt_at))
    clock = clock_of(api, game_id)
    assert clock["seats"]["p1"] == {"remaining_ms": p1_left // 1000, "running": False}
    time.sleep(1.2)  # longer than p1's whole clock: it must not have run while the organiser draws
    refused = claim(api, game_id, tokens["p2"], "p1")
    assert refused.status_code == 409 and refused.json()["code"] == "not_on_clock"
    drawn = post(api, game_id, tokens["organiser"], {"type": "resolve_chance", "outcome": ["card-3"]})
    assert drawn.status_code == 201, drawn.text
    clock = clock_of(api, game_id)
    assert clock["seats"] == {"p1": {"remaining_ms": p1_left // 1000, "running": False},
                              "p2": {"remaining_ms": 1000, "running": True}}


def test_the_stream_carries_the_clock_in_its_views(api):
    created = api.create("high-card", 2, clock={"initial_seconds": LONG, "increment_seconds": 1})
    game_id, tokens = created["game_id"], tokens_of(created)
    moved = post(api, game_id, tokens["p1"], {"type": "keep"})
    assert moved.status_code == 201
    messages = read_stream(api, f"/games/{game_id}/stream?from=1&view=1", tokens["p2"],
                           enough=lambda got: any(m.get("event") == "view" for m in got))
    shown = json.loads(next(message for message in messages if message.get("event") == "view")["data"])
    read = api.get(f"/games/{game_id}", tokens["p2"]).json()
    assert instant(shown["clock"].pop("now")) >= instant(shown["clock"]["as_of"])
    read["clock"].pop("now")
    assert shown["clock"] == read["clock"] and shown["clock"]["as_of"] == moved.json()["events"][-1]["time"]
    assert shown["clock"]["seats"]["p2"] == {"remaining_ms": LONG * 1000, "running": True}


def test_a_moves_answer_with_the_view_carries_the_clock(api):
    created = api.create("high-card", 2, clock={"turn_seconds": LONG})
    game_id, tokens = created["game_id"], tokens_of(created)
    version = api.get(f"/games/{game_id}").json()["version"]
    moved = api.post(f"/games/{game_id}/moves?include=view", tokens["p1"], json={"type": "keep"},
                     headers={"If-Match": f'"{version}"'}).json()
    clock = moved["view"]["clock"]
    assert clock["as_of"] == moved["events"][-1]["time"] and "now" in clock
    assert clock["seats"]["p2"] == {"remaining_ms": LONG * 1000, "running": True}
    past = api.get(f"/games/{game_id}/state?at={version}").json()["clock"]
    assert "now" not in past and past["seats"]["p1"] == {"remaining_ms": LONG * 1000, "running": True}


def race(api: Api, game_id: str, version: int, posts: list[tuple[str, dict]]) -> list:
    """The moves posted at once, each with the same If-Match; their answers in order."""
    answers: list = [None] * len(posts)
    start = threading.Barrier(len(posts))

    def send(index: int, token: str, move: dict) -> None:
        start.wait()
        answers[index] = post(api, game_id, token, move, version)

    threads = [threading.Thread(target=send, args=(index, *entry)) for index, entry in enumerate(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_a_claim_racing_a_move_with_the_same_version_lands_exactly_one(api):
    """p2's flag has fallen while p1 still has a minute: p1's move and the organiser's claim against p2, sent
    at once with the same If-Match, are both good at that version; the first appended lands, the other is
    409 stale_version and decides again."""
    created = api.create("high-card", 2, clock={"initial_seconds": 2, "increment_seconds": 60})
    game_id, tokens = created["game_id"], tokens_of(created)
    assert post(api, game_id, tokens["p1"], {"type": "keep"}).status_code == 201  # p1's turn passes: +60 s
    assert post(api, game_id, tokens["p2"], {"type": "keep"}).status_code == 201  # p2 is awaited on: no increment
    clock = clock_of(api, game_id)
    assert clock["seats"]["p1"]["running"] and clock["seats"]["p2"]["running"]  # the confirmation awaits both
    version = wait_for_flag(api, game_id, "p2")["version"]
    answers = race(api, game_id, version, [(tokens["p1"], {"type": "ready"}),
                                           (tokens["organiser"], {"type": "claim_timeout", "flagged": "p2"})])
    assert sorted(answer.status_code for answer in answers) == [201, 409], [answer.text for answer in answers]
    lost = next(answer for answer in answers if answer.status_code == 409).json()
    won = next(answer for answer in answers if answer.status_code == 201).json()
    assert lost["code"] == "stale_version" and lost["current_version"] == won["version"]
    history = [event["type"] for event in events(api, game_id)]
    assert history[version:] == [event["type"] for event in won["events"]]


def test_a_claim_and_the_flagged_seats_move_sent_as_the_flag_falls_never_both_land(api):
    """Sent with the same If-Match as the flag falls, whichever the server decides and appends first may land
    (the move while time was left, or the claim once none was); never both, and a refusal says why."""
    for _round in range(3):
        created = api.create("high-card", 2, clock={"turn_seconds": 1})
        game_id, tokens = created["game_id"], tokens_of(created)
        version = wait_for_flag(api, game_id, "p1", margin_us=20_000)["version"]
        answers = race(api, game_id, version, [(tokens["p1"], {"type": "keep"}),
                                               (tokens["p2"], {"type": "claim_timeout", "flagged": "p1"})])
        move, claimed = answers
        assert [move.status_code, claimed.status_code].count(201) <= 1, [answer.text for answer in answers]
        assert move.status_code in (201, 409) and claimed.status_code in (201, 409)
        if move.status_code == 409:
            assert move.json()["code"] in {"stale_version", "out_of_time"}, move.json()
        if claimed.status_code == 409:
            assert claimed.json()["code"] in {"stale_version", "clock_running"}, claimed.json()
        landed = [answer.json() for answer in answers if answer.status_code == 201]
        history = [event["type"] for event in events(api, game_id)]
        assert history[version:] == [event["type"] for answer in landed for event in answer["events"]]


def test_a_claim_racing_a_resignation_with_the_same_version_lands_exactly_one(api):
    created = api.create("high-card", 2, clock={"initial_seconds": 1})
    game_id, tokens = created["game_id"], tokens_of(created)
    version = wait_for_flag(api, game_id, "p1")["version"]
    answers = race(api, game_id, version, [(tokens["p1"], {"type": "resign"}),
                                           (tokens["p2"], {"type": "claim_timeout", "flagged": "p1"})])
    assert sorted(answer.status_code for answer in answers) == [201, 409]
    lost = next(answer for answer in answers if answer.status_code == 409).json()
    assert lost["code"] == "stale_version" and lost["current_version"] == version + 2
    assert len(events(api, game_id)) == version + 2


def test_a_clock_reads_the_same_in_another_process_and_from_a_snapshot(api_config):
    """The process that decided a move folded it at the time the store gave it; another process folds the
    stored events (from the snapshot the end saved): their clocks agree to the microsecond."""
    first_server, second_server = serve(api_config), serve(api_config)
    first, second = Api(next(first_server)), Api(next(second_server))
    created = first.create("high-card", 2, clock={"initial_seconds": LONG, "increment_seconds": 3})
    game_id, tokens = created["game_id"], tokens_of(created)
    for turn, (seat, move) in enumerate([("p1", {"type": "keep"}), ("p2", {"type": "keep"}),
                                         ("p2", {"type": "ready"})]):
        by = first if turn % 2 else second
        assert post(by, game_id, tokens[seat], move).status_code == 201
        views = [api.get(f"/games/{game_id}", tokens["organiser"]).json() for api in (first, second)]
        for view in views:
            view["clock"].pop("now")
        assert views[0] == views[1]
    assert post(first, game_id, tokens["p1"], {"type": "ready"}).status_code == 201
    ended = [api.get(f"/games/{game_id}").json()["clock"] for api in (first, second)]
    for clock in ended:
        clock.pop("now")
    assert ended[0] == ended[1] and not any(entry["running"] for entry in ended[0]["seats"].values())
    # The end saved a snapshot of the deciding process's fold: the integrity check holds it to the events' fold.
    checked = second.get(f"/games/{game_id}/integrity").json()
    assert checked["ok"] and checked["snapshot"] is not None and checked["snapshot"]["ok"], checked
    third_server = serve(api_config)
    third = Api(next(third_server))  # a process that never saw the game loads it from that snapshot
    loaded = third.get(f"/games/{game_id}").json()["clock"]
    loaded.pop("now")
    assert loaded == ended[0]
    for server in (first_server, second_server, third_server):
        server.close()
