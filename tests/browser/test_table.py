"""The live table page in two real Chromium sessions: two seats play a Borealis game to the end, each by
clicking its board or its list of moves, each page following the other's moves on the live stream."""
from __future__ import annotations

import random

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from tests.api.conftest import FAST, Api, serve
from tests.browser.conftest import console_errors, screenshot

MOVE_LIMIT = 600


@pytest.fixture
def api_base(redis_server, redis_client, tmp_path):
    # Streams end after 2 s of quiet, so the pages must open them again to keep following.
    yield from serve({"REDIS_URL": redis_server.url, "DATA_DIR": str(tmp_path), **FAST, "STREAM_IDLE_SECONDS": 2.0})


def version(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.version || 0"))


def settled(driver, before: int) -> bool:
    """The page has no move in flight, and either shows a newer version or still offers moves."""
    if driver.execute_script("return document.body.dataset.sending") == "true":
        return False
    return version(driver) > before or bool(driver.find_elements("css selector", "#moves button"))


def status(driver) -> str:
    return driver.execute_script("return document.body.dataset.status || ''")


def play_one(driver, chooser: random.Random) -> bool:
    """One move from the page: a pickable thing on the board (then the list if several moves remain), or a
    move from the list. False when the page offers nothing."""
    buttons = driver.find_elements("css selector", "#moves button")
    if not buttons:
        return False
    before = version(driver)
    pickable = driver.find_elements("css selector", "svg.board [data-pick].pickable")
    if pickable and chooser.random() < 0.5:
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                              chooser.choice(pickable))
        WebDriverWait(driver, 10).until(lambda _: settled(driver, before))
        if version(driver) > before:
            return True
        buttons = driver.find_elements("css selector", "#moves button")
    chooser.choice(buttons).click()
    WebDriverWait(driver, 10).until(lambda _: version(driver) > before
                                    or driver.find_element("id", "refusal").is_displayed())
    assert not driver.find_element("id", "refusal").is_displayed(), driver.find_element("id", "refusal").text
    return True


def test_two_seats_play_borealis_to_the_end_on_the_table_page(browser, second_browser, api_base):
    api = Api(api_base)
    created = api.create("borealis", 2, seed="table-game")
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    pages = {"p1": browser, "p2": second_browser}
    for seat, driver in pages.items():
        driver.get(f"{api_base}/games/{game}/table?token={tokens[seat]}")
    current = api.get(f"/games/{game}").json()["version"]
    for driver in pages.values():
        WebDriverWait(driver, 20).until(lambda d: version(d) == current)
    assert "You are Player 1 (p1)" in browser.find_element("id", "seat-line").text
    screenshot(browser, "table-borealis-start-p1.png")
    chooser = random.Random(5)
    moves = 0
    shot_middle = False
    while api.get(f"/games/{game}").json()["status"] == "active":
        assert moves < MOVE_LIMIT, "the game did not end"
        current = api.get(f"/games/{game}").json()
        for driver in pages.values():  # both boards follow the stream to the current version
            WebDriverWait(driver, 20).until(lambda d, v=current["version"]: version(d) == v)
        seat = current["waiting_for"][0]
        WebDriverWait(pages[seat], 10).until(
            lambda d: d.find_elements("css selector", "#moves button"))
        assert play_one(pages[seat], chooser)
        moves += 1
        if moves == 40 and not shot_middle:
            screenshot(browser, "table-borealis-middle-p1.png")
            screenshot(second_browser, "table-borealis-middle-p2.png")
            shot_middle = True
    final = api.get(f"/games/{game}").json()
    for driver in pages.values():
        WebDriverWait(driver, 30).until(lambda d: version(d) >= final["version"] and status(d) != "active")
    api_state = api.get(f"/games/{game}", tokens["p1"]).json()["state"]
    hand = [card.get_attribute("data-card")
            for card in browser.find_elements("css selector", '.seat[data-seat="p1"] [data-zone="hand"]')]
    assert hand == api_state["players"]["p1"]["hand"]
    screenshot(browser, "table-borealis-end-p1.png")
    for driver in pages.values():
        assert console_errors(driver) == []
    assert moves > 20


def test_a_spectator_sees_the_public_board_and_a_stale_move_is_refused(browser, api_base):
    api = Api(api_base)
    created = api.create("borealis", 2, seed="spectator-game")
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    browser.get(f"{api_base}/games/{game}/table")
    current = api.get(f"/games/{game}").json()
    WebDriverWait(browser, 20).until(lambda d: version(d) == current["version"])
    assert browser.find_element("id", "seat-line").text == "Watching as the public"
    assert browser.find_elements("css selector", '[data-zone="hand"][data-card]') == []
    assert browser.find_elements("css selector", '[data-zone="hand"].back')
    assert not browser.find_element("id", "choices").is_displayed()
    seat = current["waiting_for"][0]
    browser.get(f"{api_base}/games/{game}/table?token={tokens[seat]}")
    WebDriverWait(browser, 20).until(lambda d: d.find_elements("css selector", "#moves button"))
    browser.execute_script("window.stop()")  # the page stops following, so its board goes stale
    move = api.get(f"/games/{game}/legal-moves", tokens[seat]).json()["moves"][0]
    moved = api.post(f"/games/{game}/moves", tokens[seat], json=move,
                     headers={"If-Match": f'"{current["version"]}"'})
    assert moved.status_code == 201, moved.text
    after = api.get(f"/games/{game}").json()["version"]
    browser.find_elements("css selector", "#moves button")[0].click()
    WebDriverWait(browser, 10).until(lambda d: d.find_element("id", "refusal").is_displayed())
    refusal = browser.find_element("id", "refusal").text
    assert "Refused" in refusal and browser.find_element("id", "refusal-detail").text
    assert api.get(f"/games/{game}").json()["version"] == after, "the refused move changed nothing"
    WebDriverWait(browser, 20).until(lambda d: version(d) > current["version"])
    screenshot(browser, "table-borealis-refused.png")
