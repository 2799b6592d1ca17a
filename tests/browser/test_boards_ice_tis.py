"""The I C E Expedition and Through Ice and Snow boards, drawn in a real Chromium from views of whole games.

Each game is a golden playthrough replayed through the engines; its views at the start, the middle and the end
are drawn by the game's renderer in a small page, and the DOM is checked against the view: the tiles, pieces,
tracks and cards the state holds are on the board, and another reader's hidden things are backs.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from domain.core.match import create, submit_and_fold, view
from domain.registry import get_rules
from service.boards import components as boards
from tests.browser.conftest import SCREENSHOTS
from tests.playthroughs.cases import CASES
from tests.playthroughs.record import FOLDER, recorded_moves

MOMENTS = ("start", "middle", "end")
PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>board</title>
<style>body {{ margin: 0; font-family: sans-serif; }} svg.board {{ display: block; }}</style></head>
<body><div id="board"></div><script>{scripts}</script><script>
const view = {view};
document.getElementById("board").innerHTML = CairnBoards.render(view, {{reader: {reader}, components: {components}}});
</script></body></html>"""


@cache
def played(game: str, name: str) -> tuple:
    """The views of a golden playthrough, for every seat and the public, at its start, middle and end."""
    case = next(case for case in CASES if case.game == game and case.name == name)
    match, _ = create(get_rules(game), case.options, [f"Player {n}" for n in range(1, case.players + 1)],
                      case.chance_mode, case.seed)
    moves = recorded_moves((FOLDER / case.path).read_text(encoding="utf-8"))
    snapshots = {}
    for index, (actor, command) in enumerate(moves):
        if index == 0:
            snapshots["start"] = views(match)
        if index == len(moves) // 2:
            snapshots["middle"] = views(match)
        submit_and_fold(match, actor, command, case.seed, in_place=True)
    snapshots["end"] = views(match)
    return tuple(snapshots[moment] for moment in MOMENTS)


def views(match) -> dict:
    """Every reader's view as plain JSON: a view shares parts of the live state, which the next move changes."""
    return {reader: json.loads(json.dumps(view(match, reader))) for reader in (*match.seats, None)}


def at(game: str, name: str, moment: str, reader: str | None) -> dict:
    return played(game, name)[MOMENTS.index(moment)][reader]


def draw(browser, tmp_path: Path, board_view: dict, reader: str | None, shot: str | None = None):
    """Render ``board_view`` for ``reader`` in the browser; the page's console must stay clean."""
    game = board_view["game"]
    page = tmp_path / f"{game}.html"
    page.write_text(PAGE.format(scripts=boards.scripts(game), view=json.dumps(board_view), reader=json.dumps(reader),
                                components=json.dumps(boards.components(game))), encoding="utf-8")
    browser.get_log("browser")
    browser.get(page.as_uri())
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors
    boards_drawn = browser.find_elements("css selector", "svg.board")
    assert len(boards_drawn) == 1
    if shot:
        SCREENSHOTS.mkdir(exist_ok=True)
        window = browser.get_window_size()
        browser.set_window_size(window["width"], boards_drawn[0].size["height"] + 200)
        boards_drawn[0].screenshot(str(SCREENSHOTS / f"{shot}.png"))
        browser.set_window_size(window["width"], window["height"])
    return boards_drawn[0]


def attribute(svg, selector: str, name: str) -> list[str]:
    return [element.get_attribute(name) for element in svg.find_elements("css selector", selector)]


def pairs(svg, selector: str, key: str, value: str) -> dict:
    return dict(zip(attribute(svg, selector, key), attribute(svg, selector, value), strict=True))


# ----- I C E Expedition ------------------------------------------------------------------------------------


@pytest.mark.parametrize("moment", MOMENTS)
def test_the_ice_expedition_pile_holds_the_tiles_pieces_and_faces_of_the_state(browser, tmp_path, moment):
    game_view = at("ice-expedition", "default", moment, "p1")
    svg = draw(browser, tmp_path, game_view, "p1", f"ice-expedition-{moment}")
    state = game_view["state"]
    assert sorted(attribute(svg, "g.tile", "data-slot")) == sorted(state["tiles"])
    faces = {key: tile["face"] for key, tile in state["tiles"].items() if tile.get("face")}
    assert pairs(svg, "g.tile[data-face]", "data-slot", "data-face") == faces
    leaders = {seat: at for seat, at in state["leaders"].items() if at}
    assert pairs(svg, "g.leader", "data-seat", "data-slot") == leaders
    archaeologists = {key: str(tile["arch"]) for key, tile in state["tiles"].items() if tile.get("arch")}
    assert pairs(svg, "g.archaeologists", "data-slot", "data-count") == archaeologists
    assert sorted(attribute(svg, ".camp", "data-slot")) == sorted(k for k, t in state["tiles"].items() if t.get("camp"))
    assert sorted(attribute(svg, ".decree", "data-card")) == sorted(state["decrees"])
    for seat, player in state["players"].items():
        assert sorted(attribute(svg, f".artifact[data-seat={seat}]", "data-card")) == sorted(player["artifacts"])
        assert attribute(svg, f".points[data-seat={seat}]", "data-rp") == [str(player["rp"])]


