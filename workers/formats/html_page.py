"""The ``html`` export: one self-contained page that replays the game version by version.

No network is needed to open it: styles, script and every frame are inline.
Each frame is the reader's view of the game after one version, drawn by
:mod:`workers.formats.html_render`, with the move of that version in words.
Frames are written one at a time as the events stream in from the store.
"""
from __future__ import annotations

import json
from html import escape
from typing import TextIO

from domain.core.events import ORGANISER, full_data
from domain.core.match import Match, apply_event, start, view
from domain.registry import get_rules
from service.signing import signed_head
from workers.formats import ExportInput, words
from workers.formats.html_render import Group, Piece, ViewParts, view_parts
from workers.formats.notation import move_text, result_text, token


def move_in_words(shown: dict, names: dict[str, str]) -> str:
    """What happened at this version, from the envelope as the reader is shown it."""
    kind = shown["type"]
    if kind == "game_created":
        players = ", ".join(f"{seat['name']} ({seat['seat']})" for seat in shown["data"]["seats"])
        return f"{shown['data']['game']} begins: {players}; chance by {shown['data']['chance_mode']}"
    if kind == "chance_resolved":
        drawn = shown["data"]["key"]
        if "redacted" in shown:
            return f"Chance: {drawn} (hidden from you, seen by {', '.join(shown.get('secret_to') or ['nobody'])})"
        outcome = ", ".join(full_data(shown)["outcome"])
        return f"Chance: {drawn} \u2192 {outcome}"
    if kind == "game_ended":
        seed = shown["data"].get("seed")
        return "The game ends" + (f"; the seed {seed} is revealed" if seed else "")
    if kind == "game_scored":
        return f"Final score: {result_text(shown['data']['score_sheet'])}"
    who = names.get(shown.get("seat") or "", shown.get("seat") or "")
    details = " ".join(f"{name}={token(value)}" for name, value in full_data(shown).items())
    said = f"{who}: {words(kind)}" + (f" ({details})" if details else "")
    command = shown.get("command")
    if command is not None:
        said += f" \u2014 move: {move_text(command.get('seat') or shown['seat'], command)}"
    return said


class Frames:
    """Writes the page's data as a stream of items: ``["c", piece]`` defines the next shared piece (HTML,
    or a group ``{"field", "label", "wrap", "parts"}`` of earlier pieces), ``["f", frame]`` is one version
    whose boards and table list piece numbers.

    Consecutive versions differ in a few fields, so each piece is written once
    and referred to after; only the previous version's pieces are remembered,
    so memory stays flat however long the game.
    """

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.count = 0
        self.previous: dict[str, int] = {}
        self.current: dict[str, int] = {}
        self.items = 0

    def piece(self, piece: Piece) -> int:
        if isinstance(piece, Group):
            parts = [self.piece(child) for child in piece.children]
            value: str | dict = {"field": escape(piece.name), "label": escape(words(piece.name)), "wrap": piece.wrap,
                                 "parts": parts}
            key = json.dumps(value)
        else:
            value = key = piece
        number = self.current.get(key, self.previous.get(key))
        if number is None:
            number = self.count
            self.count += 1
            self._item(["c", value])
        self.current[key] = number
        return number

    def frame(self, version: int, move: str, parts: ViewParts) -> None:
        frame = {
            "version": version,
            "move": move,
            "acting": parts.acting,
            "boards": {seat: [self.piece(html) for html in fields] for seat, fields in parts.boards.items()},
            "table": [self.piece(html) for html in parts.table],
            "score": self.piece(parts.score) if parts.score else None,
        }
        self._item(["f", frame])
        self.previous, self.current = self.current, {}

    def _item(self, item: list) -> None:
        self.out.write(("" if self.items == 0 else ",\n") + script_json(item))
        self.items += 1


