"""The replay file's own workings, on the engine's test game (drawn by the generic board): the buttons and
the slider step through versions, the move is told in words, and a seat's file holds no other seat's secret."""
from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

from tests.browser.conftest import console_errors, screenshot
from tests.workers.records import play, record
from workers.exports import export_game, game_folder


def html_export(store, redis_client, export_dir, reader=None) -> Path:
    saved = export_game(store, redis_client, "g1", "html", store.version("g1"), reader, export_dir)
    assert saved["content_type"] == "text/html; charset=utf-8"
    return game_folder(export_dir, "g1") / saved["file"]


def frames_of(path: Path) -> str:
    """The packed frames of a replay file, unpacked as the page does."""
    packed = re.search(r'<script type="text/plain" id="frames"[^>]*>([^<]*)</script>', path.read_text()).group(1)
    return gzip.decompress(base64.b64decode(packed)).decode("utf-8")


class Page:
    def __init__(self, driver, path: Path) -> None:
        self.driver = driver
        driver.get(path.as_uri())

    def click(self, button: str) -> None:
        self.driver.find_element("id", button).click()

    def text(self, element_id: str) -> str:
        return self.driver.find_element("id", element_id).text

    def field(self, field: str, seat: str) -> str:
        return self.driver.find_element("css selector", f'[data-field="{field}"][data-seat="{seat}"]').text

    def slide_to(self, index: int) -> None:
        self.driver.execute_script(
            "var s = document.getElementById('slider'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('input'));", index)


def test_stepping_forward_and_back_through_a_high_card_game(store, redis_client, export_dir, browser):
    record(store, "g1", play(choice=3))
    last = store.version("g1")
    first_draw = store.read("g1", 2, 2)[0]["secret"]["outcome"][0]
    path = html_export(store, redis_client, export_dir)
    page = Page(browser, path)
    assert page.text("version") == f"Version 1 of {last}"
    assert "high-card begins: Ann (p1), Bo (p2)" in page.text("move")
    assert not browser.find_element("id", "prev").is_enabled()
    page.click("next")
    assert page.text("version") == f"Version 2 of {last}"
    assert page.text("move") == f"Chance: deal \u2192 {first_draw}"
    assert first_draw in page.field("hands", "p1")
    page.click("last")
    assert page.text("version") == f"Version {last} of {last}"
    assert "Final score" in browser.find_element("css selector", ".score").text
    assert not browser.find_element("id", "next").is_enabled()
    screenshot(browser, "replay-high-card-last.png")
    page.click("prev")
    assert page.text("version") == f"Version {last - 1} of {last}"
    assert page.text("move").startswith("The game ends; the seed north is revealed")
    assert browser.find_elements("css selector", ".score") == []
    page.slide_to(2)
    assert page.text("version") == f"Version 3 of {last}"
    page.click("first")
    assert page.text("version") == f"Version 1 of {last}"
    assert console_errors(browser) == []


def test_a_seat_s_file_holds_no_other_seat_s_card(store, redis_client, export_dir, browser):
    record(store, "g1", play(choice=3)[:1])
    hidden = store.read("g1", 3, 3)[0]["secret"]["outcome"][0]
    path = html_export(store, redis_client, export_dir, reader="p1")
    frames = frames_of(path)
    assert json.loads(frames)[0]["version"] == 1
    assert hidden not in frames
    page = Page(browser, path)
    page.click("last")
    assert hidden not in page.field("hands", "p2")
    assert "hidden from you" in page.text("move")


def test_a_version_taken_back_is_struck_through_in_the_replay(store, redis_client, export_dir, browser):
    """TABLE-TAKEBACK-3: the move played and taken back stays in the replay, struck through."""
    record(store, "g1", play(players=("Ann", "Bo", "Cy"), takeback_after=1))
    taken = next(envelope for envelope in store.read("g1", 1) if envelope["type"] == "moves_taken_back")
    undone = taken["data"]["to_version"] + 1
    page = Page(browser, html_export(store, redis_client, export_dir))
    page.slide_to(undone - 1)
    move = browser.find_element("id", "move")
    assert "taken-back" in move.get_attribute("class") and move.text.endswith("(taken back)")
    assert move.value_of_css_property("text-decoration-line") == "line-through"
    screenshot(browser, "replay-taken-back.png")
    page.slide_to(taken["version"] - 1)
    move = browser.find_element("id", "move")
    assert "taken-back" not in move.get_attribute("class") and move.text.startswith(f"Version {undone} taken back")
    assert console_errors(browser) == []
