"""Open seats and tokens (TABLE-SEAT-*, TABLE-TOKEN-1): joining, the open listing, rotating a token, and a
rotated token refused at once by every API process."""
from __future__ import annotations

import json
import secrets
import threading

import pytest

from domain import registry
from tests.api.conftest import Api, read_stream, serve


def open_game(api: Api, game: str = "high-card", players: int = 2, open_seats=("p2",), **body) -> dict:
    names = [f"Player {n}" for n in range(1, players + 1)]
    created = api.post("/games", json={"game": game, "players": names, "open_seats": list(open_seats), **body})
    assert created.status_code == 201, created.text
    return created.json()


def join(api: Api, game_id: str, seat: str, **kwargs):
    return api.post(f"/games/{game_id}/seats/{seat}/join", **kwargs)


def move(api: Api, game_id: str, token: str, body: dict):
    version = api.get(f"/games/{game_id}").json()["version"]
    return api.post(f"/games/{game_id}/moves", token, json=body, headers={"If-Match": f'"{version}"'})


def first_move(api: Api, game_id: str, token: str):
    listed = api.get(f"/games/{game_id}/legal-moves", token).json()["moves"]
    return move(api, game_id, token, listed[0])


@pytest.mark.parametrize("game", registry.game_names())
def test_an_open_seat_has_no_token_until_joined_and_the_game_waits_for_it(api, game):
    created = open_game(api, game)
    game_id = created["game_id"]
    assert created["seats"][1] == {"seat": "p2", "name": "Player 2", "token": None, "open": True}
    assert created["seats"][0]["open"] is False and created["seats"][0]["token"]
    view = api.get(f"/games/{game_id}").json()
    assert view["open_seats"] == ["p2"] and view["waiting_for"] == [] and view["seats"][1]["open"] is True
    p1 = created["seats"][0]["token"]
    assert api.get(f"/games/{game_id}/legal-moves", p1).json()["moves"] == []
    refused = move(api, game_id, p1, {"type": "pass"})
    assert refused.status_code == 409 and refused.json()["code"] == "seats_open"
    assert refused.json()["rule_id"] == "TABLE-SEAT-1"
    joined = join(api, game_id, "p2", json={"name": "Bo"})
    assert joined.status_code == 201, joined.text
    answer = joined.json()
    assert answer["seat"] == "p2" and answer["name"] == "Bo" and answer["open_seats"] == []
    assert joined.headers["Cache-Control"] == "no-store"
    assert [event["type"] for event in answer["events"]] == ["seat_joined"]
    assert "token" not in str(answer["events"])
    after = api.get(f"/games/{game_id}", answer["token"]).json()
    assert after["reader"] == "p2" and after["open_seats"] == [] and after["seats"][1]["name"] == "Bo"
    assert after["waiting_for"]
    seat = after["waiting_for"][0]
    token = answer["token"] if seat == "p2" else p1
    assert first_move(api, game_id, token).status_code == 201


def test_joining_a_taken_seat_is_refused(api):
    created = open_game(api)
    game_id = created["game_id"]
    assert join(api, game_id, "p2").status_code == 201
    for seat in ("p2", "p1"):
        taken = join(api, game_id, seat)
        assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
        assert taken.json()["rule_id"] == "TABLE-SEAT-2"
    missing = join(api, game_id, "p7")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_seat"


def test_of_concurrent_joins_of_one_seat_exactly_one_wins(api):
    created = open_game(api, "borealis", 4, open_seats=("p2", "p3", "p4"))
    game_id = created["game_id"]
    barrier = threading.Barrier(8)
    answers: list = []

    def take(seat: str) -> None:
        client = Api(api.base)
        barrier.wait()
        answers.append((seat, join(client, game_id, seat, json={"name": f"racer {len(answers)}"})))

    racers = [threading.Thread(target=take, args=(seat,)) for seat in ["p3"] * 6 + ["p4"] * 2]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    by_seat: dict[str, list[int]] = {}
    for seat, answer in answers:
        by_seat.setdefault(seat, []).append(answer.status_code)
        assert answer.status_code == 201 or answer.json()["code"] == "seat_taken", answer.text
    assert sorted(by_seat["p3"]) == [201, 409, 409, 409, 409, 409]
    assert sorted(by_seat["p4"]) == [201, 409]
    view = api.get(f"/games/{game_id}").json()
    assert view["open_seats"] == ["p2"]
    events = api.get(f"/games/{game_id}/events", created["organiser_token"]).json()["events"]
    assert [event["seat"] for event in events if event["type"] == "seat_joined"].count("p3") == 1
    assert api.get(f"/games/{game_id}/integrity").json()["ok"]


