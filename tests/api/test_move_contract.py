"""The contract's move schemas and the client's moves module state the games' declarations as they are, and every
move the service offers, in every game, fits its game's move schema."""
from __future__ import annotations

import jsonschema
import yaml

from domain.registry import game_names, get_rules
from service.move_contract import CLIENT_PATH, client_text, docs_path, docs_text, spec_text, union_name
from tests.contract import SPEC_PATH

DOCUMENT = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
PLAYED_MOVES = 40


def test_the_contract_and_the_client_are_made_from_the_declarations_as_they_are():
    current = SPEC_PATH.read_text(encoding="utf-8")
    assert spec_text(current) == current, "api_spec.yaml's move schemas are stale: run ./run contract"
    assert CLIENT_PATH.read_text(encoding="utf-8") == client_text(), "cairn_client/moves.py is stale: ./run contract"
    for game in game_names():
        page = docs_path(game).read_text(encoding="utf-8")
        assert docs_text(game, page) == page, f"docs/games/{game}.md's move fields are stale: run ./run contract"


def validator(game: str) -> jsonschema.Draft202012Validator:
    schema = {"$ref": f"#/components/schemas/{union_name(game)}", "components": DOCUMENT["components"]}
    return jsonschema.Draft202012Validator(schema)


def test_every_move_the_service_offers_fits_its_games_schema(api):
    for game in game_names():
        rules = get_rules(game)
        created = api.create(game, rules.player_counts[0], chance_mode="table")
        path = f"/games/{created['game_id']}"
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"]} | {"organiser": created["organiser_token"]}
        fits = validator(game)
        for _ in range(PLAYED_MOVES):
            view = api.get(path).json()
            if view["status"] != "active":
                break
            token = tokens[view["waiting_for"][0]]
            listed = api.get(f"{path}/legal-moves", token).json()["moves"]
            complete = [move for move in listed if "candidates" not in move]  # a draw's template is filled in
            for move in complete:
                errors = [error.message for error in fits.iter_errors(move)]
                assert not errors, f"{game}: {move} does not fit {union_name(game)}: {errors[:3]}"
            move = complete[0] if complete else {"type": "resolve_chance", "outcome": listed[0]["candidates"][
                :listed[0]["chance"]["count"]]}
            answer = api.post(f"{path}/moves", token, json=move, headers={"If-Match": f'"{view["version"]}"'})
            assert answer.status_code == 201, answer.text


def test_a_move_that_does_not_fit_its_schema_is_refused_naming_the_field(api):
    created = api.create("borealis", 2)
    path = f"/games/{created['game_id']}"
    version = api.get(path).json()["version"]
    token = created["seats"][0]["token"]
    for body, code, name in (({"type": "mulligan"}, "missing_field", "discard_card_ids"),
                             ({"type": "mulligan", "discard_card_ids": "all"}, "invalid_field", "discard_card_ids"),
                             ({"type": "mulligan", "discard_card_ids": [], "colour": "red"}, "unknown_field", "colour"),
                             ({"type": "shuffle"}, "unknown_move_type", "type")):
        assert not validator("borealis").is_valid(body)
        refused = api.post(f"{path}/moves", token, json=body, headers={"If-Match": f'"{version}"'})
        problem = refused.json()
        assert (refused.status_code, problem["code"], problem["field"]) == (422, code, name), problem


def test_the_docs_page_gives_each_fields_type_and_whether_it_is_required(api):
    page = api.get("/docs").text
    row = page.split("id=move-northwest-passage-draw_tile>", 1)[1].split("<tr", 1)[0]
    assert "<code>source</code> * <span class=muted>string</span>" in row
    assert "<code>pay_from</code> <span class=muted>string (&quot;ship&quot;, &quot;sled&quot;)</span>" in row
    assert "NWP-ACT-1" in row and f"href=#schema-{union_name('northwest-passage')}" in page
