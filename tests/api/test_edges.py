"""The edges of HTTP: numbers past any range, job ids RQ would choke on, chunked bodies over the limit,
If-Match as RFC 9110 reads it, ETags that differ by reader, and where exports are written."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest
from rq.job import Job

from service.redis_server import free_port
from service.signing import keyring_from_environment
from tests.api.conftest import FAST, Api, serve
from tests.api.test_errors import move, refused, unchanged
from tests.burst import drain as drain_queue
from tests.processes import wait_for
from workers.worker import default_export_dir


@pytest.fixture
def game(api) -> dict:
    created = api.create("high-card", 2, seed="edges-seed")
    created["tokens"] = {seat["seat"]: seat["token"] for seat in created["seats"]}
    keep = move(api, created, {"type": "keep", "expected_version": 3})
    assert keep.status_code == 201, keep.text
    return created


@pytest.mark.parametrize("path, field", [
    ("/games/{id}/events?from=18446744073709551616", "from"),
    ("/games/{id}/events?from=9007199254740993", "from"),
    ("/games/{id}/events?limit=1000000001", "limit"),
    ("/games/{id}/state?at=18446744073709551616", "at"),
    ("/games?offset=99999999999999999999", "offset"),
    ("/games?limit=-1", "limit"),
])
def test_a_number_out_of_range_in_a_query_is_400_naming_it(api, game, path, field):
    refused(api.get(path.format(id=game["game_id"])), 400, "invalid_query", field)


def test_an_expected_version_out_of_range_is_refused_before_the_game_is_read(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep", "expected_version": 2**64}), 422, "invalid_field", "expected_version")
        refused(move(api, game, {"type": "keep"}, headers={"If-Match": f'"{2**64}"'}), 412, "precondition_failed",
                "If-Match")


def test_a_job_id_this_service_never_gives_is_404(api, game):
    organiser = game["organiser_token"]
    for job_id in ("a.b", "caf%C3%A9", "score-x%3Aother", "%20", "a" * 300):
        refused(api.get(f"/jobs/{job_id}"), 404, "job_not_found")
        refused(api.post(f"/jobs/{job_id}/retry", organiser), 404, "job_not_found")


def test_an_id_with_a_colon_does_not_reach_another_job(api, redis_client):
    """RQ reads ``<id>:<anything>`` as ``<id>``; the API must not show a job under a name it never gave."""
    created = api.create("high-card", 2)
    audit = api.post(f"/games/{created['game_id']}/audits", created["organiser_token"])
    assert audit.status_code == 202
    job_id = audit.json()["job_id"]
    assert api.get(f"/jobs/{job_id}").status_code == 200
    refused(api.get(f"/jobs/{job_id}%3Aelse"), 404, "job_not_found")


# If-Match, as RFC 9110 reads it.

@pytest.mark.parametrize("header", ['"4', "4", 'W/"4', '"4" "4"', '"4";', "", ",", 'w/"4"', '"a"b"'])
def test_a_malformed_if_match_is_400(api, redis_client, game, header):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep"}, "p2", headers={"If-Match": header}), 400, "invalid_if_match",
                "If-Match")


@pytest.mark.parametrize("header", ['W/"4"', '"abc"', '"4-p2"', 'W/"4", "something"', '"0"'])
def test_an_if_match_without_a_strong_version_tag_is_412(api, redis_client, game, header):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep"}, "p2", headers={"If-Match": header}), 412, "precondition_failed",
                "If-Match")


def test_a_well_formed_stale_tag_is_409_with_the_current_version(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        problem = refused(move(api, game, {"type": "keep"}, "p2", headers={"If-Match": '"3"'}), 409, "stale_version",
                          "expected_version")
    assert problem["current_version"] == 4


def test_a_list_of_tags_naming_two_versions_is_400(api, redis_client, game):
    with unchanged(redis_client, game["game_id"]):
        refused(move(api, game, {"type": "keep"}, "p2", headers={"If-Match": '"3", "4"'}), 400, "invalid_if_match")


@pytest.mark.parametrize("header, body", [
    ('"4"', {}),
    ('"4;p2"', {}),
    ('W/"4" , "4;p2",, "else"', {}),
    ("*", {"expected_version": 4}),
])
def test_a_strong_tag_of_the_current_version_moves(api, game, header, body):
    moved = move(api, game, {"type": "keep", **body}, "p2", headers={"If-Match": header})
    assert moved.status_code == 201, moved.text
    assert moved.json()["version"] == 5


def test_the_tag_of_a_view_moves_the_game(api, game):
    p2 = game["seats"][1]["token"]
    tag = api.get(f"/games/{game['game_id']}", p2).headers["ETag"]
    moved = move(api, game, {"type": "keep"}, "p2", headers={"If-Match": tag})
    assert moved.status_code == 201, moved.text


# ETags and caches.

def test_each_reader_has_its_own_tag_and_never_gets_another_readers_304(api, game):
    path = f"/games/{game['game_id']}"
    p1, p2, organiser = game["seats"][0]["token"], game["seats"][1]["token"], game["organiser_token"]
    answers = {name: api.get(path, token) for name, token in
               (("public", None), ("p1", p1), ("p2", p2), ("organiser", organiser))}
    tags = {name: answer.headers["ETag"] for name, answer in answers.items()}
    assert tags == {"public": '"4"', "p1": '"4;p1"', "p2": '"4;p2"', "organiser": '"4;organiser"'}
    for name, answer in answers.items():
        assert "Authorization" in answer.headers["Vary"]
        assert answer.headers["Cache-Control"] == ("no-cache" if name == "public" else "private, no-cache")
    assert api.get(path, p1, headers={"If-None-Match": tags["p1"]}).status_code == 304
    assert api.get(path, p1, headers={"If-None-Match": f"W/{tags['p1']}"}).status_code == 304
    for name, token in (("public", None), ("p2", p2), ("organiser", organiser)):
        other = api.get(path, token, headers={"If-None-Match": tags["p1"]})
        assert other.status_code == 200 and other.json()["reader"] == name
    assert api.get(path, p1, headers={"If-None-Match": tags["public"]}).status_code == 200


def test_every_read_shaped_for_a_token_is_private(api, game):
    p1 = game["seats"][0]["token"]
    for path in ("/legal-moves", "/state", "/events"):
        answer = api.get(f"/games/{game['game_id']}{path}", p1)
        assert answer.status_code == 200
        assert "Authorization" in answer.headers["Vary"] and answer.headers["Cache-Control"] == "private, no-cache"
    assert api.get(f"/games/{game['game_id']}/legal-moves", p1).headers["ETag"] == '"4;p1"'


def test_a_new_games_tokens_are_never_stored_by_a_cache(api):
    response = api.post("/games", json={"game": "high-card", "players": ["Ann", "Bo"]})
    assert response.status_code == 201 and response.headers["Cache-Control"] == "no-store"


# Exports live in the data folder.

def test_exports_are_written_under_the_data_folder_whatever_the_working_directory(
        redis_server, redis_client, tmp_path, monkeypatch):
    monkeypatch.delenv("CAIRN_EXPORT_DIR", raising=False)
    monkeypatch.setenv("CAIRN_DATA_DIR", str(tmp_path / "data"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    data_dir = tmp_path / "data"
    # The in-process worker finds the data folder as a deployed one does (cairn serve --data-dir sets it).
    monkeypatch.setenv("CAIRN_DATA_DIR", str(data_dir))
    keyring_from_environment.cache_clear()
    for base in serve({"REDIS_URL": redis_server.url, "DATA_DIR": str(data_dir), **FAST}):
        api = Api(base)
        created = api.create("high-card", 2)
        started = api.post(f"/games/{created['game_id']}/exports", json={"format": "json"})
        assert started.status_code == 202
        job = Job.fetch(started.json()["job_id"], connection=redis_client)
        assert job.args[-1] == str(data_dir / "exports")
        drain_queue(redis_client)
        assert api.post(f"/games/{created['game_id']}/exports", json={"format": "json"}).status_code == 200
    assert list((data_dir / "exports").rglob("*.json")), "the export is in <DATA_DIR>/exports"
    assert not list(elsewhere.rglob("*")), "nothing is written under the working directory"
    keyring_from_environment.cache_clear()


def test_the_worker_sweeps_the_exports_of_the_data_folder_by_default(tmp_path, monkeypatch):
    monkeypatch.delenv("CAIRN_EXPORT_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CAIRN_DATA_DIR", "/srv/cairn")
    assert default_export_dir() == (tmp_path / "/srv/cairn/exports")
    monkeypatch.delenv("CAIRN_DATA_DIR")
    assert default_export_dir() == tmp_path / "var" / "exports"


# A chunked body, through a real HTTP server.

@pytest.fixture
def gunicorn(redis_server, redis_client, tmp_path) -> Iterator[str]:
    """The API under gunicorn, as ``cairn serve`` runs it, on the test run's Redis."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_server.url, "CAIRN_DATA_DIR": str(tmp_path),
           "CAIRN_RATE_LIMIT": "100000", "CAIRN_RATE_BURST": "100000"}
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1",
         "--worker-class", "gthread", "--threads", "2", "service.app:create_app()"],
        env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/rules", process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def chunked_post(base: str, path: str, token: str, body: bytes, chunk: int = 8192) -> tuple[int, dict]:
    """POST ``body`` with ``Transfer-Encoding: chunked`` (no Content-Length) on a raw socket: (status, JSON)."""
    host, port = base.removeprefix("http://").split(":")
    head = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(head.encode())
        try:
            for start in range(0, len(body), chunk):
                piece = body[start:start + chunk]
                connection.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            connection.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before reading all of a body it refuses
        answer = b""
        while chunk_read := connection.recv(65536):
            answer += chunk_read
    status_line, _, rest = answer.partition(b"\r\n")
    headers, _, payload = rest.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in headers.lower():
        payload = dechunk(payload)
    return int(status_line.split()[1]), json.loads(payload)