def test_a_join_takes_no_idempotency_key_and_honours_if_match(api):
    created = open_game(api)
    game_id = created["game_id"]
    keyed = join(api, game_id, "p2", headers={"Idempotency-Key": "k"})
    assert keyed.status_code == 400 and keyed.json()["code"] == "idempotency_key_not_accepted"
    version = api.get(f"/games/{game_id}").json()["version"]
    stale = join(api, game_id, "p2", headers={"If-Match": f'"{version - 1}"'})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    assert stale.json()["current_version"] == version
    bad = join(api, game_id, "p2", json={"name": "Bo", "colour": "red"})
    assert bad.status_code == 422 and bad.json()["field"] == "colour"
    assert api.get(f"/games/{game_id}").json()["open_seats"] == ["p2"]
    assert join(api, game_id, "p2", headers={"If-Match": f'"{version}"'}).status_code == 201


def test_creating_with_an_open_seat_the_game_does_not_have_is_refused(api):
    refused = api.post("/games", json={"game": "high-card", "players": ["A", "B"], "open_seats": ["p3"]})
    assert refused.status_code == 422 and refused.json()["code"] == "unknown_seat"
    assert refused.json()["field"] == "open_seats"


def test_the_game_list_filters_games_with_open_seats(api):
    full = api.create("high-card", 2)
    waiting = open_game(api, "borealis")
    other = open_game(api)
    listed = api.get("/games?open=true").json()
    assert [game["game_id"] for game in listed["games"]] == [other["game_id"], waiting["game_id"]]
    assert listed["total"] == 2 and listed["games"][0]["open_seats"] == ["p2"]
    by_game = api.get("/games?open=true&game=borealis").json()
    assert [game["game_id"] for game in by_game["games"]] == [waiting["game_id"]]
    assert full["game_id"] in [game["game_id"] for game in api.get("/games?open=false").json()["games"]]
    join(api, other["game_id"], "p2")
    move(api, waiting["game_id"], waiting["organiser_token"], {"type": "abandon"})
    over = join(api, waiting["game_id"], "p2")
    assert over.status_code == 409 and over.json()["code"] == "game_over"
    assert api.get("/games?open=true").json() == {"games": [], "total": 0, "offset": 0, "limit": 50,
                                                  "next_offset": None}
    refused = api.get("/games?open=true&status=active")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_query"


def tokens_of(created: dict) -> dict[str, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}


def rotate(api: Api, game_id: str, reader: str, token: str | None, **kwargs):
    return api.post(f"/games/{game_id}/seats/{reader}/token", token, **kwargs)


def test_the_organiser_rotates_a_seats_token_and_the_old_one_stops_at_once(api):
    created = api.create("high-card", 2)
    game_id, tokens = created["game_id"], tokens_of(created)
    assert first_move(api, game_id, tokens["p1"]).status_code == 201  # this process now knows p1's token
    rotated = rotate(api, game_id, "p2", tokens["organiser"])
    assert rotated.status_code == 201, rotated.text
    answer = rotated.json()
    assert answer["reader"] == "p2" and answer["token"] != tokens["p2"]
    assert rotated.headers["Cache-Control"] == "no-store"
    assert [(event["type"], event["data"]) for event in answer["events"]] == [("token_rotated", {"reader": "p2"})]
    assert api.get(f"/games/{game_id}", tokens["p2"]).status_code == 401
    assert api.get(f"/games/{game_id}", answer["token"]).json()["reader"] == "p2"
    old = first_move_with(api, game_id, tokens["p2"], answer["token"])
    assert old.status_code == 401 and old.json()["code"] == "token_invalid"


