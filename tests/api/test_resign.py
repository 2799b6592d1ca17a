"""Resigning and abandoning (TABLE-RESIGN-*, TABLE-ABANDON-1) through the moves endpoint, in every game."""
from __future__ import annotations

import pytest

from domain import registry
from tests.api.conftest import Api

GAMES = registry.game_names()


def tokens_of(created: dict) -> dict[str, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}


def post(api: Api, game_id: str, token: str, move: dict, version: int | None = None, **headers):
    at = version if version is not None else api.get(f"/games/{game_id}").json()["version"]
    return api.post(f"/games/{game_id}/moves", token, json=move, headers={"If-Match": f'"{at}"', **headers})


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_that_resigns_ends_the_game_and_the_end_reveals_the_seed(api, game):
    created = api.create(game, 2, seed=f"resign-{game}")
    game_id, tokens = created["game_id"], tokens_of(created)
    resigned = post(api, game_id, tokens["p2"], {"type": "resign"})
    assert resigned.status_code == 201, resigned.text
    answer = resigned.json()
    assert [event["type"] for event in answer["events"]] == ["seat_resigned", "game_ended"]
    assert answer["events"][0]["seat"] == "p2" and answer["status"] == "ended" and answer["waiting_for"] == []
    assert answer["events"][1]["data"]["seed"] == f"resign-{game}"
    view = api.get(f"/games/{game_id}").json()
    assert view["ended_by"] == {"reason": "resigned", "seat": "p2"} and view["seed"] == f"resign-{game}"
    again = post(api, game_id, tokens["p2"], {"type": "keep"})
    assert again.status_code == 409 and again.json()["code"] == "seat_resigned"
    assert again.json()["rule_id"] == "TABLE-RESIGN-1"
    other = post(api, game_id, tokens["p1"], {"type": "resign"})
    assert other.status_code == 409 and other.json()["code"] == "game_over"


def test_a_seat_resigns_out_of_turn(api):
    created = api.create("high-card", 3)
    game_id, tokens = created["game_id"], tokens_of(created)
    assert api.get(f"/games/{game_id}").json()["waiting_for"] == ["p1"]
    assert post(api, game_id, tokens["p3"], {"type": "resign"}).status_code == 201


def test_the_organiser_cannot_resign_even_for_a_seat_it_names(api):
    created = api.create("high-card", 2)
    game_id, organiser = created["game_id"], created["organiser_token"]
    for move in ({"type": "resign"}, {"type": "resign", "seat": "p1"}):
        refused = post(api, game_id, organiser, move)
        assert refused.status_code == 403 and refused.json()["code"] == "organiser_cannot_resign"
        assert refused.json()["rule_id"] == "TABLE-RESIGN-3"
    assert api.get(f"/games/{game_id}").json()["status"] == "active"


def test_a_resignation_is_a_move_with_its_version_and_idempotency_key(api):
    created = api.create("high-card", 2)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    version = api.get(f"/games/{game_id}").json()["version"]
    stale = post(api, game_id, token, {"type": "resign"}, version=version - 1)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    first = post(api, game_id, token, {"type": "resign"}, version=version, **{"Idempotency-Key": "resign-1"})
    retried = post(api, game_id, token, {"type": "resign"}, version=version, **{"Idempotency-Key": "resign-1"})
    assert first.status_code == retried.status_code == 201
    assert retried.headers["Idempotent-Replayed"] == "true" and retried.json()["events"] == first.json()["events"]
    assert api.get(f"/games/{game_id}").json()["version"] == version + 2
    unknown = post(api, game_id, token, {"type": "resign", "why": "tired"})
    assert unknown.status_code == 409  # over: the end is checked before the fields


def test_a_resignation_with_a_field_it_does_not_have_is_refused_naming_it(api):
    created = api.create("high-card", 2)
    refused = post(api, created["game_id"], created["seats"][0]["token"], {"type": "resign", "why": "tired"})
    assert refused.status_code == 422 and refused.json()["code"] == "unknown_field"
    assert refused.json()["field"] == "why"


@pytest.mark.parametrize("game", GAMES)
def test_the_organiser_abandons_a_game(api, game):
    created = api.create(game, 2, chance_mode="table")
    game_id, tokens = created["game_id"], tokens_of(created)
    by_seat = post(api, game_id, tokens["p1"], {"type": "abandon"})
    assert by_seat.status_code == 403 and by_seat.json()["code"] == "not_organiser"
    abandoned = post(api, game_id, tokens["organiser"], {"type": "abandon", "reason": "the cafe closed"})
    assert abandoned.status_code == 201, abandoned.text
    assert [event["type"] for event in abandoned.json()["events"]] == ["game_abandoned", "game_ended"]
    view = api.get(f"/games/{game_id}", tokens["p1"]).json()
    assert view["status"] == "ended" and view["ended_by"] == {"reason": "abandoned", "detail": "the cafe closed"}
    twice = post(api, game_id, tokens["organiser"], {"type": "abandon"})
    assert twice.status_code == 409 and twice.json()["code"] == "game_over"


def test_a_seat_change_is_not_a_move(api):
    created = api.create("high-card", 2)
    for kind in ("join_seat", "rotate_token"):
        refused = post(api, created["game_id"], created["organiser_token"], {"type": kind, "reader": "p1"})
        assert refused.status_code == 422 and refused.json()["code"] == "not_a_move"
