"""Taking back moves (TABLE-TAKEBACK-1 to TABLE-TAKEBACK-5) through the moves endpoint.

High card: in seat order each seat keeps its card (no draw) or swaps it (a draw, seen by that seat)."""
from __future__ import annotations

import json
import threading

import pytest
import requests

from tests.api.conftest import Api, read_stream, serve


def tokens_of(created: dict) -> dict[str, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}


def post(api: Api, game_id: str, token: str, move: dict, version: int | None = None, **headers):
    at = version if version is not None else api.get(f"/games/{game_id}").json()["version"]
    return api.post(f"/games/{game_id}/moves", token, json=move, headers={"If-Match": f'"{at}"', **headers})


def moved(api: Api, game_id: str, token: str, move: dict) -> dict:
    answer = post(api, game_id, token, move)
    assert answer.status_code == 201, answer.text
    return answer.json()


def refused(api: Api, game_id: str, token: str, move: dict, status: int, code: str, rule_id: str) -> dict:
    answer = post(api, game_id, token, move)
    assert answer.status_code == status, answer.text
    problem = answer.json()
    assert problem["code"] == code and problem["rule_id"] == rule_id, problem
    return problem


def types(answer: dict) -> list[str]:
    return [event["type"] for event in answer["events"]]


REQUEST, ACCEPT, DECLINE = {"type": "request_takeback"}, {"type": "accept_takeback"}, {"type": "decline_takeback"}


def test_an_accepted_takeback_rewinds_the_state_and_keeps_the_events(api):
    """TABLE-TAKEBACK-1, -2, -3: p1 keeps, asks to take it back, p2 accepts; the game is as before the keep."""
    created = api.create("high-card", 2, seed="takeback-accept")
    game_id, tokens = created["game_id"], tokens_of(created)
    before = api.get(f"/games/{game_id}", tokens["organiser"]).json()
    kept = moved(api, game_id, tokens["p1"], {"type": "keep"})
    asked = moved(api, game_id, tokens["p1"], REQUEST)
    assert types(asked) == ["takeback_requested"]
    assert asked["events"][0]["data"] == {"from_version": kept["version"], "to_version": before["version"],
                                          "waiting_for": ["p2"]}
    view = api.get(f"/games/{game_id}").json()
    assert view["takeback"] == {"seat": "p1", "from_version": kept["version"], "to_version": before["version"],
                                "waiting_for": ["p2"]}
    assert view["waiting_for"] == ["p2"]  # the game waits on as before: a request is no move
    accepted = moved(api, game_id, tokens["p2"], ACCEPT)
    assert types(accepted) == ["takeback_accepted", "moves_taken_back"]
    assert accepted["events"][1]["data"] == {"from_version": kept["version"], "to_version": before["version"]}
    after = api.get(f"/games/{game_id}", tokens["organiser"]).json()
    assert after["state"] == before["state"] and after["waiting_for"] == ["p1"] and after["takeback"] is None
    assert after["taken_back"] == [[before["version"] + 1, kept["version"]]]
    events = api.get(f"/games/{game_id}/events").json()["events"]
    assert [event["type"] for event in events[before["version"]:]] == [
        "card_kept", "takeback_requested", "takeback_accepted", "moves_taken_back"]
    assert moved(api, game_id, tokens["p1"], {"type": "keep"})["waiting_for"] == ["p2"]
    assert api.get(f"/games/{game_id}/integrity").json()["ok"] is True


def test_a_decline_closes_the_request_and_changes_nothing(api):
    created = api.create("high-card", 2, seed="takeback-decline")
    game_id, tokens = created["game_id"], tokens_of(created)
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    before = api.get(f"/games/{game_id}", tokens["organiser"]).json()
    moved(api, game_id, tokens["p1"], REQUEST)
    declined = moved(api, game_id, tokens["p2"], DECLINE)
    assert types(declined) == ["takeback_declined"]
    after = api.get(f"/games/{game_id}", tokens["organiser"]).json()
    assert after["takeback"] is None and after["taken_back"] == [] and after["state"] == before["state"]
    refused(api, game_id, tokens["p2"], ACCEPT, 409, "no_takeback_pending", "TABLE-TAKEBACK-2")


