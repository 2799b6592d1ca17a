"""The table page's open seats in real Chromium: a visitor joins a seat with the page's button and plays it
with the token the join gave, while the other seat's page follows the join; a join beaten by another shows
the refusal; a seat resigns with two clicks."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from tests.api.conftest import Api
from tests.browser.conftest import console_errors, dataset, screenshot, wait


def test_a_visitor_joins_an_open_seat_from_the_table_page_and_plays_it(browser, second_browser, table_api):
    api = Api(table_api)
    created = api.post("/games", json={"game": "borealis", "players": ["Ann", "open seat"], "open_seats": ["p2"],
                                       "seed": "table-join"}).json()
    game = created["game_id"]
    browser.get(f"{table_api}/games/{game}/table?token={created['seats'][0]['token']}")
    second_browser.get(f"{table_api}/games/{game}/table")
    start = api.get(f"/games/{game}").json()["version"]
    for driver in (browser, second_browser):
        wait(driver, 20).until(lambda d: dataset(d, "version") == str(start))
    assert not browser.find_element("id", "open-seats").is_displayed(), "a seat's page offers no join"
    assert browser.find_elements("css selector", "#moves button") == [], "p1 waits for the table to fill"
    panel = second_browser.find_element("id", "open-seats")
    assert panel.is_displayed()
    buttons = second_browser.find_elements("css selector", "#open-seat-list button.join-seat")
    assert [button.text for button in buttons] == ["Join as p2"]
    second_browser.find_element("css selector", '#open-seat-list li[data-seat="p2"] input').send_keys("Bo")
    screenshot(second_browser, "table-open-seat.png")
    buttons[0].click()
    wait(second_browser, 20).until(
        lambda d: d.find_element("id", "seat-line").text == "You are Bo (p2)")
    token = parse_qs(urlparse(second_browser.current_url).query)["token"][0]
    assert api.get(f"/games/{game}", token).json()["reader"] == "p2"
    assert not second_browser.find_element("id", "open-seats").is_displayed()
    view = api.get(f"/games/{game}").json()
    assert view["open_seats"] == [] and view["seats"][1]["name"] == "Bo"
    for driver in (browser, second_browser):  # both seats of Borealis choose their mulligan at once
        wait(driver, 20).until(lambda d: d.find_elements("css selector", "#moves button.move"))
    screenshot(second_browser, "table-joined-seat.png")
    before = int(dataset(second_browser, "version"))
    second_browser.find_elements("css selector", "#moves button.move")[0].click()
    wait(second_browser, 20).until(lambda d: int(dataset(d, "version")) > before)
    events = api.get(f"/games/{game}/events").json()["events"]
    assert [event["type"] for event in events].count("seat_joined") == 1
    assert events[-1]["seat"] == "p2"
    taken = api.post(f"/games/{game}/seats/p2/join")
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    for driver in (browser, second_browser):
        assert console_errors(driver) == []


def test_a_join_beaten_by_another_shows_the_refusal(browser, table_api):
    api = Api(table_api)
    created = api.post("/games", json={"game": "high-card", "players": ["Ann", "Bo"], "open_seats": ["p2"]}).json()
    game = created["game_id"]
    browser.get(f"{table_api}/games/{game}/table")
    wait(browser, 20).until(lambda d: d.find_elements("css selector", "#open-seat-list button.join-seat"))
    browser.execute_script("window.stop()")  # the page stops following: it does not see the other join
    assert api.post(f"/games/{game}/seats/p2/join").status_code == 201
    browser.find_element("css selector", "#open-seat-list button.join-seat").click()
    wait(browser, 20).until(lambda d: "seat_taken" in d.find_element("id", "join-refusal").text)
    assert browser.find_element("id", "seat-line").text == "Watching as the public"


def test_a_seat_resigns_from_the_table_page_with_a_second_click(browser, table_api):
    api = Api(table_api)
    created = api.create("high-card", 2)
    game = created["game_id"]
    browser.get(f"{table_api}/games/{game}/table?token={created['seats'][1]['token']}")
    resign = wait(browser, 20).until(lambda d: d.find_element("id", "resign") if d.find_element(
        "id", "resign").is_displayed() else None)
    resign.click()
    assert browser.find_element("id", "resign").text == "Click again to resign"
    assert api.get(f"/games/{game}").json()["status"] == "active"
    browser.find_element("id", "resign").click()
    wait(browser, 20).until(lambda d: dataset(d, "status") == "ended")
    assert api.get(f"/games/{game}").json()["ended_by"] == {"reason": "resigned", "seat": "p2"}
    assert not browser.find_element("id", "resign").is_displayed()
