"""The component data a game's board renderer names things by (card names, species, tiles), as JSON.

A view holds ids (``animal-12``, ``S01#1``); the drawing shows what a player would read on the component.
Each game's module (``service/boards/<game>.py``) reads its game's own data files through the game's
package and returns only what the drawing needs, so the replay file stays small.
"""
from __future__ import annotations

from importlib import import_module
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
MODULES = {
    "borealis": "service.boards.borealis",
    "northwest-passage": "service.boards.northwest_passage",
    "ice-expedition": "service.boards.ice_expedition",
    "through-ice-and-snow": "service.boards.through_ice_and_snow",
}


def components(game: str) -> dict:
    return import_module(MODULES[game]).components()


def scripts(game: str) -> str:
    """The shared helpers and ``game``'s renderer, as one script to inline in a page."""
    return "\n".join((FOLDER / name).read_text(encoding="utf-8") for name in ("board.js", f"{game}.js"))