def test_nothing_to_take_back_unless_the_last_command_is_the_requesters(api):
    """TABLE-TAKEBACK-1: before any move, another seat's move last, and the organiser, who has no moves."""
    created = api.create("high-card", 2, seed="takeback-nothing")
    game_id, tokens = created["game_id"], tokens_of(created)
    problem = refused(api, game_id, tokens["p1"], REQUEST, 409, "nothing_to_take_back", "TABLE-TAKEBACK-1")
    assert "no seat has moved" in problem["detail"]
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    problem = refused(api, game_id, tokens["p2"], REQUEST, 409, "nothing_to_take_back", "TABLE-TAKEBACK-1")
    assert "p1" in problem["detail"]
    refused(api, game_id, tokens["organiser"], REQUEST, 409, "nothing_to_take_back", "TABLE-TAKEBACK-1")


def test_one_request_at_a_time_and_only_the_others_answer(api):
    """TABLE-TAKEBACK-1 (takeback_pending) and -2 (not_yours_to_answer: the requester, a seat that accepted)."""
    created = api.create("high-card", 3, seed="takeback-three")
    game_id, tokens = created["game_id"], tokens_of(created)
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    refused(api, game_id, tokens["p2"], ACCEPT, 409, "no_takeback_pending", "TABLE-TAKEBACK-2")
    moved(api, game_id, tokens["p1"], REQUEST)
    refused(api, game_id, tokens["p1"], REQUEST, 409, "takeback_pending", "TABLE-TAKEBACK-1")
    refused(api, game_id, tokens["p1"], ACCEPT, 403, "not_yours_to_answer", "TABLE-TAKEBACK-2")
    refused(api, game_id, tokens["organiser"], ACCEPT, 403, "not_yours_to_answer", "TABLE-TAKEBACK-2")
    assert types(moved(api, game_id, tokens["p2"], ACCEPT)) == ["takeback_accepted"]
    assert api.get(f"/games/{game_id}").json()["takeback"]["waiting_for"] == ["p3"]
    refused(api, game_id, tokens["p2"], ACCEPT, 403, "not_yours_to_answer", "TABLE-TAKEBACK-2")
    assert types(moved(api, game_id, tokens["p3"], ACCEPT)) == ["takeback_accepted", "moves_taken_back"]


def test_a_granted_takeback_goes_back_one_turn_at_most(api):
    """TABLE-TAKEBACK-5: right after a takeback there is nothing to take back until a seat moves again."""
    created = api.create("high-card", 2, seed="takeback-once")
    game_id, tokens = created["game_id"], tokens_of(created)
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    moved(api, game_id, tokens["p1"], REQUEST)
    moved(api, game_id, tokens["p2"], ACCEPT)
    problem = refused(api, game_id, tokens["p1"], REQUEST, 409, "nothing_to_take_back", "TABLE-TAKEBACK-1")
    assert "no seat has moved since the start or the last takeback" in problem["detail"]
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    assert types(moved(api, game_id, tokens["p1"], REQUEST)) == ["takeback_requested"]


def test_a_takeback_past_a_draw_is_refused_naming_it(api):
    """TABLE-TAKEBACK-4: a swap draws a new card at once (server mode); the draw is not un-drawn."""
    created = api.create("high-card", 2, seed="takeback-draw")
    game_id, tokens = created["game_id"], tokens_of(created)
    hand = api.get(f"/games/{game_id}", tokens["p1"]).json()["state"]["hands"]["p1"]
    swapped = moved(api, game_id, tokens["p1"], {"type": "swap", "card": hand})
    assert types(swapped)[-1] == "chance_resolved"
    problem = refused(api, game_id, tokens["p1"], REQUEST, 409, "takeback_past_draw", "TABLE-TAKEBACK-4")
    assert f"deal at version {swapped['version']}" in problem["detail"]
    assert api.get(f"/games/{game_id}").json()["takeback"] is None


def test_any_move_lapses_an_open_request(api):
    """TABLE-TAKEBACK-3: p2 moves instead of answering; the request is gone and nothing is appended for it."""
    created = api.create("high-card", 2, seed="takeback-lapse")
    game_id, tokens = created["game_id"], tokens_of(created)
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    moved(api, game_id, tokens["p1"], REQUEST)
    answer = moved(api, game_id, tokens["p2"], {"type": "keep"})
    assert types(answer) == ["card_kept"]
    assert api.get(f"/games/{game_id}").json()["takeback"] is None
    refused(api, game_id, tokens["p2"], ACCEPT, 409, "no_takeback_pending", "TABLE-TAKEBACK-2")


