"""Moves a client can submit as listed, and a move's answer that carries what the next move needs."""
from __future__ import annotations

from tests.api.test_errors import refused, unchanged


def legal(api, game_id: str, token: str) -> list[dict]:
    answer = api.get(f"/games/{game_id}/legal-moves", token)
    assert answer.status_code == 200, answer.text
    return answer.json()["moves"]


def post(api, game_id: str, token: str, move: dict, version: int, include: str | None = None):
    params = {"include": include} if include else None
    return api.post(f"/games/{game_id}/moves", token, json=move, params=params, headers={"If-Match": f'"{version}"'})


def test_every_outcome_the_organiser_is_offered_is_accepted_as_listed(api):
    first = api.create("high-card", 2, chance_mode="table")
    offers = legal(api, first["game_id"], first["organiser_token"])
    assert len(offers) > 1 and all(offer.keys() == {"type", "outcome"} for offer in offers)
    for index, offer in enumerate(offers):
        game = first if index == 0 else api.create("high-card", 2, chance_mode="table")
        assert legal(api, game["game_id"], game["organiser_token"])[index] == offer
        moved = post(api, game["game_id"], game["organiser_token"], offer, game["version"])
        assert moved.status_code == 201, moved.text


def test_a_draw_with_many_outcomes_is_offered_as_one_template_to_fill_in(api):
    """Borealis draws its first player (4 outcomes, listed), then 2 of 10 scoring cards (90: a template)."""
    game = api.create("borealis", 4, chance_mode="table")
    game_id, organiser = game["game_id"], game["organiser_token"]
    offers = legal(api, game_id, organiser)
    assert sorted(offer["outcome"][0] for offer in offers) == ["p1", "p2", "p3", "p4"]
    moved = post(api, game_id, organiser, offers[2], game["version"])
    assert moved.status_code == 201, moved.text
    (template,) = legal(api, game_id, organiser)
    assert template["chance"]["count"] == 2 and len(template["candidates"]) == 10 and "outcome" not in template
    filled = {"type": template["type"], "outcome": template["candidates"][3:5]}
    assert post(api, game_id, organiser, filled, moved.json()["version"]).status_code == 201


def test_the_default_answer_is_the_batch_alone_and_include_adds_the_next_moves_and_view(api):
    game = api.create("high-card", 2, seed="include-seed")
    game_id, p1, p2 = game["game_id"], game["seats"][0]["token"], game["seats"][1]["token"]
    plain = post(api, game_id, p1, {"type": "keep"}, game["version"])
    assert plain.status_code == 201, plain.text
    assert set(plain.json()) == {"game_id", "first_version", "version", "status", "waiting_for", "events"}
    version = plain.json()["version"]
    rich = post(api, game_id, p2, {"type": "keep"}, version, include="legal_moves,view")
    assert rich.status_code == 201, rich.text
    body = rich.json()
    assert body["view"] == api.get(f"/games/{game_id}", p2).json()
    assert body["view"]["version"] == body["version"]
    assert body["legal_moves"] == {"p2": legal(api, game_id, p2)}
    assert body["may_act"] == []


def test_an_unknown_include_is_refused_before_the_move_is_decided(api, redis_client):
    game = api.create("high-card", 2, seed="include-refused-seed")
    with unchanged(redis_client, game["game_id"]):
        refused(post(api, game["game_id"], game["seats"][0]["token"], {"type": "keep"}, game["version"],
                     include="legal_moves,score"), 400, "invalid_query", "include")


def test_the_organiser_plays_a_whole_game_with_one_request_per_move(api):
    game = api.create("high-card", 3, seed="one-request-seed")
    game_id, organiser = game["game_id"], game["organiser_token"]
    view = api.get(f"/games/{game_id}", organiser).json()
    version, waiting = view["version"], view["waiting_for"]
    choices = {seat: api.get(f"/games/{game_id}/legal-moves", organiser, params={"seat": seat}).json()["moves"]
               for seat in waiting}
    requests = 0
    while waiting:
        seat = waiting[0]
        moved = post(api, game_id, organiser, {**choices[seat][0], "seat": seat}, version, include="legal_moves")
        requests += 1
        assert moved.status_code == 201, moved.text
        body = moved.json()
        version, waiting, choices = body["version"], body["waiting_for"], body["legal_moves"]
        assert set(choices) == set(waiting)
    assert body["status"] == "ended" and requests >= 3
    assert api.get(f"/games/{game_id}").json()["version"] == version


def test_a_template_posted_as_listed_is_refused_with_what_to_send_instead(api):
    game = api.create("borealis", 2, chance_mode="table")
    game_id, organiser = game["game_id"], game["organiser_token"]
    first = legal(api, game_id, organiser)
    assert all("template" not in offer for offer in first), "a listed outcome is a complete move"
    version = post(api, game_id, organiser, first[0], game["version"]).json()["version"]
    (template,) = legal(api, game_id, organiser)
    assert template["template"] is True
    refused = post(api, game_id, organiser, template, version)
    problem = refused.json()
    assert refused.status_code == 422 and problem["code"] == "template_not_filled" and problem["field"] == "outcome"
    assert '"outcome": [...]' in problem["detail"] and "2 of its candidates" in problem["detail"]
    assert api.get(f"/games/{game_id}").json()["version"] == version, "a refusal changes nothing"
    beside = post(api, game_id, organiser, {**template, "outcome": template["candidates"][:2]}, version)
    assert beside.status_code == 422 and beside.json()["code"] == "unknown_field"
    filled = {"type": template["type"], "outcome": template["candidates"][:2]}
    assert post(api, game_id, organiser, filled, version).status_code == 201
