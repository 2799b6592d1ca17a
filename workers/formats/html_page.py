"""The ``html`` export: one self-contained page that replays the game version by version.

No network is needed to open it: styles, the game's board renderer
(``service/boards/``) and every frame are inline. Each frame is the reader's
view of the game after one version, as the changes from the version before
(:mod:`workers.formats.deltas`), with the move of that version in words
(the page shows its ids in the names the game's board gives them); the
frames are gzipped so a long game stays small. They are written one at a
time as the events stream in from the store.
"""
from __future__ import annotations

import base64
import json
import zlib
from html import escape

from domain.core.clock import TIMEOUT_CLAIMED
from domain.core.events import ORGANISER, full_data
from domain.core.match import Match, apply_event, replaying, start, view
from domain.core.takeback import MOVES_TAKEN_BACK
from domain.registry import get_rules
from service.boards.pages import board_components, board_script, board_style, script_json
from service.signing import signed_head
from service.store.envelope import Envelope
from workers.formats import ExportInput, TextOut, words
from workers.formats.deltas import changes
from workers.formats.notation import move_text, result_text, taken_back_text, token

GZIP_WINDOW = 31  # zlib's wbits for a gzip stream with the largest window


def move_in_words(shown: Envelope, names: dict[str, str]) -> str:
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
    if kind == MOVES_TAKEN_BACK:
        text = taken_back_text(shown["data"])
        return text[0].upper() + text[1:]
    if kind == TIMEOUT_CLAIMED:
        flagged = shown["data"]["flagged"]
        claimant = names.get(shown.get("seat") or "", shown.get("seat") or "")
        return f"Time: the clock of {names.get(flagged, flagged)} ({flagged}) has run out, claimed by {claimant}"
    who = names.get(shown.get("seat") or "", shown.get("seat") or "")
    details = " ".join(f"{name}={token(value)}" for name, value in full_data(shown).items())
    said = f"{who}: {words(kind)}" + (f" ({details})" if details else "")
    command = shown.get("command")
    if command is not None:
        actor = command.get("seat") or shown["seat"]  # an organiser's chance outcome recorded without its seat: None
        said += f" \u2014 move: {move_text(str(actor), command)}"
    return said


class Packed:
    """Text gzipped and base64-encoded as it is written, straight into the page: the page decodes it with the
    browser's DecompressionStream, and memory stays flat however long the game."""

    def __init__(self, out: TextOut) -> None:
        self.out = out
        self.zip = zlib.compressobj(9, zlib.DEFLATED, GZIP_WINDOW)
        self.pending = b""

    def write(self, text: str) -> None:
        self._encode(self.zip.compress(text.encode("utf-8")))

    def close(self) -> None:
        self._encode(self.zip.flush())
        self.out.write(base64.b64encode(self.pending).decode("ascii"))
        self.pending = b""

    def _encode(self, data: bytes) -> None:
        data = self.pending + data
        whole = len(data) - len(data) % 3  # base64 of whole 3-byte groups joins up without padding
        self.out.write(base64.b64encode(data[:whole]).decode("ascii"))
        self.pending = data[whole:]


