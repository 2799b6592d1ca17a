"""The table page follows the stream's views and waits out a full read bucket without a banner: a bot that
plays with the same token as the page shares its read bucket, and the page must still keep up."""
from __future__ import annotations

import json

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from tests.api.conftest import FAST, Api, serve
from tests.browser.conftest import screenshot
from tests.browser.test_table import canonical, version


def shown_moves(driver) -> list[str]:
    """The moves the list offers, read in one script so a redraw cannot come between two elements."""
    return canonical([json.loads(move) for move in driver.execute_script(
        "return [...document.querySelectorAll('#moves button.move')].map((button) => button.dataset.move)")])


def read_when_allowed(api: Api, path: str, token: str) -> dict:
    """A read on a token whose bucket is empty, asked again until the bucket lets it through."""
    while (answer := api.get(path, token)).status_code == 429:
        pass
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.fixture
def api_base(redis_server, redis_client, tmp_path):
    # A read bucket of 3 that refills at one request a second, per token.
    yield from serve({"REDIS_URL": redis_server.url, "DATA_DIR": str(tmp_path), **FAST,
                      "READ_RATE_LIMIT": 1, "READ_RATE_BURST": 3, "STREAM_IDLE_SECONDS": 5.0})


def test_a_page_whose_read_bucket_a_bot_emptied_catches_up_quietly(browser, api_base):
    api = Api(api_base)
    created = api.create("borealis", 2, seed="bucket-game")
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    browser.get(f"{api_base}/games/{game}/table?token={tokens['p1']}")
    WebDriverWait(browser, 20).until(lambda d: version(d) == created["version"] and shown_moves(d))
    while api.get(f"/games/{game}", tokens["p1"]).status_code != 429:  # the bot on p1's token reads on
        pass
    mulligan = {"type": "mulligan", "discard_card_ids": []}
    moved = api.post(f"/games/{game}/moves", tokens["p2"], json=mulligan,
                     headers={"If-Match": f'"{created["version"]}"'})
    assert moved.status_code == 201, moved.text
    after = moved.json()["version"]
    WebDriverWait(browser, 30).until(lambda d: version(d) == after)
    legal = read_when_allowed(api, f"/games/{game}/legal-moves", tokens["p1"])
    assert legal["version"] == after
    WebDriverWait(browser, 30).until(lambda d: shown_moves(d) == canonical(legal["moves"]))
    assert browser.find_element("id", "error").text == "", "a full read bucket is waited out, not shown"
    screenshot(browser, "table-borealis-after-429.png")
