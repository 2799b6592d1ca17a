"""The front page: the games of the index a person can open, each with its table page and, once over, its replay.

Someone who starts the service and opens its address in a browser finds
nothing at ``/`` otherwise, and the table pages are reachable only by an id
they do not know. The page is drawn on the server from the index alone (one
listing per status, no game is loaded) and loads nothing: no script, no
style sheet beyond its own. ``GET /games`` stays JSON whatever the browser
asks for, so its links (and a browser's JSON viewer) show the index itself.
"""
from __future__ import annotations

from html import escape
from urllib.parse import quote

from flask import Blueprint, Response

from domain.registry import get_rules
from service.api import context

blueprint = Blueprint("front", __name__)

# How many games each section lists; the rest are a link to the index away.
SHOWN = 30
STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:68rem;margin:2rem auto;padding:0 1rem;color:#1d2430}
h1{margin-bottom:.2rem}nav a{margin-right:1rem}table{border-collapse:collapse;width:100%;margin:.3rem 0 1.2rem}
td,th{border-bottom:1px solid #e4e7ec;padding:.3rem .6rem;text-align:left;vertical-align:top}
th{font-weight:600;color:#5b6575}.muted{color:#5b6575}td a{margin-right:.8rem}code{font:13px ui-monospace,monospace}
"""


def unmoved(meta: dict) -> bool:
    """A game no one has moved in since it was created: one whose players have yet to begin."""
    return meta["updated_at"] == meta["created_at"]


def moved(meta: dict) -> bool:
    return not unmoved(meta)


def any_game(_meta: dict) -> bool:
    return True


# Each section: its heading, the index's status filter, what it lists, and which of the listed games it keeps.
SECTIONS = (
    ("Open", "active", "waiting for their first move", unmoved),
    ("Being played", "active", "being played", moved),
    ("Over", "ended", "that are over", any_game),
)


@blueprint.get("/")
def front_page():
    return Response(render(), mimetype="text/html", headers={"Cache-Control": "no-store"})


def render() -> str:
    store = context.store()
    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>",
        f"<link rel=icon href='data:,'><title>Cairn: the games</title><style>{STYLE}</style>",
        "<h1>Cairn</h1><p class=muted>The records of arctic expedition board games, refereed move by move.</p>",
        "<nav><a href=/docs>The API</a><a href=/games>The index as JSON</a><a href=/rules>The games refereed</a></nav>",
    ]
    listed: dict[str, tuple[list[dict], int]] = {}
    for heading, status, what, keeps in SECTIONS:
        if status not in listed:
            listed[status] = store.list_games(status=status, limit=SHOWN)
        metas, total = listed[status]
        games = [meta for meta in metas if keeps(meta)]
        parts.append(_section(heading, status, what, games, total > len(metas)))
    return "".join(parts)


def _section(heading: str, status: str, what: str, games: list[dict], more: bool) -> str:
    anchor = heading.lower().replace(" ", "-")
    if not games:
        return f"<h2 id={anchor}>{heading}</h2><p class=muted>No games {what}.</p>"
    rows = "".join(_row(meta) for meta in games)
    rest = (f"<p class=muted>The newest {SHOWN} of these; all of them: "
            f"<a href='/games?status={status}'><code>/games?status={status}</code></a>.</p>") if more else ""
    return (f"<h2 id={anchor}>{heading}</h2><table><tr><th>Game<th>Players<th>Version<th>Updated<th>"
            f"{rows}</table>{rest}")


def _row(meta: dict) -> str:
    game_id = quote(meta["game_id"], safe="")
    links = [f"<a href='/games/{game_id}/table'>Table</a>"]
    if meta["status"] in context.ENDED_STATUSES:
        links.append(f"<a href='/games/{game_id}/export?format=html'>Replay</a>")
    return (f"<tr><td>{escape(_title(meta['game']))} <span class=muted>{escape(meta['game_id'])}</span>"
            f"<td>{escape(', '.join(meta['players']))}<td>{meta['version']}"
            f"<td>{escape(_minute(str(meta['updated_at'])))}<td>{''.join(links)}")


def _minute(moment: str) -> str:
    """``2026-12-06T04:14:53.018007Z`` as ``2026-12-06 04:14 UTC``: to the minute is what a person reads."""
    return f"{moment[:10]} {moment[11:16]} UTC"


def _title(game: str) -> str:
    try:
        return get_rules(game).title
    except KeyError:
        return game
