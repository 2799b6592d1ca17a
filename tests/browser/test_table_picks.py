"""Choices the table page once showed only as ids are on the board: Through Ice and Snow's destinations on
its map and I C E Expedition's drawn request cards, outlined, clickable and named in the list as the board
names them."""
from __future__ import annotations

import random

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from tests.api.conftest import FAST, Api, serve
from tests.browser.conftest import console_errors, screenshot
from tests.browser.test_table import version

MOVE_LIMIT = 3000


@pytest.fixture
def api_base(redis_server, redis_client, tmp_path):
    yield from serve({"REDIS_URL": redis_server.url, "DATA_DIR": str(tmp_path), **FAST})


def play_until(api: Api, created: dict, wanted: str) -> tuple[str, list[dict]]:
    """Random legal moves until a seat may make a move of type ``wanted``: that seat and its moves of it."""
    game = created["game_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    chooser = random.Random(11)
    for _ in range(MOVE_LIMIT):
        current = api.get(f"/games/{game}").json()
        assert current["status"] == "active", f"the game ended before a {wanted} move"
        for seat in current["waiting_for"]:
            listed = api.get(f"/games/{game}/legal-moves", tokens[seat]).json()["moves"]
            offered = [move for move in listed if move["type"] == wanted]
            if offered:
                return seat, offered
        seat = current["waiting_for"][0]
        move = chooser.choice(api.get(f"/games/{game}/legal-moves", tokens[seat]).json()["moves"])
        moved = api.post(f"/games/{game}/moves", tokens[seat], json=move,
                         headers={"If-Match": f'"{current["version"]}"'})
        assert moved.status_code == 201, moved.text
    raise AssertionError(f"no {wanted} move in {MOVE_LIMIT} moves")


def pick_on_the_board(browser, api: Api, created: dict, seat: str, offered: list[dict], field: str,
                      pick: str, shot: str) -> None:
    """The seat's page outlines one pick per offered move, names each in the list, and a click sends it."""
    game = created["game_id"]
    token = next(entry["token"] for entry in created["seats"] if entry["seat"] == seat)
    current = api.get(f"/games/{game}").json()["version"]
    browser.get(f"{api.base}/games/{game}/table?token={token}")
    WebDriverWait(browser, 20).until(
        lambda d: version(d) == current and d.find_elements("css selector", "#moves button"))
    outlined = {element.get_attribute("data-pick")
                for element in browser.find_elements("css selector", "svg.board [data-pick].pickable")}
    wanted = {pick.format(value=move[field]) for move in offered}
    assert wanted <= outlined, f"{sorted(wanted - outlined)} are not on the board"
    labels = browser.execute_script(
        "return [...document.querySelectorAll('#moves button.move')].map((button) => button.textContent)")
    for move in offered:
        assert not any(label == move[field] for label in labels), f"{move[field]} is shown as a bare id"
    screenshot(browser, shot)
    chosen = offered[-1]
    target = browser.find_element("css selector", f'svg.board [data-pick="{pick.format(value=chosen[field])}"]')
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
    WebDriverWait(browser, 20).until(lambda d: version(d) > current)
    sent = api.get(f"/games/{game}/events?from={current + 1}", token).json()["events"][0]["command"]
    assert {key: value for key, value in sent.items() if key != "seat"} == chosen
    assert console_errors(browser) == []


def test_a_through_ice_and_snow_destination_is_chosen_on_the_map(browser, api_base):
    api = Api(api_base)
    created = api.create("through-ice-and-snow", 2, seed="destination-game")
    seat, offered = play_until(api, created, "choose_destination")
    pick_on_the_board(browser, api, created, seat, offered, "anchor", "anchor={value}", "table-tis-destination.png")


def test_an_ice_expedition_request_card_is_kept_from_the_board(browser, api_base):
    api = Api(api_base)
    created = api.create("ice-expedition", 2, seed="request-game")
    seat, offered = play_until(api, created, "keep_request")
    pick_on_the_board(browser, api, created, seat, offered, "card", "{value}", "table-ice-request.png")