def first_move_with(api: Api, game_id: str, token: str, listing_token: str, lister: Api | None = None):
    """A move sent with ``token``, chosen from the legal moves ``listing_token`` reads (through ``lister``,
    by default ``api``)."""
    listed = (lister or api).get(f"/games/{game_id}/legal-moves", listing_token).json()["moves"]
    return move(api, game_id, token, listed[0] if listed else {"type": "resign"})


def test_a_seat_rotates_its_own_token_only(api):
    created = api.create("high-card", 3)
    game_id, tokens = created["game_id"], tokens_of(created)
    other = rotate(api, game_id, "p2", tokens["p1"])
    assert other.status_code == 403 and other.json()["code"] == "wrong_seat"
    own = rotate(api, game_id, "p1", tokens["p1"])
    assert own.status_code == 201
    assert rotate(api, game_id, "p1", tokens["p1"]).status_code == 401
    new = own.json()["token"]
    assert first_move(api, game_id, new).status_code == 201
    organiser = rotate(api, game_id, "organiser", tokens["organiser"])
    assert organiser.status_code == 201 and organiser.json()["reader"] == "organiser"
    assert api.get(f"/games/{game_id}", tokens["organiser"]).status_code == 401


def test_no_token_starts_with_a_dash_so_a_command_line_takes_it_for_a_value(api, monkeypatch):
    """``cairn bot --token -x…`` would read a dash-led token as an option; the service never mints one."""
    drawn = iter(range(10_000))
    real = secrets.token_urlsafe
    monkeypatch.setattr(secrets, "token_urlsafe", lambda size: ("-" if next(drawn) % 2 == 0 else "") + real(size))
    created = open_game(api, players=3, open_seats=("p3",))
    game_id, tokens = created["game_id"], tokens_of(created)
    joined = join(api, game_id, "p3").json()["token"]
    rotated = rotate(api, game_id, "p1", tokens["p1"]).json()["token"]
    minted = [token for token in [*tokens.values(), joined, rotated] if token is not None]
    assert len(minted) == 5 and not any(token.startswith("-") for token in minted)
    assert api.get(f"/games/{game_id}", joined).json()["reader"] == "p3"
    assert api.get(f"/games/{game_id}", rotated).json()["reader"] == "p1"


def test_rotation_refusals(api):
    created = open_game(api, players=3, open_seats=("p3",))
    game_id, tokens = created["game_id"], tokens_of(created)
    assert rotate(api, game_id, "p1", None).status_code == 401
    wrong = rotate(api, game_id, "p1", "not-a-token")
    assert wrong.status_code == 401 and wrong.json()["code"] == "token_invalid"
    unopened = rotate(api, game_id, "p3", tokens["organiser"])
    assert unopened.status_code == 409 and unopened.json()["code"] == "seat_open"
    unknown = rotate(api, game_id, "p9", tokens["organiser"])
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_seat"
    keyed = rotate(api, game_id, "p1", tokens["p1"], headers={"Idempotency-Key": "k"})
    assert keyed.status_code == 400 and keyed.json()["code"] == "idempotency_key_not_accepted"
    version = api.get(f"/games/{game_id}").json()["version"]
    stale = rotate(api, game_id, "p1", tokens["p1"], headers={"If-Match": f'"{version + 3}"'})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    assert api.get(f"/games/{game_id}", tokens["p1"]).json()["reader"] == "p1"