def test_the_ice_expedition_board_fits_one_screen(browser, tmp_path):
    svg = draw(browser, tmp_path, at("ice-expedition", "default", "middle", "p1"), "p1")
    assert svg.size["height"] <= browser.execute_script("return window.innerHeight"), "the board is one screen"


def test_another_seat_s_ice_expedition_hand_and_requests_are_backs(browser, tmp_path):
    game_view = at("ice-expedition", "default", "middle", "p1")
    svg = draw(browser, tmp_path, game_view, "p1")
    theirs = game_view["state"]["players"]["p2"]
    assert theirs["request_count"], "the middle of the game has requests in every hand"
    assert len(svg.find_elements("css selector", "[data-back=request][data-seat=p2]")) == theirs["request_count"]
    assert len(svg.find_elements("css selector", "[data-back=snow-tile][data-seat=p2]")) == theirs["hand_count"]
    assert not svg.find_elements("css selector", ".request[data-seat=p2]")
    mine = game_view["state"]["players"]["p1"]
    assert sorted(attribute(svg, ".request[data-seat=p1]", "data-card")) == sorted(
        card["id"] for card in mine["requests"] + mine["drawn_requests"])
    assert not svg.find_elements("css selector", "[data-back][data-seat=p1]")


def test_after_the_end_nothing_of_ice_expedition_is_a_back(browser, tmp_path):
    svg = draw(browser, tmp_path, at("ice-expedition", "default", "end", None), None)
    assert not svg.find_elements("css selector", "[data-back]")


# ----- Through Ice and Snow --------------------------------------------------------------------------------

TIS_TRACKS = ("fuel", "health", "morale", "towing", "sled", "dogs", "inuit")
TIS_GAMES = ("base", "all-modules", "legendary-expeditions", "solo-lost-expedition", "solo-magnetic-north-pole")


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("name", TIS_GAMES)
def test_the_through_ice_and_snow_board_holds_the_route_ships_tracks_and_cards(browser, tmp_path, name, moment):
    game_view = at("through-ice-and-snow", name, moment, "p1")
    svg = draw(browser, tmp_path, game_view, "p1", f"through-ice-and-snow-{name}-{moment}")
    state = game_view["state"]
    placed = {section: side for section, side in state["sections"].items()}
    assert {key: value for key, value in pairs(svg, "g.section", "data-section", "data-side").items()
            if value != "unplaced"} == placed
    drawn_anchors = set(attribute(svg, "g.anchor", "data-anchor"))
    assert state["anchor"] in drawn_anchors
    ends = set(attribute(svg, "line.route", "data-from")) | set(attribute(svg, "line.route", "data-to"))
    assert ends and ends <= drawn_anchors
    if game_view["options"].get("walking_on_ice"):
        assert "WFIN" in drawn_anchors, "Walking on Ice's own final anchor is on its map"
    ships = pairs(svg, "g.ship", "data-seat", "data-anchor")
    assert ships == {player["seat"]: state["anchor"] for player in state["players"]}
    assert pairs(svg, "g.dynamite", "data-anchor", "data-count") == {k: str(v) for k, v in state["dynamite_on"].items()}
    assert pairs(svg, "g.anchor[data-mapped-by]", "data-region", "data-mapped-by") == state["mapped"]
    for player in state["players"]:
        seat = player["seat"]
        tracks = pairs(svg, f"g.track[data-seat={seat}]", "data-track", "data-value")
        assert tracks == {name: str(player[name]) for name in TIS_TRACKS}
        assert attribute(svg, f".vp[data-seat={seat}]", "data-vp") == [str(player["vp"])]
        assert sorted(attribute(svg, f".species[data-seat={seat}]", "data-card")) == sorted(player["species"])
        upgrades = attribute(svg, f".upgrade[data-seat={seat}]", "data-card")
        assert sorted(upgrades) == sorted(map(str, player["upgrades"]))
    names = boards.components("through-ice-and-snow")["species"]
    for card in state["players"][0]["species"]:
        assert names[card] in svg.find_element("css selector", f".species[data-card={card}]").text


def test_another_seat_s_dealt_cards_are_backs_and_a_card_nobody_holds_is_not_drawn(browser, tmp_path):
    game_view = at("through-ice-and-snow", "legendary-expeditions", "middle", "p1")
    svg = draw(browser, tmp_path, game_view, "p1")
    mine, theirs = game_view["state"]["players"][:2]
    assert theirs["carto"] is None and theirs["carto_dealt"] == 2
    assert len(svg.find_elements("css selector", "[data-back=carto][data-seat=p2]")) == 2
    assert attribute(svg, ".dealt-card[data-kind=carto][data-seat=p1]", "data-card") == [mine["carto"]]
    assert not svg.find_elements("css selector", "[data-back][data-seat=p1]")
    solo = draw(browser, tmp_path, at("through-ice-and-snow", "solo-lost-expedition", "middle", "p1"), "p1")
    assert not solo.find_elements("css selector", "[data-back]"), "no investor or cartography card is dealt in solo"


def test_modules_and_scenarios_show_what_they_add(browser, tmp_path):
    for name, module in (("all-modules", "myths"), ("legendary-expeditions", "legendary"),
                         ("solo-lost-expedition", "lost"), ("solo-magnetic-north-pole", "magnetic")):
        svg = draw(browser, tmp_path, at("through-ice-and-snow", name, "middle", "p1"), "p1")
        assert attribute(svg, f".module[data-module={module}]", "data-module") == [module]
