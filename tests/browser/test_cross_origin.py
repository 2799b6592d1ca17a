"""A page served from another origin uses the API in a real Chromium: it creates a game, moves and follows it."""
from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.api.conftest import FAST, Api, serve
from tests.browser.conftest import SCREENSHOTS, wait

PAGE = Path(__file__).with_name("cross_origin.html")


@pytest.fixture
def other_origin():
    """The test page on its own server: ``localhost`` and another port, so another origin than the API's."""
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(PAGE.parent))
    handler.log_message = lambda *args: None
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://localhost:{server.server_port}"
    server.shutdown()


@pytest.fixture
def api_base(redis_server, redis_client):
    yield from serve({"REDIS_URL": redis_server.url, **FAST, "STREAM_IDLE_SECONDS": 10.0})


def test_a_page_on_another_origin_creates_a_game_moves_and_follows_the_stream(browser, other_origin, api_base):
    browser.get(f"{other_origin}/{PAGE.name}?api={api_base}")
    waiting = wait(browser, 20)
    text = lambda element: browser.find_element("id", element).text  # noqa: E731
    waiting.until(lambda _: text("move") or text("error"))
    waiting.until(lambda _: "card_kept" in text("streamed") or text("error"))
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "cross-origin-table.png"))
    assert text("error") == ""
    assert text("move") == "201"
    assert text("replayed") == "false", "Idempotent-Replayed is not exposed to the page"
    assert text("etag").startswith('"'), "ETag is not exposed to the page"
    assert text("streamed").split(",")[:2] == ["game_created", "chance_resolved"]
    game = Api(api_base).get(f"/games/{text('game')}").json()
    assert game["version"] > 1
    blocked = [entry for entry in browser.get_log("browser") if "CORS" in entry["message"]]
    assert not blocked, blocked


def test_a_preflight_allows_a_move_s_headers_and_names_no_credentials(api_base):
    response = Api(api_base).session.options(api_base + "/games/some-game/moves", headers={
        "Origin": "http://table.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, if-match, idempotency-key, content-type"})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    allowed = response.headers["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "if-match", "idempotency-key", "content-type"} <= set(map(str.strip, allowed.split(",")))
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_origins_can_be_narrowed(redis_server, redis_client):
    for base in serve({"REDIS_URL": redis_server.url, **FAST, "CORS_ORIGINS": "https://club.example"}):
        session = Api(base).session
        allowed = session.get(base + "/rules", headers={"Origin": "https://club.example"})
        other = session.get(base + "/rules", headers={"Origin": "https://elsewhere.example"})
        assert allowed.headers["Access-Control-Allow-Origin"] == "https://club.example"
        assert "Access-Control-Allow-Origin" not in other.headers
