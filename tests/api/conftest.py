"""The API served over real HTTP (werkzeug in a thread) on the test run's Redis, every response held to the spec."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
import requests
from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server

from domain import registry
from service.app import create_app
from tests.contract import CONTRACT
from tests.core.high_card import RULES as HIGH_CARD

FAST = {"RATE_LIMIT": 100_000, "RATE_BURST": 100_000, "STREAM_IDLE_SECONDS": 1.0, "STREAM_KEEPALIVE_SECONDS": 0.2}

registry.register(HIGH_CARD)
logging.getLogger("werkzeug").setLevel(logging.WARNING)


@dataclass
class Api:
    """A client of one running server; every response it receives is validated against api_spec.yaml."""

    base: str
    session: requests.Session = field(default_factory=requests.Session)

    def __post_init__(self) -> None:
        self.session.trust_env = False

    def request(self, method: str, path: str, token: str | None = None, **kwargs) -> requests.Response:
        headers = dict(kwargs.pop("headers", None) or {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = self.session.request(method, self.base + path, headers=headers, timeout=30, **kwargs)
        CONTRACT.check_response(response)
        return response

    def get(self, path: str, token: str | None = None, **kwargs) -> requests.Response:
        return self.request("GET", path, token, **kwargs)

    def post(self, path: str, token: str | None = None, **kwargs) -> requests.Response:
        return self.request("POST", path, token, **kwargs)

    def create(self, game: str = "high-card", players: int = 2, **body) -> dict:
        names = [f"Player {n}" for n in range(1, players + 1)]
        response = self.post("/games", json={"game": game, "players": names, **body})
        assert response.status_code == 201, response.text
        return response.json()


class KeepAliveHandler(WSGIRequestHandler):
    """HTTP/1.1, so a client's connection serves many requests, as behind any real server."""

    protocol_version = "HTTP/1.1"


def serve(config: dict) -> Iterator[str]:
    return serve_app(create_app(config))


def serve_app(app: Flask) -> Iterator[str]:
    """The app over HTTP on a free port, a thread per request; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=KeepAliveHandler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()


@pytest.fixture
def api_config(locations, redis_client, tmp_path, monkeypatch) -> dict:
    """Settings for a server on a freshly flushed Redis (or cluster); a test may change them before asking for
    ``api``. A worker of the test finds the cluster through the environment, as a deployed one does."""
    if "REDIS_CLUSTER_URL" in locations:
        monkeypatch.setenv("REDIS_CLUSTER_URL", locations["REDIS_CLUSTER_URL"])
    return {**locations, "DATA_DIR": str(tmp_path / "data"), **FAST}


@pytest.fixture
def api(api_config) -> Iterator[Api]:
    for base in serve(api_config):
        yield Api(base)


def read_stream(api: Api, path: str, token: str | None = None, headers: dict | None = None,
                enough: Callable[[list[dict]], bool] = lambda _messages: False) -> list[dict]:
    """The SSE messages of a stream (``{"id", "event", "data"}`` each) until the server ends it or ``enough``.

    ``enough`` is asked after each message and keep-alive comment; the body read up to then is what
    is held to the spec.
    """
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    response = api.session.get(api.base + path, headers=sent, stream=True, timeout=30)
    lines: list[str] = []
    messages, current = [], {}
    for raw in response.iter_lines():
        line = raw.decode()
        lines.append(line)
        if line and not line.startswith(":"):
            name, _, value = line.partition(":")
            current[name] = value.removeprefix(" ")
            continue
        if not line and "data" in current:
            messages.append(current)
        current = {} if not line else current
        if enough(messages):
            break
    response.close()
    body = "\n".join(lines).encode()
    CONTRACT.check("GET", response.request.url, response.status_code, response.headers, body)
    assert response.status_code == 200, body
    return messages
