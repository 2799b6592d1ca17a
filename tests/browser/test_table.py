"""The live table page in real Chromium sessions: two seats play a Borealis game to the end, each by clicking
its board or its list of moves (grouped by move type, every legal move in it), each page following the other's
moves on the live stream; a move refused as stale is shown with its title and code and the page reads its
moves again; a Through Ice and Snow table of three or four seats fits a 1366x768 and a 1920x1080 screen."""
from __future__ import annotations

import json
import random

import pytest
from selenium.common.exceptions import StaleElementReferenceException

from tests.api.conftest import Api
from tests.browser.conftest import SCREENSHOTS, console_errors, open_browser, screenshot, wait

MOVE_LIMIT = 600


def version(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.version || 0"))


def settled(driver, before: int) -> bool:
    """The page has no move in flight, and either shows a newer version or still offers moves."""
    if driver.execute_script("return document.body.dataset.sending") == "true":
        return False
    return version(driver) > before or bool(driver.find_elements("css selector", "#moves button"))


def status(driver) -> str:
    return driver.execute_script("return document.body.dataset.status || ''")


def shown_moves(driver) -> list:
    """The move buttons the player sees now: a closed group of the list hides its own."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#moves button.move')].filter((button) => button.offsetParent)")


def click_first_move(driver) -> None:
    """Click the first move shown, looked up again when the page redraws its list between the look and the click."""
    def clicked(d) -> bool:
        try:
            shown_moves(d)[0].click()
        except (StaleElementReferenceException, IndexError):
            return False
        return True
    wait(driver, 10).until(clicked)


def listed_moves(driver) -> list[str]:
    """Every move of the list, open groups or closed, as canonical JSON."""
    moves = driver.execute_script(
        "return [...document.querySelectorAll('#moves button.move')].map((button) => button.dataset.move)")
    return sorted(json.dumps(json.loads(move), sort_keys=True) for move in moves)


def canonical(moves: list[dict]) -> list[str]:
    return sorted(json.dumps(move, sort_keys=True) for move in moves)


def play_one(driver, chooser: random.Random) -> bool:
    """One move from the page: a pickable thing on the board (then the list if several moves remain), or a
    move from the list, in a group opened first half the time. False when the page offers nothing."""
    if not driver.find_elements("css selector", "#moves button"):
        return False
    before = version(driver)
    pickable = driver.find_elements("css selector", "svg.board [data-pick].pickable")
    if pickable and chooser.random() < 0.5:
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                              chooser.choice(pickable))
        wait(driver, 10).until(lambda _: settled(driver, before))
        if version(driver) > before:
            return True
    closed = driver.find_elements("css selector", "#moves details:not([open]) > summary")
    if closed and chooser.random() < 0.5:
        chooser.choice(closed).click()
    chooser.choice(shown_moves(driver)).click()
    wait(driver, 10).until(lambda _: version(driver) > before
                                    or driver.find_element("id", "refusal").is_displayed())
    assert not driver.find_element("id", "refusal").is_displayed(), driver.find_element("id", "refusal").text
    return True


def test_two_seats_play_borealis_to_the_end_on_the_table_page(browser, second_browser, table_api):
    api = Api(table_api)
    created = api.create("borealis", 2, seed="table-game")
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    pages = {"p1": browser, "p2": second_browser}
    for seat, driver in pages.items():
        driver.get(f"{table_api}/games/{game}/table?token={tokens[seat]}")
    current = api.get(f"/games/{game}").json()["version"]
    for driver in pages.values():
        wait(driver, 20).until(lambda d: version(d) == current)
    assert "You are Player 1 (p1)" in browser.find_element("id", "seat-line").text
    screenshot(browser, "table-borealis-start-p1.png")
    chooser = random.Random(5)
    moves = 0
    shot_middle = False
    while api.get(f"/games/{game}").json()["status"] == "active":
        assert moves < MOVE_LIMIT, "the game did not end"
        current = api.get(f"/games/{game}").json()
        for driver in pages.values():  # both boards follow the stream to the current version
            wait(driver, 20).until(lambda d, v=current["version"]: version(d) == v)
        seat = current["waiting_for"][0]
        wait(pages[seat], 10).until(
            lambda d: d.find_elements("css selector", "#moves button"))
        legal = api.get(f"/games/{game}/legal-moves", tokens[seat]).json()["moves"]
        assert listed_moves(pages[seat]) == canonical(legal), "every legal move is in the list, and only those"
        assert play_one(pages[seat], chooser)
        moves += 1
        if moves == 40 and not shot_middle:
            screenshot(browser, "table-borealis-middle-p1.png")
            screenshot(second_browser, "table-borealis-middle-p2.png")
            shot_middle = True
    final = api.get(f"/games/{game}").json()
    for driver in pages.values():
        wait(driver, 30).until(lambda d: version(d) >= final["version"] and status(d) != "active")
    api_state = api.get(f"/games/{game}", tokens["p1"]).json()["state"]
    hand = [card.get_attribute("data-card")
            for card in browser.find_elements("css selector", '.seat[data-seat="p1"] [data-zone="hand"]')]
    assert hand == api_state["players"]["p1"]["hand"]
    screenshot(browser, "table-borealis-end-p1.png")
    for driver in pages.values():
        assert console_errors(driver) == []
    assert moves > 20


def test_a_spectator_sees_the_public_board_and_a_stale_move_is_refused(browser, table_api):
    api = Api(table_api)
    created = api.create("borealis", 2, seed="spectator-game")
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    browser.get(f"{table_api}/games/{game}/table")
    current = api.get(f"/games/{game}").json()
    wait(browser, 20).until(lambda d: version(d) == current["version"])
    assert browser.find_element("id", "seat-line").text == "Watching as the public"
    assert browser.find_elements("css selector", '[data-zone="hand"][data-card]') == []
    assert browser.find_elements("css selector", '[data-zone="hand"].back')
    assert not browser.find_element("id", "choices").is_displayed()
    seat = current["waiting_for"][0]
    browser.get(f"{table_api}/games/{game}/table?token={tokens[seat]}")
    wait(browser, 20).until(lambda d: d.find_elements("css selector", "#moves button"))
    browser.execute_script("window.stop()")  # the page stops following, so its board goes stale
    move = api.get(f"/games/{game}/legal-moves", tokens[seat]).json()["moves"][0]
    moved = api.post(f"/games/{game}/moves", tokens[seat], json=move,
                     headers={"If-Match": f'"{current["version"]}"'})
    assert moved.status_code == 201, moved.text
    after = api.get(f"/games/{game}").json()["version"]
    browser.find_elements("css selector", "#moves button")[0].click()
    wait(browser, 10).until(lambda d: d.find_element("id", "refusal").is_displayed())
    refusal = browser.find_element("id", "refusal").text
    assert "Refused" in refusal and browser.find_element("id", "refusal-detail").text
    assert api.get(f"/games/{game}").json()["version"] == after, "the refused move changed nothing"
    wait(browser, 20).until(lambda d: version(d) > current["version"])
    screenshot(browser, "table-borealis-refused.png")


def test_a_move_refused_as_stale_shows_its_title_and_code_and_the_page_reads_its_moves_again(browser, table_api):
    api = Api(table_api)
    created = api.create("borealis", 2, seed="refusal-game")
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    start = api.get(f"/games/{game}").json()
    assert sorted(start["waiting_for"]) == ["p1", "p2"], "both seats decide their mulligan at once"
    browser.get(f"{table_api}/games/{game}/table?token={tokens['p1']}")
    wait(browser, 20).until(lambda d: version(d) == start["version"] and shown_moves(d))
    browser.execute_script("window.stop()")  # the page stops following: p2's move will not reach it
    theirs = api.get(f"/games/{game}/legal-moves", tokens["p2"]).json()["moves"][0]
    moved = api.post(f"/games/{game}/moves", tokens["p2"], json=theirs, headers={"If-Match": f'"{start["version"]}"'})
    assert moved.status_code == 201, moved.text
    click_first_move(browser)
    wait(browser, 10).until(lambda d: d.find_element("id", "refusal").is_displayed())
    assert browser.find_element("id", "refusal-title").text == "Stale version"
    assert browser.find_element("id", "refusal-rule").text == "stale_version"
    detail = browser.find_element("id", "refusal-detail").text
    assert f"the game is at version {start['version'] + 1}" in detail, detail
    assert api.get(f"/games/{game}").json()["version"] == start["version"] + 1, "the refused move changed nothing"
    wait(browser, 20).until(lambda d: version(d) == start["version"] + 1 and shown_moves(d))
    for width, height in SCREENS:
        browser.set_window_size(width, height)
        browser.save_screenshot(str(shots() / f"table-borealis-refused-{width}.png"))
    browser.set_window_size(1100, 700)
    assert browser.find_element("id", "refusal").is_displayed(), "the refusal stays until the next move"
    mine = api.get(f"/games/{game}/legal-moves", tokens["p1"]).json()
    assert mine["version"] == start["version"] + 1 and listed_moves(browser) == canonical(mine["moves"])
    click_first_move(browser)
    wait(browser, 20).until(lambda d: api.get(f"/games/{game}").json()["version"] == start["version"] + 2)
    wait(browser, 20).until(lambda d: version(d) == start["version"] + 2)
    assert not browser.find_element("id", "refusal").is_displayed()
    assert [error for error in console_errors(browser) if "409" not in error["message"]] == []


SCREENS = ((1366, 768), (1920, 1080))
# The smallest text of a player board on screen, in CSS pixels: 9.5 is small print, still read without a lens.
LEGIBLE_PX = 9.5
MEASURE = """
const svg = document.querySelector('#board svg.board');
const sizes = [...svg.querySelectorAll('.player-board text')].map(
  (text) => parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a);
const root = document.documentElement;
return {scroll: [root.scrollWidth, root.scrollHeight], window: [innerWidth, innerHeight],
        smallest: Math.min(...sizes), boards: svg.querySelectorAll('.player-board').length};
"""


def shots():
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


def play_at_random(api: Api, game: str, tokens: dict[str, str], moves: int, chooser: random.Random) -> dict:
    """Up to ``moves`` random legal moves of whoever is to move; the game as the public then sees it."""
    for _ in range(moves):
        current = api.get(f"/games/{game}").json()
        if current["status"] != "active":
            break
        seat = current["waiting_for"][0]
        legal = api.get(f"/games/{game}/legal-moves", tokens[seat]).json()
        moved = api.post(f"/games/{game}/moves", tokens[seat], json=chooser.choice(legal["moves"]),
                         headers={"If-Match": f'"{legal["version"]}"'})
        assert moved.status_code == 201, moved.text
    return api.get(f"/games/{game}").json()


@pytest.mark.parametrize("seats", [3, 4])
def test_a_through_ice_and_snow_table_of_three_or_four_seats_fits_one_screen_legibly(table_api, seats):
    api = Api(table_api)
    options = {"legendary_expeditions": ["explorers", "ships", "explorer_events"]} if seats == 4 else {
        module: True for module in ("survival", "shelter_building", "dual_species", "inuit_myths", "walking_on_ice")}
    created = api.create("through-ice-and-snow", seats, seed=f"table-fit-{seats}", options=options)
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    current = play_at_random(api, game, tokens, 40, random.Random(seats))
    assert current["status"] == "active"
    seat = current["waiting_for"][0]
    for width, height in SCREENS:
        driver = open_browser(width, height)
        try:
            driver.get(f"{table_api}/games/{game}/table?token={tokens[seat]}")
            wait(driver, 20).until(lambda d: version(d) == current["version"] and shown_moves(d))
            measured = driver.execute_script(MEASURE)
            driver.save_screenshot(str(shots() / f"table-through-ice-and-snow-{seats}-seats-{width}.png"))
            assert measured["boards"] == seats
            assert measured["scroll"][1] <= measured["window"][1], f"the page scrolls at {width}x{height}: {measured}"
            assert measured["scroll"][0] <= measured["window"][0], f"the page scrolls at {width}x{height}: {measured}"
            assert measured["smallest"] >= LEGIBLE_PX, f"text too small at {width}x{height}: {measured}"
            assert console_errors(driver) == []
        finally:
            driver.quit()
