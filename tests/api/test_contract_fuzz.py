"""The service against its own contract: schemathesis generates requests from api_spec.yaml for every operation
but the live stream, and every answer must be a documented status, of a documented media type, in the documented
shape, and never a server error.

Generated requests name real things most of the time: one game still being played, one that has ended with its
score, exports and audit made by a worker, those records' jobs, and their tokens, so that operations reach their
logic rather than stopping at 404 or 401. The rest of the time the generated game id, job id or token is sent.
Half the moves are made legal (the game's own next move, with the generated headers), and half the games to
create name a real game, so that answers of success are held to the contract too.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest
import schemathesis
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from rq import SimpleWorker
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.app import create_app
from tests.api.conftest import FAST
from tests.burst import drain as drain_queue
from tests.contract import SPEC_PATH
from workers.queues import queue

CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance, content_type_conformance]
GAMES = ("active", "ended", "generated")
READERS = ("organiser", "p1", "p2", "public", "generated")
JOBS = ("score", "export", "audit", "generated")


@dataclass
class Fixture:
    """What the generated requests may name, and a tally of what they received."""

    game_ids: dict[str, str]
    tokens: dict[str, dict[str, str]]
    job_ids: dict[str, str]
    worker: SimpleWorker
    statuses: Counter = field(default_factory=Counter)
    operations: set = field(default_factory=set)


def created(client: FlaskClient, chance_mode: str = "server") -> dict:
    response = client.post("/games", json={"game": "high-card", "players": ["Ann", "Bo"], "chance_mode": chance_mode})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def tokens_of(game: dict) -> dict[str, str]:
    return {"organiser": game["organiser_token"], **{seat["seat"]: seat["token"] for seat in game["seats"]}}


def play_to_the_end(client: FlaskClient, game: dict) -> None:
    tokens = tokens_of(game)
    path = f"/games/{game['game_id']}"
    state = client.get(path).get_json()
    while state["status"] == "active":
        token = tokens[state["waiting_for"][0]]
        headers = {"Authorization": f"Bearer {token}"}
        move = client.get(f"{path}/legal-moves", headers=headers).get_json()["moves"][0]
        answer = client.post(f"{path}/moves", json={**move, "expected_version": state["version"]}, headers=headers)
        assert answer.status_code == 201, answer.get_data(as_text=True)
        state = client.get(path).get_json()


@pytest.fixture(scope="module")
def records(redis_server, tmp_path_factory):
    """An app on the test run's Redis with one game in play and one ended and worked on by a worker."""
    connection = __import__("redis").Redis.from_url(redis_server.url)
    connection.flushall()
    app = create_app({"REDIS_URL": redis_server.url, **FAST, "EXPORT_DIR": str(tmp_path_factory.mktemp("exports"))})
    client = app.test_client()
    active, ended = created(client, "table"), created(client)
    play_to_the_end(client, ended)
    organiser = {"Authorization": f"Bearer {ended['organiser_token']}"}
    game_path = f"/games/{ended['game_id']}"
    job_ids = {
        "score": client.get(f"{game_path}/score").get_json()["job_id"],
        "export": client.post(f"{game_path}/exports", json={"format": "json"}, headers=organiser).get_json()["job_id"],
        "audit": client.post(f"{game_path}/audits", headers=organiser).get_json()["job_id"],
    }
    drain_queue(connection)
    # A worker registered with a fresh heartbeat, as in a running service, so that GET /ready answers 200.
    standing = SimpleWorker([queue(connection)], connection=connection)
    standing.register_birth()
    standing.heartbeat()
    fixture = Fixture(game_ids={"active": active["game_id"], "ended": ended["game_id"]},
                      tokens={"active": tokens_of(active), "ended": tokens_of(ended)}, job_ids=job_ids,
                      worker=standing)
    yield app, fixture
    standing.register_death()
    connection.close()
    print(f"\ncontract fuzz: {len(fixture.operations)} operations, {sum(fixture.statuses.values())} requests,"
          f" statuses {dict(sorted(fixture.statuses.items()))}")


def legal_move(client: FlaskClient, fixture: Fixture, case) -> None:
    """Make ``case`` a move the rules accept, for whoever the active game waits for (its headers stay as
    generated); a game that has ended is replaced by a new one, so later moves have a game to move in."""
    path = f"/games/{fixture.game_ids['active']}"
    state = client.get(path).get_json()
    if state["status"] != "active":
        replacement = created(client, "table")
        fixture.game_ids["active"], fixture.tokens["active"] = replacement["game_id"], tokens_of(replacement)
        path = f"/games/{replacement['game_id']}"
        state = client.get(path).get_json()
    mover = state["waiting_for"][0]
    token = fixture.tokens["active"][mover]
    moves = client.get(f"{path}/legal-moves", headers={"Authorization": f"Bearer {token}"}).get_json()["moves"]
    case.path_parameters["game_id"] = fixture.game_ids["active"]
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    case.body = {**moves[0], "expected_version": state["version"]}


schema = schemathesis.openapi.from_path(SPEC_PATH).exclude(operation_id="followGame")


@schema.parametrize()
@schema.given(game=st.sampled_from(GAMES), reader=st.sampled_from(READERS), job=st.sampled_from(JOBS),
              legal=st.booleans())
# The spec's examples are answers for people to read (GET /docs), not requests: only generated cases are sent.
@settings(max_examples=50, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck),
          phases=[Phase.generate, Phase.target, Phase.shrink])
def test_every_answer_keeps_to_the_contract(case, records, game, reader, job, legal):
    app, fixture = records
    parameters = case.path_parameters or {}
    if "game_id" in parameters and game != "generated":
        parameters["game_id"] = fixture.game_ids[game]
    if "job_id" in parameters and job != "generated":
        parameters["job_id"] = fixture.job_ids[job]
    game_tokens = fixture.tokens["active" if game == "active" else "ended"]
    headers = dict(case.headers or {})
    if reader in game_tokens:
        headers["Authorization"] = f"Bearer {game_tokens[reader]}"
    elif reader == "public":
        headers.pop("Authorization", None)
    # The in-process client does not decode gzip; compression is held to account in test_conventions.
    headers["Accept-Encoding"] = "identity"
    case.headers = headers
    # The standing worker beats as a running one does between jobs: the run may outlast its WORKER_TTL.
    fixture.worker.heartbeat()
    operation = case.operation.definition.raw.get("operationId")
    if operation == "submitMove" and game == "active" and legal:
        legal_move(app.test_client(), fixture, case)
    if operation == "createGame" and legal and isinstance(case.body, dict):
        case.body = {**case.body, "game": "high-card", "players": ["Ann", "Bo"]}
    response = case.call(app=app)
    fixture.operations.add(case.operation.label)
    fixture.statuses[response.status_code] += 1
    case.validate_response(response, checks=CHECKS)