def test_a_rotated_token_stops_at_once_in_every_process(api_config):
    """Each process learns a game's tokens and moves with the ones it knows without asking Redis: the other
    process's rotation must still refuse the old token there, for reads and for moves alike."""
    first_server, second_server = serve(api_config), serve(api_config)
    first, second = Api(next(first_server)), Api(next(second_server))
    created = first.create("borealis", 2, seed="rotation")
    game_id, tokens = created["game_id"], tokens_of(created)
    for seat in ("p1", "p2"):  # both seats' mulligans, through the second process: it knows both tokens now
        assert first_move(second, game_id, tokens[seat]).status_code == 201
    rotated = rotate(first, game_id, "p1", tokens["organiser"]).json()["token"]
    # The move is the second process's first request with a token since: it still holds the old one's hash.
    refused = first_move_with(second, game_id, tokens["p1"], rotated, lister=first)
    assert refused.status_code == 401 and refused.json()["code"] == "token_invalid"
    assert second.get(f"/games/{game_id}", tokens["p1"]).status_code == 401
    waiting = second.get(f"/games/{game_id}").json()["waiting_for"]
    mover = rotated if waiting == ["p1"] else tokens["p2"]
    assert first_move(second, game_id, mover).status_code == 201
    again = rotate(second, game_id, "p2", tokens["p2"]).json()["token"]
    old_p2 = first_move_with(first, game_id, tokens["p2"], again, lister=second)
    assert old_p2.status_code == 401 and old_p2.json()["code"] == "token_invalid"
    assert first.get(f"/games/{game_id}", again).json()["reader"] == "p2"
    assert first.get(f"/games/{game_id}/integrity").json()["ok"]
    for server in (first_server, second_server):
        server.close()


def test_a_live_stream_opened_with_a_rotated_token_ends_after_the_rotation(api):
    created = api.create("high-card", 2)
    game_id, tokens = created["game_id"], tokens_of(created)
    version = api.get(f"/games/{game_id}").json()["version"]
    done = threading.Event()

    def rotate_later() -> None:
        done.wait(10)
        rotate(api, game_id, "p2", tokens["organiser"])

    rotator = threading.Thread(target=rotate_later)
    rotator.start()

    def started(messages: list[dict]) -> bool:
        done.set()
        return False

    messages = read_stream(api, f"/games/{game_id}/stream?from={version + 1}", tokens["p2"], enough=started)
    rotator.join()
    assert [message.get("event", "message") for message in messages] == ["message", "end"]
    assert json.loads(messages[0]["data"])["type"] == "token_rotated"
    assert json.loads(messages[1]["data"]) == {"reason": "token_rotated", "version": version + 1}
    again = api.get(f"/games/{game_id}/stream?from={version + 1}", tokens["p2"])
    assert again.status_code == 401


def test_a_joined_seat_is_found_under_its_players_name_and_not_its_placeholder(api):
    created = open_game(api)
    game_id = created["game_id"]
    assert [game["game_id"] for game in api.get("/games?player=player 2").json()["games"]] == [game_id]
    join(api, game_id, "p2", json={"name": "Ootah"})
    found = api.get("/games?player=OOTAH&status=active").json()["games"]
    assert [game["game_id"] for game in found] == [game_id] and found[0]["players"] == ["Player 1", "Ootah"]
    assert api.get("/games?player=player 2").json()["games"] == []
    move(api, game_id, created["organiser_token"], {"type": "abandon"})
    assert [game["game_id"] for game in api.get("/games?player=ootah&status=ended").json()["games"]] == [game_id]
    assert api.get("/games?player=ootah&status=active").json()["games"] == []


def test_of_joins_of_one_seat_through_two_processes_exactly_one_wins(api_config):
    first_server, second_server = serve(api_config), serve(api_config)
    bases = [next(first_server), next(second_server)]
    created = open_game(Api(bases[0]))
    game_id = created["game_id"]
    barrier = threading.Barrier(6)
    statuses: list[int] = []

    def take(base: str) -> None:
        client = Api(base)
        client.get(f"/games/{game_id}")  # each process has the game folded before the race
        barrier.wait()
        statuses.append(join(client, game_id, "p2").status_code)

    racers = [threading.Thread(target=take, args=(bases[n % 2],)) for n in range(6)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(statuses) == [201, 409, 409, 409, 409, 409]
    assert Api(bases[1]).get(f"/games/{game_id}/integrity").json()["ok"]
    for server in (first_server, second_server):
        server.close()