def write_html(out: TextOut, source: ExportInput) -> None:
    """The page, then every version as ``{version, move, view}`` for the first and ``{version, move, changes}``
    after it, packed; the board's own script draws each view as the reader's board."""
    header = source.header
    game = header["game"]
    names = {seat["seat"]: seat["name"] for seat in header["players"]}
    title = f"{header['title']} \u2014 game {header['game_id']}"
    out.write(PAGE_HEAD.format(title=escape(title), header=escape(_header_line(header)), style=board_style()))
    if "signature" in header:
        head = signed_head(header["game_id"], header["version"], header["head_hash"], header["seed_hash"])
        signed = {"signed_head": head, "signature": header["signature"], "keys": header["keys"]}
        out.write(f'<script type="application/json" id="signed-head">{script_json(signed)}</script>\n')
    shown_as = ORGANISER if source.revealed else source.reader
    context = {"reader": shown_as, "components": board_components(game)}
    out.write(f'<script type="application/json" id="context">{script_json(context)}</script>\n')
    out.write('<script type="text/plain" id="frames" data-encoding="gzip+base64">')
    rules = get_rules(game)
    packed = Packed(out)
    packed.write("[")
    match: Match | None = None
    previous: dict | None = None
    folded: list[Envelope] = []
    earlier = replaying(folded, lambda _game: rules)
    for envelope in source.envelopes():
        folded.append(envelope)
        if match is None:
            match = start(rules, envelope)
        else:
            apply_event(match, envelope, earlier)
        written = json.dumps(view(match, shown_as), separators=(",", ":"))
        current = json.loads(written)  # a copy: a view may share lists with the state the next event changes
        if envelope["type"] == "seat_joined" and envelope["data"].get("name"):
            names[str(envelope["seat"])] = envelope["data"]["name"]  # the seat is called as its player joined
        frame = {"version": envelope["version"], "move": move_in_words(source.shown(envelope), names)}
        if previous is None:
            frame["view"] = current
        else:
            frame["changes"] = changes(previous, current)
        packed.write(("" if previous is None else ",") + json.dumps(frame, separators=(",", ":")))
        previous = current
    packed.write("]")
    packed.close()
    out.write("</script>\n<script>\n" + board_script(game) + "\n</script>\n" + PAGE_SCRIPT + "</body>\n</html>\n")


def _header_line(header: dict) -> str:
    players = ", ".join(f"{seat['name']} ({seat['seat']})" for seat in header["players"])
    shown_to = {"all": "everyone (the game has ended)", "public": "the public", ORGANISER: "the organiser"}
    reader = shown_to.get(header["reader"], f"seat {header['reader']}")
    clock = header.get("clock")
    timed = "" if clock is None else f" \u00b7 clock {clock_settings_text(clock)}"
    return (f"{header['title']} \u00b7 {players} \u00b7 {header['version']} versions \u00b7 {header['status']} "
            f"\u00b7 as seen by {reader}{timed} \u00b7 head {header['head_hash'][:16]}")


def clock_settings_text(clock: dict) -> str:
    """``60 s + 5 s a turn`` or ``30 s a turn``: a time control as people say it."""
    if "turn_seconds" in clock:
        return f"{clock['turn_seconds']} s a turn"
    return f"{clock['initial_seconds']} s + {clock['increment_seconds']} s a turn"


