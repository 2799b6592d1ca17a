"""The front page: a person who opens the service's address finds its games, each linked to its table page."""
from __future__ import annotations

import re

from tests.api.test_next_moves import legal, post


def section(page: str, heading: str) -> str:
    start = page.index(f">{heading}</h2>")
    end = page.find("<h2", start)
    return page[start:end if end >= 0 else len(page)]


def play_out(api, game: dict) -> None:
    game_id, tokens = game["game_id"], {seat["seat"]: seat["token"] for seat in game["seats"]}
    view = api.get(f"/games/{game_id}").json()
    while view["status"] == "active":
        seat = view["waiting_for"][0]
        assert post(api, game_id, tokens[seat], legal(api, game_id, tokens[seat])[0], view["version"]).ok
        view = api.get(f"/games/{game_id}").json()


def test_the_front_page_lists_open_active_and_ended_games_with_their_table_and_replay(api):
    empty = api.get("/")
    assert empty.status_code == 200 and empty.headers["Content-Type"].startswith("text/html")
    assert "No games waiting for their first move" in empty.text and 'href=/docs' in empty.text
    fresh = api.create("high-card", 2)
    begun = api.create("high-card", 2)
    tokens = {seat["seat"]: seat["token"] for seat in begun["seats"]}
    assert post(api, begun["game_id"], tokens["p1"], {"type": "keep"}, begun["version"]).ok
    over = api.create("high-card", 2)
    play_out(api, over)
    page = api.get("/").text
    assert fresh["game_id"] in section(page, "Open") and begun["game_id"] not in section(page, "Open")
    assert begun["game_id"] in section(page, "Being played") and over["game_id"] not in section(page, "Being played")
    ended = section(page, "Over")
    assert over["game_id"] in ended and fresh["game_id"] not in ended
    assert f"href='/games/{fresh['game_id']}/table'" in section(page, "Open")
    assert f"/games/{fresh['game_id']}/export" not in page, "a game still being played has no replay yet"
    replay = re.search(rf"href='(/games/{over['game_id']}/export\?format=html)'", ended)
    assert replay, "an ended game links its replay"
    opened = api.get(replay.group(1), headers={"Accept": "text/html"})
    assert opened.status_code == 200 and opened.headers["Content-Type"].startswith("text/html")
    assert api.get(f"/games/{fresh['game_id']}/table").status_code == 200


def test_the_docs_page_links_the_front_page_and_names_the_table_page(api):
    docs = api.get("/docs").text
    assert "href=/>the front page</a>" in docs and "/games/{game_id}/table" in docs