def test_the_organiser_answers_when_the_game_says_so(api):
    """TABLE-TAKEBACK-2, ``"takebacks": "organiser"``: recorded at creation, the seats may not answer."""
    created = api.create("high-card", 2, seed="takeback-organiser", takebacks="organiser")
    game_id, tokens = created["game_id"], tokens_of(created)
    first = api.get(f"/games/{game_id}/events").json()["events"][0]
    assert first["data"]["takebacks"] == "organiser"
    assert api.get(f"/games/{game_id}").json()["takebacks"] == "organiser"
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    assert moved(api, game_id, tokens["p1"], REQUEST)["events"][0]["data"]["waiting_for"] == ["organiser"]
    refused(api, game_id, tokens["p2"], ACCEPT, 403, "not_yours_to_answer", "TABLE-TAKEBACK-2")
    assert types(moved(api, game_id, tokens["organiser"], ACCEPT)) == ["takeback_accepted", "moves_taken_back"]


def test_takebacks_off_refuses_every_request_and_the_default_is_not_recorded(api):
    created = api.create("high-card", 2, seed="takeback-off", takebacks="off")
    game_id, tokens = created["game_id"], tokens_of(created)
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    refused(api, game_id, tokens["p1"], REQUEST, 409, "takebacks_off", "TABLE-TAKEBACK-2")
    default = api.create("high-card", 2, seed="takeback-default", takebacks="seats")
    assert "takebacks" not in api.get(f"/games/{default['game_id']}/events").json()["events"][0]["data"]
    wrong = api.post("/games", json={"game": "high-card", "players": ["A", "B"], "takebacks": "never"})
    assert wrong.status_code == 422 and wrong.json()["field"] == "takebacks"


def test_a_solo_takeback_is_granted_at_once(api):
    """TABLE-TAKEBACK-2: one seat and nobody else to ask."""
    created = api.create("through-ice-and-snow", 1, seed="takeback-solo")
    game_id, tokens = created["game_id"], tokens_of(created)
    before = api.get(f"/games/{game_id}", tokens["p1"]).json()
    move = api.get(f"/games/{game_id}/legal-moves", tokens["p1"]).json()["moves"][0]
    moved(api, game_id, tokens["p1"], move)
    granted = moved(api, game_id, tokens["p1"], REQUEST)
    assert types(granted) == ["takeback_requested", "moves_taken_back"]
    after = api.get(f"/games/{game_id}", tokens["p1"]).json()
    assert after["state"] == before["state"] and after["takeback"] is None


def test_a_retried_accept_is_answered_again_and_appends_nothing(api):
    created = api.create("high-card", 2, seed="takeback-retry")
    game_id, tokens = created["game_id"], tokens_of(created)
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    moved(api, game_id, tokens["p1"], REQUEST)
    version = api.get(f"/games/{game_id}").json()["version"]
    first = post(api, game_id, tokens["p2"], ACCEPT, version, **{"Idempotency-Key": "accept-1"})
    again = post(api, game_id, tokens["p2"], ACCEPT, version, **{"Idempotency-Key": "accept-1"})
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.json()["events"] == first.json()["events"]
    assert api.get(f"/games/{game_id}").json()["version"] == version + 2
    stale = post(api, game_id, tokens["p2"], DECLINE, version)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"


