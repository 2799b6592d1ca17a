"""The front page in real Chromium: a person finds the games, opens one's table page and an ended one's replay."""
from __future__ import annotations

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from tests.api.conftest import FAST, Api, serve
from tests.api.test_front_page import play_out
from tests.api.test_next_moves import legal, post
from tests.browser.conftest import SCREENSHOTS, console_errors, screenshot


@pytest.fixture
def api_base(redis_server, redis_client, tmp_path):
    yield from serve({"REDIS_URL": redis_server.url, "DATA_DIR": str(tmp_path), **FAST})


def test_the_front_page_leads_to_each_games_table_and_an_ended_games_replay(browser, api_base):
    api = Api(api_base)
    waiting = api.create("borealis", 2, seed="front-page-1")
    begun = api.create("northwest-passage", 3, seed="front-page-2")
    seat = api.get(f"/games/{begun['game_id']}").json()["waiting_for"][0]
    token = next(entry["token"] for entry in begun["seats"] if entry["seat"] == seat)
    assert post(api, begun["game_id"], token, legal(api, begun["game_id"], token)[0], begun["version"]).ok
    over = api.create("high-card", 2)
    play_out(api, over)
    browser.get(f"{api_base}/")
    headings = [heading.text for heading in browser.find_elements("css selector", "h2")]
    assert headings == ["Open", "Being played", "Over"]
    sections = {heading.text: heading.find_element("xpath", "following-sibling::*[1]").text
                for heading in browser.find_elements("css selector", "h2")}
    assert "Borealis: Arctic Expeditions" in sections["Open"] and "Northwest Passage" in sections["Being played"]
    assert "Replay" in sections["Over"] and "Replay" not in sections["Open"] + sections["Being played"]
    screenshot(browser, "front-page.png")
    browser.find_element("css selector", f"a[href='/games/{waiting['game_id']}/table']").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements("css selector", "#board svg.board"))
    assert browser.current_url == f"{api_base}/games/{waiting['game_id']}/table"
    browser.back()
    browser.find_element("css selector", f"a[href='/games/{over['game_id']}/export?format=html']").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements("css selector", "svg.board"))
    assert console_errors(browser) == []
    browser.get(f"{api_base}/docs")
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "docs-page-top.png"))  # the top, where the front page is linked
    browser.find_element("link text", "the front page").click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url == f"{api_base}/")
