"""What a page needs to draw a game's board: the renderer's script, the game's component data and the style.

A game without its own renderer (a game added to the service before its drawing) is drawn by the generic
one in ``generic.js``, so its replay file and table page still work.
"""
from __future__ import annotations

import json

from service.boards.components import FOLDER, MODULES, components, scripts


def has_renderer(game: str) -> bool:
    return game in MODULES and (FOLDER / f"{game}.js").exists()


def board_script(game: str) -> str:
    if has_renderer(game):
        return scripts(game)
    return "\n".join((FOLDER / name).read_text(encoding="utf-8") for name in ("board.js", "generic.js"))


def board_components(game: str) -> dict:
    return components(game) if has_renderer(game) else {}


def board_style() -> str:
    return (FOLDER / "board.css").read_text(encoding="utf-8")


def script_json(value: object) -> str:
    """JSON safe inside a <script> element: no ``<``, ``>`` or ``&`` outside escapes."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