def dechunk(payload: bytes) -> bytes:
    out = b""
    while True:
        size_line, _, payload = payload.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            return out
        out, payload = out + payload[:size], payload[size + 2:]


def test_a_chunked_body_over_the_limit_is_413_and_appends_nothing(gunicorn, redis_client):
    api = Api(gunicorn)
    created = api.post("/games", json={"game": "borealis", "players": ["Ann", "Bo"], "seed": "chunked-body"}).json()
    game_id = created["game_id"]
    path = f"/games/{game_id}"
    view = api.get(path).json()
    token = next(seat["token"] for seat in created["seats"] if seat["seat"] == view["waiting_for"][0])
    legal = api.get(f"{path}/legal-moves", token).json()["moves"][0]
    move_json = json.dumps({**legal, "expected_version": view["version"]}).encode()
    # Valid JSON in its first 64 KiB: cut at the limit, it would read as the move itself.
    padded = move_json + b" " * (70 * 1024)
    with unchanged(redis_client, game_id):
        status, problem = chunked_post(gunicorn, f"{path}/moves", token, padded)
        assert (status, problem["code"]) == (413, "body_too_large")
    status, moved = chunked_post(gunicorn, f"{path}/moves", token, move_json + b" " * 1024)
    assert status == 201, moved
    assert api.get(path).json()["version"] == view["version"] + len(moved["events"])
