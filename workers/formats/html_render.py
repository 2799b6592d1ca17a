"""A generic, readable drawing of any game's view: seat boards, cards, tracks and resources.

Games' views are JSON values, so the drawing is read off their shape: a value
keyed by seat (``{"p1": ..., "p2": ...}`` or a list of ``{"seat": ...}``) belongs
on that seat's board, everything else on the shared table. Strings that look
like component ids are drawn as cards, small counts as SVG tracks, ``None``
as a face-down card. A game can later add its own drawing; this one works
for all of them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

from domain.core.canonical import sha256_hex
from workers.formats import words

COMPONENT_ID = re.compile(r"[A-Za-z][\w.]*(?:[-#@:][\w.]+)+")
TRACK_LIMIT = 20
SPLIT_ABOVE = 4


def split_by_seat(state: dict, seats: list[str]) -> tuple[dict[str, dict], dict]:
    """Per seat, its fields; and the fields that belong to no seat."""
    boards: dict[str, dict] = {seat: {} for seat in seats}
    table: dict = {}
    for name, value in state.items():
        per_seat = _per_seat(value, seats)
        if per_seat is None:
            table[name] = value
            continue
        for seat, item in per_seat.items():
            if isinstance(item, dict) and name in ("players", "seats", "boards", "tableaus"):
                boards[seat].update(item)
            else:
                boards[seat][name] = item
    return boards, table


def _per_seat(value: object, seats: list[str]) -> dict | None:
    if isinstance(value, dict) and value and set(value) <= set(seats):
        return value
    if (isinstance(value, list) and value
            and all(isinstance(item, dict) and item.get("seat") in seats for item in value)):
        return {item["seat"]: {key: field for key, field in item.items() if key != "seat"} for item in value}
    return None


def render_value(value: object) -> str:
    if value is None:
        return '<span class="card face-down" title="hidden">?</span>'
    if isinstance(value, bool):
        return f'<span class="flag {"yes" if value else "no"}">{"yes" if value else "no"}</span>'
    if isinstance(value, int | float):
        return render_number(value)
    if isinstance(value, str):
        return render_card(value) if COMPONENT_ID.fullmatch(value) else f'<span class="text">{escape(value)}</span>'
    if isinstance(value, list):
        if not value:
            return '<span class="empty">none</span>'
        return '<div class="row">' + "".join(render_value(item) for item in value) + "</div>"
    if isinstance(value, dict):
        return render_fields(value)
    return f'<span class="text">{escape(str(value))}</span>'


def render_number(value: int | float) -> str:
    """A count: the number, and for small whole counts an SVG track of filled cells."""
    shown = f'<span class="number">{escape(str(value))}</span>'
    if not isinstance(value, int) or not 0 <= value <= TRACK_LIMIT:
        return shown
    cells = max(value, 5)
    rects = "".join(
        f'<rect x="{index * 9}" y="0" width="8" height="10" rx="1.5" class="{"on" if index < value else "off"}"/>'
        for index in range(cells)
    )
    return f'{shown}<svg class="track" width="{cells * 9}" height="10" role="img" aria-label="{value}">{rects}</svg>'


def render_card(name: str) -> str:
    """A component drawn as a card, coloured by its kind (the id without its copy number)."""
    kind = re.split(r"[#@]|-\d+$", name)[0]
    hue = int(sha256_hex(kind)[:4], 16) % 360
    return (f'<span class="card" data-card="{escape(name)}" style="--hue:{hue}">'
            f'<span class="card-name">{escape(name)}</span></span>')


def render_fields(fields: dict) -> str:
    if not fields:
        return '<span class="empty">none</span>'
    return '<div class="fields">' + "".join(field_html(name, value) for name, value in fields.items()) + "</div>"


@dataclass(frozen=True)
class Group:
    """A large field (a map with many entries, a list of many tiles) drawn from smaller pieces, so that
    a page shares the entries that did not change between versions. The page draws it exactly as
    ``field_html(name, value)``: ``wrap`` is ``fields`` for a map and ``row`` for a list."""

    name: str
    wrap: str
    children: tuple[Piece, ...]


Piece = str | Group


@dataclass
class ViewParts:
    """One version as the reader sees it, in pieces a page can share between versions: each field of
    each seat's board and of the table, and the score table once there is one."""

    acting: list[str]
    boards: dict[str, list[Piece]]
    table: list[Piece]
    score: str | None


def field_piece(name: str, value: object) -> Piece:
    if isinstance(value, dict) and len(value) > SPLIT_ABOVE:
        return Group(str(name), "fields", tuple(field_piece(key, item) for key, item in value.items()))
    if isinstance(value, list) and len(value) > SPLIT_ABOVE and any(isinstance(item, dict | list) for item in value):
        return Group(str(name), "row", tuple(render_value(item) for item in value))
    return field_html(name, value)


def field_html(name: str, value: object) -> str:
    return (f'<div class="field" data-field="{escape(str(name))}"><span class="label">{escape(words(str(name)))}'
            f'</span><span class="value">{render_value(value)}</span></div>')


def view_parts(view: dict) -> ViewParts:
    seats = [seat["seat"] for seat in view["seats"]]
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
    state = view["state"] if isinstance(view["state"], dict) else {"state": view["state"]}
    boards, table = split_by_seat(state, seats)
    return ViewParts(
        acting=[seat for seat in seats if seat in view["waiting_for"]],
        boards={seat: [field_piece(name, value) for name, value in boards[seat].items()] for seat in seats},
        table=[field_piece(name, value) for name, value in table.items()],
        score=render_score(view["score"], names) if view.get("score") else None,
    )


def render_score(sheet: dict, names: dict[str, str]) -> str:
    lines = "".join(
        f"<tr><td>{escape(names.get(line['seat'], str(line['seat'])))}</td><td>{escape(str(line.get('rule', '')))}"
        f"</td><td>{escape(str(line.get('label', '')))}</td><td>{escape(str(line.get('points', '')))}</td></tr>"
        for line in sheet.get("lines", [])
    )
    ranking = "".join(
        f"<li>{', '.join(escape(names.get(seat, seat)) for seat in place['seats'])} "
        f"({escape(str(sheet.get('totals', {}).get(place['seats'][0], '')))})</li>"
        for place in sheet.get("ranking", [])
    )
    return (f'<article class="score"><h3>Final score</h3><ol class="ranking">{ranking}</ol>'
            f"<table><tr><th>Player</th><th>Rule</th><th>For</th><th>Points</th></tr>{lines}</table></article>")
