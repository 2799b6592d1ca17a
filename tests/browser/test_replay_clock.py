"""The replay file of a game with a clock: each version shows the seats' clocks as of that version, and the
timeout that ended the game is told in words (TABLE-CLOCK-2, TABLE-CLOCK-4)."""
from __future__ import annotations

from domain.core.match import create, submit_and_fold
from tests.browser.conftest import console_errors, screenshot
from tests.browser.test_replay_page import Page, html_export
from tests.core.high_card import RULES

T0 = "2026-12-07T01:00:00.000000Z"


def at(seconds: str) -> str:
    return f"2026-12-07T01:00:{seconds}Z"


def record_timed(store) -> None:
    """Ann keeps at once; Bo lets his ten seconds run out and Ann claims: stored at the times decided at."""
    match, opening = create(RULES, {}, ["Ann", "Bo"], "server", "replay-clock",
                            clock={"initial_seconds": 10, "increment_seconds": 2}, now=T0)
    store.create("g1", opening, seed="replay-clock", tokens={"p1": "t1", "p2": "t2", "organiser": "t0"},
                 players=["Ann", "Bo"], time=T0)
    version = match.version
    for number, (time, seat, move) in enumerate([(at("01.250000"), "p1", {"type": "keep"}),
                                                 (at("12.500000"), "p1", {"type": "claim_timeout", "flagged": "p2"})]):
        events, match = submit_and_fold(match, seat, move, "replay-clock", now=time)
        store.append("g1", version, events, command={**move, "seat": seat}, command_id=f"c{number}",
                     idempotency_key=None, time=time)
        version = match.version


def test_a_replay_shows_the_clocks_and_the_timeout(store, redis_client, export_dir, browser):
    record_timed(store)
    path = html_export(store, redis_client, export_dir)
    page = Page(browser, path)
    assert "clock 10 s + 2 s a turn" in browser.find_element("css selector", "header p").text
    # The cards are dealt first, in the same batch: no clock runs until the deal is done.
    assert page.text("clock") == "Clock at 01:00:00.000 UTC: Ann 0:10.0 \u00b7 Bo 0:10.0"
    page.click("next")
    page.click("next")
    assert page.text("clock") == "Clock at 01:00:00.000 UTC: Ann 0:10.0 \u25B6 \u00b7 Bo 0:10.0"
    page.click("last")
    page.click("prev")  # the claim; the last version is the end it brought
    assert page.text("move") == "Time: the clock of Bo (p2) has run out, claimed by Ann"
    assert page.text("clock") == "Clock at 01:00:12.500 UTC: Ann 0:10.7 \u00b7 Bo 0:00.0"
    screenshot(browser, "replay-clock-timeout.png")
    assert console_errors(browser) == []
