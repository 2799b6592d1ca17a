"""The table page's clocks in real Chromium (TABLE-CLOCK-2, TABLE-CLOCK-3): each seat's clock counts down, and
once a running clock shows zero the page offers "Claim timeout", which ends the game by the server's judgement."""
from __future__ import annotations

from selenium.common.exceptions import StaleElementReferenceException

from tests.api.conftest import Api
from tests.browser.conftest import console_errors, dataset, screenshot, wait


def clock_text(driver, seat: str) -> str:
    return driver.find_element("css selector", f'#clocks [data-clock-seat="{seat}"] .time').text


def test_a_seat_claims_a_timeout_from_the_table_page_once_the_clock_shows_zero(browser, second_browser, table_api):
    api = Api(table_api)
    created = api.create("borealis", 2, seed="table-clock", options={"first_player": "p1"},
                         clock={"initial_seconds": 2})
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    # Both seats choose their mulligan at once; p2 chooses, p1 lets its clock run out.
    version = api.get(f"/games/{game}").json()["version"]
    moved = api.post(f"/games/{game}/moves", tokens["p2"], json={"type": "mulligan", "discard_card_ids": []},
                     headers={"If-Match": f'"{version}"'})
    assert moved.status_code == 201, moved.text
    browser.get(f"{table_api}/games/{game}/table?token={tokens['p2']}")
    second_browser.get(f"{table_api}/games/{game}/table")
    for driver in (browser, second_browser):
        wait(driver, 20).until(lambda d: dataset(d, "version") == str(version + 1))
        assert clocks_shown(driver)
    screenshot(browser, "table-clock-running.png")
    # The running clock counts down to zero; only then is there a claim to make.
    wait(browser, 30).until(lambda d: claim_button(d, "p1"))
    assert clock_text(browser, "p1") == "0:00.0"
    assert clock_text(browser, "p2").startswith("0:0")  # p2's clock stopped when it chose
    assert claim_button(browser, "p2") is None
    assert claim_button(second_browser, "p1") is None, "the public watches and claims nothing"
    screenshot(browser, "table-clock-claim.png")
    wait(browser, 20).until(lambda d: clicked(claim_button(d, "p1")))
    wait(browser, 20).until(lambda d: dataset(d, "status") == "ended")
    assert api.get(f"/games/{game}").json()["ended_by"] == {"reason": "timeout", "seat": "p1"}
    wait(second_browser, 20).until(lambda d: dataset(d, "status") == "ended")
    assert claim_button(browser, "p1") is None
    wait(browser, 20).until(lambda d: "Time ran out for Player 1 (p1)" in d.find_element("id", "clocks").text)
    screenshot(browser, "table-clock-timeout.png")
    for driver in (browser, second_browser):
        assert console_errors(driver) == []


def test_a_game_without_a_clock_shows_none(browser, table_api):
    api = Api(table_api)
    created = api.create("high-card", 2)
    browser.get(f"{table_api}/games/{created['game_id']}/table?token={created['seats'][0]['token']}")
    wait(browser, 20).until(lambda d: dataset(d, "version") != "")
    assert not browser.find_element("id", "clocks").is_displayed()


def clocks_shown(driver) -> bool:
    return driver.find_element("id", "clocks").is_displayed() and len(
        driver.find_elements("css selector", "#clocks [data-clock-seat]")) == 2


def clicked(button) -> bool:
    """Click ``button`` as a user would; False when the page redrew it between lookup and click (the clocks
    redraw as they tick), so that a wait looks it up again."""
    try:
        button.click()
    except StaleElementReferenceException:
        return False
    return True


def claim_button(driver, seat: str):
    """The seat's visible "Claim timeout" button, looked up in one script so a redraw cannot stale it."""
    return driver.execute_script(
        "const button = document.querySelector(arguments[0]);"
        "return button && button.offsetParent !== null ? button : null;",
        f'#clocks [data-clock-seat="{seat}"] button.claim-timeout',
    )