def script_json(value: object) -> str:
    """JSON safe inside a <script> element: no ``<``, ``>`` or ``&`` outside escapes."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def write_html(out: TextIO, source: ExportInput) -> None:
    header = source.header
    names = {seat["seat"]: seat["name"] for seat in header["players"]}
    title = f"{header['title']} \u2014 game {header['game_id']}"
    out.write(PAGE_HEAD.format(title=escape(title), header=escape(_header_line(header))))
    seats = [{"seat": seat, "name": escape(name)} for seat, name in names.items()]
    out.write(f'<script type="application/json" id="seats">{script_json(seats)}</script>\n')
    if "signature" in header:
        head = signed_head(header["game_id"], header["version"], header["head_hash"], header["seed_hash"])
        signed = {"signed_head": head, "signature": header["signature"], "keys": header["keys"]}
        out.write(f'<script type="application/json" id="signed-head">{script_json(signed)}</script>\n')
    out.write('<script type="application/json" id="frames">[')
    rules = get_rules(header["game"])
    frames = Frames(out)
    match: Match | None = None
    shown_as = ORGANISER if source.revealed else source.reader
    for envelope in source.envelopes():
        if match is None:
            match = start(rules, envelope)
        else:
            apply_event(match, envelope)
        frames.frame(envelope["version"], move_in_words(source.shown(envelope), names),
                     view_parts(view(match, shown_as)))
    out.write("]</script>\n" + PAGE_SCRIPT + "</body>\n</html>\n")


def _header_line(header: dict) -> str:
    players = ", ".join(f"{seat['name']} ({seat['seat']})" for seat in header["players"])
    shown_to = {"all": "everyone (the game has ended)", "public": "the public", ORGANISER: "the organiser"}
    reader = shown_to.get(header["reader"], f"seat {header['reader']}")
    return (f"{header['title']} \u00b7 {players} \u00b7 {header['version']} versions \u00b7 {header['status']} "
            f"\u00b7 as seen by {reader} \u00b7 head {header['head_hash'][:16]}")


PAGE_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #eef3f6; color: #1d2a33; }}
header {{ background: #1d3b53; color: #fff; padding: .6em 1em; }}
header h1 {{ font-size: 1.2em; margin: 0; }} header p {{ margin: .2em 0 0; opacity: .8; font-size: .85em; }}
nav {{ display: flex; gap: .5em; align-items: center; padding: .6em 1em; background: #dbe6ee;
  position: sticky; top: 0; }}
nav button {{ font-size: 1em; padding: .2em .8em; }} nav input[type=range] {{ flex: 1; }}
#move {{ padding: .6em 1em; font-weight: 600; background: #fff; border-bottom: 1px solid #c9d6df; }}
#stage {{ padding: 1em; }}
.boards {{ display: flex; flex-wrap: wrap; gap: 1em; }}
.seat, .table, .score {{ background: #fff; border-radius: 8px; padding: .6em .9em; box-shadow: 0 1px 3px #0002;
  min-width: 14em; margin-bottom: 1em; }}
.seat.acting {{ outline: 3px solid #e0a100; }}
h3 {{ margin: 0 0 .4em; font-size: 1em; }} h3 small {{ color: #6b7c88; font-weight: normal; }}
.field {{ display: flex; gap: .6em; align-items: center; margin: .25em 0; }}
.label {{ color: #4d5f6b; min-width: 6em; }}
.fields .fields {{ border-left: 2px solid #dbe6ee; padding-left: .5em; }}
.row {{ display: flex; flex-wrap: wrap; gap: .3em; }}
.card {{ display: inline-flex; align-items: center; justify-content: center; width: 4.6em; height: 6.2em;
  border-radius: .45em; border: 1px solid #0003; background: hsl(var(--hue, 200) 55% 86%);
  font-size: .72em; text-align: center; padding: .2em; box-sizing: border-box; word-break: break-word; }}
.card.face-down {{ background: repeating-linear-gradient(45deg, #2f5a7a, #2f5a7a 4px, #3d6d90 4px, #3d6d90 8px);
  color: #fff; font-size: 1.1em; }}
.number {{ font-weight: 700; margin-right: .4em; }}
.track rect.on {{ fill: #2d7fb8; }} .track rect.off {{ fill: #d5e1ea; }}
.flag.yes {{ color: #1d7a35; }} .flag.no {{ color: #a33; }} .empty {{ color: #8a9aa5; font-style: italic; }}
.score table {{ border-collapse: collapse; }}
.score td, .score th {{ border-bottom: 1px solid #dde; padding: .2em .6em; }}
</style>
</head>
<body>
<header><h1>{title}</h1><p>{header}</p></header>
<nav>
<button id="first" title="first version">&laquo; First</button>
<button id="prev" title="previous version">&#x25C0; Prev</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="version">
<button id="next" title="next version">Next &#x25B6;</button>
<button id="last" title="last version">Last &raquo;</button>
<span id="version"></span>
</nav>
<div id="move"></div>
<main id="stage"></main>
"""

PAGE_SCRIPT = """<script>
(function () {
  var seats = JSON.parse(document.getElementById("seats").textContent);
  var pieces = [], frames = [];
  JSON.parse(document.getElementById("frames").textContent).forEach(function (item) {
    (item[0] === "c" ? pieces : frames).push(item[1]);
  });
  var slider = document.getElementById("slider");
  var index = 0;
  slider.max = String(frames.length - 1);
  function piece(number) {
    var found = pieces[number];
    if (typeof found === "string") { return found; }
    return '<div class="field" data-field="' + found.field + '"><span class="label">' + found.label +
      '</span><span class="value"><div class="' + found.wrap + '">' + found.parts.map(piece).join("") +
      "</div></span></div>";
  }
  function fields(numbers) {
    return numbers.length ? '<div class="fields">' + numbers.map(piece).join("") + "</div>" :
      '<span class="empty">none</span>';
  }
  function draw(frame) {
    var boards = seats.map(function (seat) {
      var acting = frame.acting.indexOf(seat.seat) >= 0 ? " acting" : "";
      return '<article class="seat' + acting + '" data-seat="' + seat.seat + '"><h3>' + seat.name +
        " <small>" + seat.seat + "</small></h3>" + fields(frame.boards[seat.seat] || []) + "</article>";
    });
    return '<div class="boards">' + boards.join("") + '</div><article class="table"><h3>Table</h3>' +
      fields(frame.table) + "</article>" + (frame.score === null ? "" : piece(frame.score));
  }
  function show(next) {
    index = Math.max(0, Math.min(frames.length - 1, next));
    var frame = frames[index];
    document.getElementById("stage").innerHTML = draw(frame);
    document.getElementById("move").textContent = frame.move;
    document.getElementById("version").textContent = "Version " + frame.version + " of " +
      frames[frames.length - 1].version;
    slider.value = String(index);
    document.getElementById("first").disabled = document.getElementById("prev").disabled = index === 0;
    document.getElementById("last").disabled = document.getElementById("next").disabled =
      index === frames.length - 1;
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(index - 1); };
  document.getElementById("next").onclick = function () { show(index + 1); };
  document.getElementById("last").onclick = function () { show(frames.length - 1); };
  slider.oninput = function () { show(Number(slider.value)); };
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { show(index + 1); }
    if (event.key === "ArrowLeft") { show(index - 1); }
  });
  show(0);
})();
</script>
"""