@pytest.mark.parametrize("attempt", range(3))
def test_concurrent_accept_and_decline_exactly_one_lands(api, attempt):
    """Two answers decided against the same version: the store takes one, the other is 409 stale."""
    created = api.create("high-card", 3, seed=f"takeback-race-{attempt}")
    game_id, tokens = created["game_id"], tokens_of(created)
    kept = moved(api, game_id, tokens["p1"], {"type": "keep"})["version"]
    moved(api, game_id, tokens["p1"], REQUEST)
    moved(api, game_id, tokens["p2"], ACCEPT)
    version = api.get(f"/games/{game_id}").json()["version"]
    answers: dict[str, requests.Response] = {}
    start = threading.Barrier(2)

    def answer(seat: str, move: dict) -> None:
        start.wait()
        answers[move["type"]] = post(Api(api.base), game_id, tokens[seat], move, version)

    threads = [threading.Thread(target=answer, args=("p3", ACCEPT)),
               threading.Thread(target=answer, args=("p3", DECLINE))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(response.status_code for response in answers.values())
    assert statuses == [201, 409]
    loser = next(response for response in answers.values() if response.status_code == 409)
    assert loser.json()["code"] == "stale_version"
    winner = next(kind for kind, response in answers.items() if response.status_code == 201)
    view = api.get(f"/games/{game_id}").json()
    assert view["version"] == version + (2 if winner == "accept_takeback" else 1)
    assert view["takeback"] is None
    assert view["taken_back"] == ([[kept, kept]] if winner == "accept_takeback" else [])


def test_another_process_and_a_snapshot_load_see_the_takeback(api_config):
    """A process that did not fold the takeback loads it through the store (snapshot or events) the same."""
    first_server, second_server = serve({**api_config, "SNAPSHOT_EVERY": 2}), serve({**api_config,
                                                                                     "SNAPSHOT_EVERY": 2})
    first, second = Api(next(first_server)), Api(next(second_server))
    created = first.create("high-card", 2, seed="takeback-processes")
    game_id, tokens = created["game_id"], tokens_of(created)
    organiser = tokens["organiser"]
    moved(first, game_id, tokens["p1"], {"type": "keep"})
    moved(second, game_id, tokens["p1"], REQUEST)
    moved(first, game_id, tokens["p2"], ACCEPT)
    seen = [api.get(f"/games/{game_id}", organiser).json() for api in (first, second)]
    assert seen[0] == seen[1] and seen[0]["taken_back"] and seen[0]["waiting_for"] == ["p1"]
    moved(second, game_id, tokens["p1"], {"type": "keep"})
    moved(first, game_id, tokens["p2"], {"type": "keep"})
    assert first.get(f"/games/{game_id}", organiser).json() == second.get(f"/games/{game_id}", organiser).json()
    integrity = first.get(f"/games/{game_id}/integrity").json()
    assert integrity["ok"] is True
    assert integrity.get("snapshot") is None or integrity["snapshot"]["ok"] is True
    for server in (first_server, second_server):
        server.close()


def test_in_table_mode_the_organisers_draw_ends_what_a_seat_may_take_back(api):
    """TABLE-TAKEBACK-1: the organiser's draw is a command of anyone else's; a keep after it is the seat's."""
    created = api.create("high-card", 2, chance_mode="table")
    game_id, tokens = created["game_id"], tokens_of(created)

    def deal() -> None:
        draw = api.get(f"/games/{game_id}/legal-moves", tokens["organiser"]).json()["moves"][0]
        moved(api, game_id, tokens["organiser"], draw)

    deal()
    deal()
    hand = api.get(f"/games/{game_id}", tokens["p1"]).json()["state"]["hands"]["p1"]
    moved(api, game_id, tokens["p1"], {"type": "swap", "card": hand})
    deal()
    problem = refused(api, game_id, tokens["p1"], REQUEST, 409, "nothing_to_take_back", "TABLE-TAKEBACK-1")
    assert "organiser's" in problem["detail"]
    moved(api, game_id, tokens["p2"], {"type": "keep"})
    assert types(moved(api, game_id, tokens["p2"], REQUEST)) == ["takeback_requested"]
    assert types(moved(api, game_id, tokens["p1"], ACCEPT)) == ["takeback_accepted", "moves_taken_back"]
    assert api.get(f"/games/{game_id}").json()["waiting_for"] == ["p2"]


def test_the_stream_folds_a_takeback_into_its_views(api):
    """A follower from version 1 folds moves_taken_back through the store, to the view a read gives."""
    created = api.create("high-card", 2, seed="takeback-stream")
    game_id, tokens = created["game_id"], tokens_of(created)
    moved(api, game_id, tokens["p1"], {"type": "keep"})
    moved(api, game_id, tokens["p1"], REQUEST)
    last = moved(api, game_id, tokens["p2"], ACCEPT)["version"]
    messages = read_stream(api, f"/games/{game_id}/stream?from=1&view=1", tokens["p2"],
                           enough=lambda got: any(m.get("event") == "view" and json.loads(m["data"])["version"] == last
                                                  for m in got))
    shown = json.loads(next(m["data"] for m in messages if m.get("event") == "view"
                            and json.loads(m["data"])["version"] == last))
    assert shown == api.get(f"/games/{game_id}", tokens["p2"]).json()
    assert shown["taken_back"] and shown["waiting_for"] == ["p1"]
