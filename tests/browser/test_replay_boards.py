"""The replay file of a complete game of each game, opened in a real Chromium and stepped from start to end:
the board is the game's own drawing, holds what the state says, and the page logs no error."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.keys import Keys

from domain.core.events import ORGANISER
from domain.core.match import apply_event, start, view
from domain.registry import get_rules
from service.boards.pages import has_renderer
from tests.browser.conftest import SCREENSHOTS, console_errors, screenshot, wait
from tests.workers.records import play, record, sealed
from workers.exports import export_game, game_folder

GAMES = ("borealis", "northwest-passage", "ice-expedition", "through-ice-and-snow")
MEGABYTE = 1024 * 1024
SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def views_of(batches: list, reader: str | None) -> list[dict]:
    """The reader's view after each version, as the page should draw it."""
    found, match = [], None
    envelopes = sealed(batches)
    rules = get_rules(envelopes[0]["data"]["game"])
    for envelope in envelopes:
        if match is None:
            match = start(rules, envelope)
        else:
            apply_event(match, envelope)
        found.append(json.loads(json.dumps(view(match, reader))))
    return found


def export(store, redis_client, export_dir, reader: str | None) -> Path:
    saved = export_game(store, redis_client, "g1", "html", store.version("g1"), reader, export_dir)
    return game_folder(export_dir, "g1") / saved["file"]


class Replay:
    def __init__(self, driver, path: Path) -> None:
        self.driver = driver
        driver.get(path.as_uri())
        wait(driver, 20).until(lambda _: self.text("version").startswith("Version"))

    def text(self, element_id: str) -> str:
        return self.driver.find_element("id", element_id).text

    def key(self, key: str) -> None:
        self.driver.find_element("tag name", "body").send_keys(key)

    def slide_to(self, index: int) -> None:
        self.driver.execute_script(
            "var s = document.getElementById('slider'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
            index)

    def every_frame(self) -> list[str]:
        """Steps through every version in the page; what went wrong at any of them."""
        return self.driver.execute_script("""
            var s = document.getElementById('slider'), wrong = [];
            for (var i = 0; i <= Number(s.max); i++) {
              s.value = i; s.dispatchEvent(new Event('input'));
              var boards = document.querySelectorAll('svg.board').length;
              var error = document.getElementById('error').textContent;
              if (boards !== 1 || error) { wrong.push(i + ': ' + boards + ' boards ' + error); }
            }
            return wrong;""")

    def ids(self, selector: str, attribute: str) -> list[str]:
        return [found.get_attribute(attribute) for found in self.driver.find_elements("css selector", selector)]


def check_borealis(page: Replay, shown: dict) -> None:
    state = shown["state"]
    for seat, player in state["players"].items():
        on_board = f'.seat[data-seat="{seat}"]'
        for location, stack in player["stacks"].items():
            assert page.ids(f'{on_board} .location[data-location="{location}"] [data-card]', "data-card") == stack
        hand = page.ids(f'{on_board} [data-zone="hand"]', "data-card")
        assert hand == (player["hand"] if player["hand"] is not None else [None] * player["hand_count"])
        flags = page.ids(f'{on_board} .flag-track', "data-flag")
        assert flags == [str(player["flags"][location]) for location in ("LEFT", "MIDDLE", "RIGHT")]
    pool = [card for card in state["pool"] if card]
    assert page.ids('[data-zone="pool"][data-card]', "data-card") == pool
    assert page.driver.find_element("css selector", '[data-count="deck"]').text == f"deck: {state['deck_count']}"
    assert page.ids("[data-goal]", "data-goal") == [goal["goal_id"] for goal in state["goals"]]


def check_northwest_passage(page: Replay, shown: dict) -> None:
    state = shown["state"]
    assert sorted(page.ids(".tile[data-tile]", "data-tile")) == sorted(state["tiles"])
    assert page.ids('[data-zone="display"]', "data-tile") == state["display"]
    for seat, player in state["players"].items():
        assert page.ids(f'.seat[data-seat="{seat}"] [data-zone="hand"]', "data-tile") == player["hand"]
        for kind in ("ship", "sled"):
            if not player[kind]["lost"]:
                assert page.ids(f'[data-piece="{seat}:{kind}"]', "data-at") == [player[kind]["at"]]
    on_map = [token_id for token_id, token in state["tokens"].items() if not token["owner"]]
    assert sorted(page.ids(".map-token", "data-token")) == sorted(on_map)
    assert page.ids(".frozen", "data-sun") == [state["sun_position"]]


CHECKS = {"borealis": check_borealis, "northwest-passage": check_northwest_passage}


