"""The live table page: one game's board in the browser, following the live stream, with a seat's moves.

The page is the board renderers of ``service/boards`` with a small script (``table.js``, and
``table-clock.js`` for a game's clocks) that talks to this API from the browser: the game and its legal
moves, the stream, and moves with If-Match and an Idempotency-Key. It needs only the game's meta to choose
the renderer; the token stays in the page (a ``token`` query parameter or typed in), so this handler never
reads secrets.
"""
from __future__ import annotations

from functools import cache

from flask import Blueprint, Response

from service.api.context import game_meta
from service.boards.components import FOLDER
from service.boards.pages import board_components, board_script, board_style, script_json

blueprint = Blueprint("table", __name__)


@blueprint.get("/games/<game_id>/table")
def table_page(game_id: str):
    meta = game_meta(game_id)
    headers = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    return Response(render(game_id, meta["game"]), mimetype="text/html", headers=headers)


def render(game_id: str, game: str) -> str:
    config = script_json({"game_id": game_id, "game": game, "components": board_components(game)})
    return (_template()
            .replace("__GAME_ID__", game_id)
            .replace("__STYLE__", board_style())
            .replace("__CONFIG__", config)
            .replace("__BOARD_SCRIPT__", board_script(game))
            .replace("__CLOCK_SCRIPT__", (FOLDER / "table-clock.js").read_text(encoding="utf-8"))
            .replace("__TABLE_SCRIPT__", (FOLDER / "table.js").read_text(encoding="utf-8")))


@cache
def _template() -> str:
    return (FOLDER / "table.html").read_text(encoding="utf-8")
