"""The HTML replay page, opened in a real headless Chromium: stepping through versions shows what happened."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from domain.registry import get_rules
from tests.workers.records import play, record
from workers.exports import export_game, game_folder

webdriver = pytest.importorskip("selenium.webdriver", reason="the selenium package is not installed")
CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="no headless browser: install Debian's chromium and chromium-driver (apt-get install chromium "
           "chromium-driver)",
)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output"


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


class Page:
    def __init__(self, driver, path: Path) -> None:
        self.driver = driver
        driver.get(path.as_uri())

    def click(self, button: str) -> None:
        self.driver.find_element("id", button).click()

    def text(self, element_id: str) -> str:
        return self.driver.find_element("id", element_id).text

    def cards(self, seat: str) -> list[str]:
        found = self.driver.find_elements("css selector", f'.seat[data-seat="{seat}"] .card')
        return [card.get_attribute("data-card") or "face-down" for card in found]

    def slide_to(self, index: int) -> None:
        self.driver.execute_script(
            "var s = document.getElementById('slider'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('input'));", index)

    def screenshot(self, name: str) -> None:
        SCREENSHOTS.mkdir(exist_ok=True)
        self.driver.save_screenshot(str(SCREENSHOTS / name))


def html_export(store, redis_client, export_dir, reader=None) -> Path:
    saved = export_game(store, redis_client, "g1", "html", store.version("g1"), reader, export_dir)
    assert saved["content_type"] == "text/html; charset=utf-8"
    return game_folder(export_dir, "g1") / saved["file"]


def test_stepping_forward_and_back_through_a_high_card_game(store, redis_client, export_dir, browser):
    record(store, "g1", play(choice=3))
    last = store.version("g1")
    first_draw = store.read("g1", 2, 2)[0]["secret"]["outcome"][0]
    path = html_export(store, redis_client, export_dir)
    assert "://" not in path.read_text(), "the page must not load anything from the network"
    page = Page(browser, path)
    assert page.text("version") == f"Version 1 of {last}"
    assert "high-card begins: Ann (p1), Bo (p2)" in page.text("move")
    assert not browser.find_element("id", "prev").is_enabled()
    page.click("next")
    assert page.text("version") == f"Version 2 of {last}"
    assert page.text("move") == f"Chance: deal \u2192 {first_draw}"
    assert page.cards("p1") == [first_draw] and page.cards("p2") == []
    page.click("last")
    assert page.text("version") == f"Version {last} of {last}"
    assert "Final score" in browser.find_element("css selector", ".score").text
    assert not browser.find_element("id", "next").is_enabled()
    page.screenshot("replay-high-card-last.png")
    page.click("prev")
    assert page.text("version") == f"Version {last - 1} of {last}"
    assert page.text("move").startswith("The game ends; the seed north is revealed")
    assert browser.find_elements("css selector", ".score") == []
    page.slide_to(2)
    assert page.text("version") == f"Version 3 of {last}"
    assert len(page.cards("p2")) == 1
    page.click("first")
    assert page.text("version") == f"Version 1 of {last}"


def test_a_seat_sees_the_other_hand_face_down(store, redis_client, export_dir, browser):
    record(store, "g1", play(choice=3)[:1])
    hidden = store.read("g1", 3, 3)[0]["secret"]["outcome"][0]
    path = html_export(store, redis_client, export_dir, reader="p1")
    assert hidden not in path.read_text()
    page = Page(browser, path)
    page.click("last")
    assert page.cards("p2") == ["face-down"]
    assert "hidden from you" in page.text("move")


def test_a_borealis_game_is_drawn_as_boards_of_cards_and_tracks(store, redis_client, export_dir, browser):
    record(store, "g1", play(choice=7, rules=get_rules("borealis")))
    page = Page(browser, html_export(store, redis_client, export_dir))
    page.click("last")
    assert "Final score" in page.text("move")
    assert page.cards("p1") and page.cards("p2")
    assert browser.find_elements("css selector", ".seat svg.track")
    page.slide_to(40)
    assert page.text("version").startswith("Version 41 of")
    page.screenshot("replay-borealis-version-41.png")