PAGE_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{title}</title>
<style>
{style}
body {{ font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #eef3f6; color: #1d2a33; }}
header {{ background: #1d3b53; color: #fff; padding: .6em 1em; }}
header h1 {{ font-size: 1.2em; margin: 0; }} header p {{ margin: .2em 0 0; opacity: .8; font-size: .85em; }}
nav {{ display: flex; gap: .5em; align-items: center; padding: .6em 1em; background: #dbe6ee;
  position: sticky; top: 0; z-index: 1; }}
nav button {{ font-size: 1em; padding: .2em .8em; }} nav input[type=range] {{ flex: 1; }}
#move {{ padding: .6em 1em; font-weight: 600; background: #fff; border-bottom: 1px solid #c9d6df; }}
#move.taken-back {{ text-decoration: line-through; color: #6b7b86; }}
#move .note {{ text-decoration: none; display: inline-block; margin-left: .5em; font-weight: 400; }}
#error {{ color: #a33; padding: 0 1em; }} #error:empty {{ display: none; }}
#clock {{ padding: .4em 1em; background: #fff; border-bottom: 1px solid #c9d6df; font-variant-numeric: tabular-nums; }}
#clock:empty {{ display: none; }}
#stage {{ padding: 1em; }}
</style>
</head>
<body>
<header><h1>{title}</h1><p>{header}</p></header>
<nav>
<button id="first" title="first version (Home)">&laquo; First</button>
<button id="prev" title="previous version (left arrow)">&#x25C0; Prev</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="version">
<button id="next" title="next version (right arrow)">Next &#x25B6;</button>
<button id="last" title="last version (End)">Last &raquo;</button>
<span id="version">Loading&hellip;</span>
</nav>
<div id="move"></div>
<div id="clock"></div>
<div id="error"></div>
<main id="stage"></main>
"""

PAGE_SCRIPT = """<script>
(async function () {
  "use strict";
  const context = JSON.parse(document.getElementById("context").textContent);
  const slider = document.getElementById("slider");
  const byId = (name) => document.getElementById(name);

  async function unpack() {
    const packed = atob(document.getElementById("frames").textContent.trim());
    const bytes = Uint8Array.from(packed, (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  /* The three forms of change workers/formats/deltas.py writes: set, delete and append at a path. */
  function applied(before, changes) {
    const after = structuredClone(before);
    for (const [path, value, append] of changes) {
      if (path.length === 0) { return structuredClone(value); }
      let place = after;
      for (const key of path.slice(0, -1)) { place = place[key]; }
      const last = path[path.length - 1];
      if (value === undefined) { delete place[last]; }
      else if (append) { place[last].push(...value); }
      else { place[last] = value; }
    }
    return after;
  }

  /* The move's ids in the game's own names, as the board and the table page name them ("animal-45" is
   * "Harp seal (kayak)"); a word the game does not name stays as it is. */
  function named(line, game) {
    const name = (word) => CairnBoards.describeValue(game, word, context.components);
    return line.replace(/[A-Za-z][A-Za-z0-9_#-]*/g, name);
  }

  /* The clocks as of this version (TABLE-CLOCK-2): each seat's time left, the running ones marked. */
  function clockLine(view) {
    const clock = view.clock;
    if (!clock) { return ""; }
    const names = Object.fromEntries(view.seats.map((seat) => [seat.seat, seat.name]));
    const shown = Object.entries(clock.seats).map(([seat, entry]) =>
      `${names[seat] || seat} ${CairnBoards.clockText(entry.remaining_ms)}${entry.running ? " \u25B6" : ""}`);
    const at = clock.as_of ? ` at ${clock.as_of.slice(11, 23)} UTC` : "";
    return `Clock${at}: ${shown.join(" \u00b7 ")}`;
  }

  const frames = await unpack();
  const views = [];
  frames.forEach((frame, index) => views.push(index === 0 ? frame.view : applied(views[index - 1], frame.changes)));
  let index = 0;
  const takenBack = views[views.length - 1].taken_back || [];
  slider.max = String(frames.length - 1);

  function show(next) {
    index = Math.max(0, Math.min(frames.length - 1, next));
    const view = views[index];
    let drawn;
    try {
      drawn = CairnBoards.render(view, context);
      byId("error").textContent = "";
    } catch (error) {
      drawn = "";
      byId("error").textContent = "This version could not be drawn: " + error.message;
    }
    const score = view.score ? CairnBoards.scoreTable(view.score, view.seats) : "";
    byId("stage").innerHTML = drawn + score;
    const move = byId("move");
    move.textContent = named(frames[index].move, views[index].game);
    /* A version a later takeback undid (TABLE-TAKEBACK-3) is struck through: it was played, then taken back. */
    const undone = takenBack.find(([first, last]) => frames[index].version >= first && frames[index].version <= last);
    move.classList.toggle("taken-back", undone !== undefined);
    if (undone !== undefined) {
      const note = document.createElement("span");
      note.className = "note";
      note.textContent = "(taken back)";
      move.append(note);
    }
    byId("clock").textContent = clockLine(view);
    byId("version").textContent = "Version " + frames[index].version + " of " + frames[frames.length - 1].version;
    slider.value = String(index);
    byId("first").disabled = byId("prev").disabled = index === 0;
    byId("last").disabled = byId("next").disabled = index === frames.length - 1;
  }

  byId("first").onclick = () => show(0);
  byId("prev").onclick = () => show(index - 1);
  byId("next").onclick = () => show(index + 1);
  byId("last").onclick = () => show(frames.length - 1);
  slider.oninput = () => show(Number(slider.value));
  const keys = {ArrowRight: () => index + 1, ArrowLeft: () => index - 1, Home: () => 0, End: () => frames.length - 1};
  document.addEventListener("keydown", (event) => {
    if (event.target === slider || !(event.key in keys)) { return; }  // the slider steps itself
    event.preventDefault();
    show(keys[event.key]());
  });
  show(0);
})().catch((error) => {
  document.getElementById("error").textContent = "The replay could not be read: " + error.message;
  throw error;
});
</script>
"""
