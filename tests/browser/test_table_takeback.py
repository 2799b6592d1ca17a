"""The table page's takeback controls in real Chromium (TABLE-TAKEBACK-1..3): the seat that moved is offered
"Ask to take back", the other seat's page shows the request with "Accept" and "Decline", and an accepted
takeback puts both boards back; in a game whose organiser answers, the organiser's page declines."""
from __future__ import annotations

from tests.api.conftest import Api
from tests.browser.conftest import console_errors, dataset, screenshot, wait


def shown(driver, element: str) -> bool:
    return driver.find_element("id", element).is_displayed()


def test_a_seat_asks_to_take_back_and_the_other_accepts_from_the_table_page(browser, second_browser, table_api):
    api = Api(table_api)
    created = api.create("borealis", 2, seed="table-takeback", options={"first_player": "p1"})
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    start = api.get(f"/games/{game}").json()["version"]
    browser.get(f"{table_api}/games/{game}/table?token={tokens['p1']}")
    second_browser.get(f"{table_api}/games/{game}/table?token={tokens['p2']}")
    for driver in (browser, second_browser):
        wait(driver, 20).until(lambda d: dataset(d, "version") == str(start) and d.find_elements(
            "css selector", "#moves button.move"))
        assert not shown(driver, "takeback"), "nothing to take back before a move"
    browser.find_elements("css selector", "#moves button.move")[0].click()
    wait(browser, 20).until(lambda d: dataset(d, "version") == str(start + 1) and shown(d, "ask-takeback"))
    wait(second_browser, 20).until(lambda d: dataset(d, "version") == str(start + 1))
    assert not shown(second_browser, "takeback"), "p2 has not moved: it has nothing to take back"
    screenshot(browser, "table-takeback-ask.png")
    browser.find_element("id", "ask-takeback").click()
    wait(second_browser, 20).until(lambda d: dataset(d, "takeback") == "open" and shown(d, "accept-takeback"))
    line = second_browser.find_element("id", "takeback-line").text
    assert line == f"Player 1 (p1) asks to take back version {start + 1}; waiting for Player 2 (p2)"
    wait(browser, 20).until(lambda d: dataset(d, "takeback") == "open")
    assert not shown(browser, "accept-takeback") and not shown(browser, "ask-takeback"), "p1 does not answer"
    assert shown(second_browser, "decline-takeback")
    screenshot(second_browser, "table-takeback-answer.png")
    second_browser.find_element("id", "accept-takeback").click()
    for driver in (browser, second_browser):
        wait(driver, 20).until(lambda d: dataset(d, "version") == str(start + 4) and dataset(d, "takeback") == "none")
        assert not shown(driver, "takeback")
    view = api.get(f"/games/{game}").json()
    assert view["taken_back"] == [[start + 1, start + 1]] and view["waiting_for"] == ["p1", "p2"]
    wait(browser, 20).until(lambda d: d.find_elements("css selector", "#moves button.move"))
    screenshot(browser, "table-takeback-granted.png")
    for driver in (browser, second_browser):
        assert console_errors(driver) == []


def test_the_organisers_page_declines_a_takeback(browser, table_api):
    api = Api(table_api)
    created = api.create("high-card", 2, seed="table-takeback-organiser", takebacks="organiser")
    game = created["game_id"]
    keep = api.post(f"/games/{game}/moves", created["seats"][0]["token"], json={"type": "keep"},
                    headers={"If-Match": f'"{created["version"]}"'})
    asked = api.post(f"/games/{game}/moves", created["seats"][0]["token"], json={"type": "request_takeback"},
                     headers={"If-Match": f'"{keep.json()["version"]}"'})
    assert asked.status_code == 201, asked.text
    browser.get(f"{table_api}/games/{game}/table?token={created['organiser_token']}")
    wait(browser, 20).until(lambda d: shown(d, "decline-takeback"))
    assert browser.find_element("id", "takeback-line").text.endswith("waiting for the organiser")
    browser.find_element("id", "decline-takeback").click()
    wait(browser, 20).until(lambda d: dataset(d, "takeback") == "none" and not shown(d, "takeback"))
    events = api.get(f"/games/{game}/events").json()["events"]
    assert events[-1]["type"] == "takeback_declined" and events[-1]["seat"] == "organiser"
    assert console_errors(browser) == []