@pytest.mark.parametrize("game", GAMES)
def test_a_complete_game_is_replayed_on_its_board_from_start_to_end(game, store, redis_client, export_dir, browser):
    if not has_renderer(game):
        pytest.skip(f"{game} has no board renderer in this tree yet")
    batches = play(choice=7, rules=get_rules(game))
    record(store, "g1", batches)
    path = export(store, redis_client, export_dir, None)
    html = path.read_text()
    assert set(re.findall(r"[a-z]+://[^\s\"'<>]*", html)) <= {SVG_NAMESPACE}, "the file must load nothing"
    views = views_of(batches, ORGANISER)
    last = len(views)
    page = Replay(browser, path)
    assert page.text("version") == f"Version 1 of {last}"
    assert f"{game} begins" in page.text("move")
    assert browser.find_element("css selector", "svg.board").get_attribute("data-game") == game
    screenshot(browser, f"replay-{game}-start.png")
    page.key(Keys.ARROW_RIGHT)
    page.key(Keys.ARROW_RIGHT)
    assert page.text("version") == f"Version 3 of {last}"
    page.key(Keys.ARROW_LEFT)
    assert page.text("version") == f"Version 2 of {last}"
    page.key(Keys.END)
    assert page.text("version") == f"Version {last} of {last}"
    assert "Final score" in page.text("move")
    assert browser.find_elements("css selector", ".score tr[data-rule]"), "the score sheet names its rules"
    assert page.every_frame() == []
    middle = last // 2
    page.slide_to(middle - 1)
    assert page.text("version") == f"Version {middle} of {last}"
    CHECKS.get(game, lambda *_: None)(page, views[middle - 1])
    screenshot(browser, f"replay-{game}-middle.png")
    page.key(Keys.END)
    CHECKS.get(game, lambda *_: None)(page, views[-1])
    screenshot(browser, f"replay-{game}-end.png")
    page.key(Keys.HOME)
    assert page.text("version") == f"Version 1 of {last}"
    assert console_errors(browser) == []


def test_a_seat_sees_its_own_hand_and_the_others_as_backs(store, redis_client, export_dir, browser):
    batches = play(choice=3, rules=get_rules("borealis"))[:60]
    record(store, "g1", batches)
    page = Replay(browser, export(store, redis_client, export_dir, "p1"))
    page.key(Keys.END)
    shown = views_of(batches, "p1")[-1]["state"]["players"]
    assert page.ids('.seat[data-seat="p1"] [data-zone="hand"]', "data-card") == shown["p1"]["hand"]
    backs = browser.find_elements("css selector", '.seat[data-seat="p2"] .back[data-zone="hand"]')
    assert len(backs) == shown["p2"]["hand_count"] > 0
    assert page.ids('.seat[data-seat="p2"] [data-zone="hand"][data-card]', "data-card") == []
    assert console_errors(browser) == []


def test_a_game_of_more_than_500_versions_replays_from_a_file_under_1_mb(store, redis_client, export_dir, browser):
    batches = play(players=("Ann", "Bo", "Cy", "Di"), choice=7, rules=get_rules("borealis"))
    record(store, "g1", batches)
    versions = store.version("g1")
    assert versions > 500
    path = export(store, redis_client, export_dir, None)
    size = path.stat().st_size
    SCREENSHOTS.mkdir(exist_ok=True)
    with (SCREENSHOTS / "replay-sizes.txt").open("a") as sizes:
        sizes.write(f"borealis, 4 players: {versions} versions, {size} bytes\n")
    assert size < MEGABYTE
    page = Replay(browser, path)
    page.key(Keys.END)
    assert page.text("version") == f"Version {versions} of {versions}"
    check_borealis(page, views_of(batches, ORGANISER)[-1])


def test_the_replay_names_cards_in_its_move_lines_as_the_board_does(store, redis_client, export_dir, browser):
    batches = play(choice=7, rules=get_rules("borealis"))
    record(store, "g1", batches)
    page = Replay(browser, export(store, redis_client, export_dir, None))
    cards = browser.execute_script("return JSON.parse(document.getElementById('context').textContent).components.cards")
    lines = []
    for index in range(12):
        page.slide_to(index)
        lines.append(page.text("move"))
    dealt = next(line for line in lines if line.startswith("Chance: hand"))
    assert not re.search(r"animal-\d+", dealt), dealt
    species = {words for words, *_rest in cards.values()}
    assert any(name.replace("_", " ").capitalize() in dealt for name in species), dealt
    screenshot(browser, "replay-borealis-named-moves.png")
