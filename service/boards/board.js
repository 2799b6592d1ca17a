/* The board renderers' registry and SVG helpers, shared by the HTML replay file and the live table page.
 *
 * Each game's file (service/boards/<game>.js) calls CairnBoards.register(game, draw), where
 * draw(view, context) returns one "<svg class=\"board\" ...>" string drawn from `view`: the view of the
 * game the API gives its reader (GET /games/{id}: {game, version, status, seats, options, waiting_for,
 * chance_pending, seed, state, score}). `context` is {reader, components}: the reader (a seat, "organiser"
 * or null for the public) and the game's component data (service/boards/components.py), for names.
 * Only what the view holds is drawn: a hidden thing (null where the view hides it) is a back, an absent
 * value is not drawn at all. Renderers build strings, never touch the DOM, and need no network.
 */
(function (root) {
  "use strict";
  const drawers = {};
  let fallback = null;

  function escapeText(value) {
    return String(value).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  }

  /* An SVG element as a string: el("rect", {x: 1, class: "card"}, child, ...); children are strings. */
  function el(tag, attributes, ...children) {
    const attrs = Object.entries(attributes || {})
      .filter(([, value]) => value !== undefined && value !== null && value !== false)
      .map(([name, value]) => ` ${name}="${escapeText(value)}"`).join("");
    const body = children.flat(Infinity).filter((child) => child !== undefined && child !== null && child !== false);
    return body.length ? `<${tag}${attrs}>${body.join("")}</${tag}>` : `<${tag}${attrs}/>`;
  }

  function text(x, y, content, attributes) {
    return el("text", {x, y, ...(attributes || {})}, escapeText(content));
  }

  /* The outer <svg class="board">; width and height in SVG units, scaled to the page's width. */
  function board(game, width, height, ...children) {
    return el("svg", {class: "board", "data-game": game, xmlns: "http://www.w3.org/2000/svg",
                      viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img"}, ...children);
  }

  /* Picks: an element a seat may click on the table page carries data-pick, a move type ("draw_blind"), a
   * value ("animal-12") or "key=value" pairs joined by "&" ("anchor_x=3&anchor_y=4"); table.js matches
   * them to the legal moves. */

  /* A stable hue (0..359) for a name, so a species or a seat keeps its colour on every board. */
  function hue(name) {
    let hash = 7;
    for (const c of String(name)) { hash = (hash * 31 + c.charCodeAt(0)) % 3600; }
    return Math.floor(hash / 10);
  }

  /* A seat's colour: the first four seats get colours far apart, later ones fall back to a hue. */
  const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"];
  function seatColour(seat) {
    const index = Number(String(seat).replace(/^p/, "")) - 1;
    return SEAT_COLOURS[index] || `hsl(${hue(seat)} 60% 40%)`;
  }

  /* A face-up component: a rounded rect in a <g> that carries the attributes (data-card, data-pick...). */
  function card(x, y, width, height, attributes, ...children) {
    const {fill, ...rest} = attributes || {};
    return el("g", {transform: `translate(${x} ${y})`, ...rest},
      el("rect", {width, height, rx: Math.min(6, width / 8), class: "face", style: fill ? `fill: ${fill}` : undefined}),
      ...children);
  }

  /* A face-down component: only its back is drawn, so nothing of its face is in the page. */
  function back(x, y, width, height, attributes) {
    return el("g", {transform: `translate(${x} ${y})`, class: "back", ...(attributes || {})},
      el("rect", {width, height, rx: Math.min(6, width / 8)}),
      el("rect", {x: 4, y: 4, width: width - 8, height: height - 8, rx: 3, class: "inner"}));
  }

  /* A row of `cells` boxes, the first `filled` of them on: a resource or a flag track. */
  function track(x, y, cells, filled, attributes, cellWidth) {
    const size = cellWidth || 12;
    const boxes = [];
    for (let index = 0; index < cells; index += 1) {
      boxes.push(el("rect", {x: index * (size + 2), width: size, height: 12, rx: 2, class: index < filled ? "on" : "off"}));
    }
    return el("g", {transform: `translate(${x} ${y})`, class: "track", ...(attributes || {})}, ...boxes);
  }

  /* A round piece (a scientist, a token, a ship) with an optional short label in it. */
  function token(x, y, radius, fill, label, attributes) {
    return el("g", {class: "token", ...(attributes || {})},
      el("circle", {cx: x, cy: y, r: radius, fill}),
      label === undefined || label === null ? null :
        text(x, y + radius * 0.35, label, {"text-anchor": "middle", "font-size": radius, class: "token-label"}));
  }

  /* An SVG tooltip: what a player would read on the component when the drawing is too small for it. */
  function tip(content) {
    return el("title", {}, escapeText(content));
  }

  /* A name as words: "snowy_owl" -> "Snowy owl". */
  function words(name) {
    const spaced = String(name).replace(/[_-]+/g, " ");
    return spaced.charAt(0).toUpperCase() + spaced.slice(1);
  }

  /* The final score sheet as an HTML table: ranking, then each line with the rule it scores by. */
  function scoreTable(sheet, seats) {
    const names = Object.fromEntries((seats || []).map((seat) => [seat.seat, seat.name]));
    const who = (seat) => escapeText(names[seat] || seat);
    const ranking = (sheet.ranking || []).map((place) =>
      `<li>${place.seats.map(who).join(", ")} (${escapeText((sheet.totals || {})[place.seats[0]] ?? "")})</li>`).join("");
    const lines = (sheet.lines || []).map((line) =>
      `<tr data-rule="${escapeText(line.rule ?? "")}"><td>${who(line.seat)}</td><td>${escapeText(line.rule ?? "")}</td>` +
      `<td>${escapeText(line.label ?? "")}</td><td>${escapeText(line.points ?? "")}</td></tr>`).join("");
    // A game lost by all (a shared defeat) has no lines: the rule that ended it is what the sheet says.
    const ending = !lines && sheet.rule ?
      `<tr data-rule="${escapeText(sheet.rule)}"><td>${escapeText(sheet.outcome ?? "")}</td><td>${escapeText(sheet.rule)}</td>` +
      `<td>${escapeText(sheet.detail ?? "")}</td><td></td></tr>` : "";
    return `<article class="score"><h3>Final score</h3><ol class="ranking">${ranking}</ol>` +
      `<table><tr><th>Player</th><th>Rule</th><th>For</th><th>Points</th></tr>${lines}${ending}</table></article>`;
  }

  /* A clock's time left as people read it: "4:05.3", "0:00.0" once it has run out (never below). */
  function clockText(milliseconds) {
    const tenths = Math.max(0, Math.floor(milliseconds / 100));
    const minutes = Math.floor(tenths / 600);
    const seconds = ((tenths % 600) / 10).toFixed(1).padStart(4, "0");
    return `${minutes}:${seconds}`;
  }

  const describers = {};

  const CairnBoards = {
    el, text, board, escapeText, hue, seatColour, card, back, track, token, tip, words, scoreTable, clockText,
    /* A game may name a move's values in its own terms (a card id as its species); see describe(). */
    registerDescriber(game, describe) { describers[game] = describe; },
    /* One value of a move in words, named as the game names it: "Snowy owl (sleigh)", "none" for [] or null,
     * and "captain 1, sailor 2" for {"captain": 1, "sailor": 2}. */
    describeValue(game, value, components) {
      const named = describers[game] || ((item) => item);
      const show = (item) => item === null ? "none" : Array.isArray(item) ? (item.length ? item.map(show).join(", ") : "none") :
        item !== null && typeof item === "object"
          ? Object.entries(item).map(([key, part]) => `${words(key).toLowerCase()} ${show(part)}`).join(", ") || "none"
          : String(named(item, components));
      return show(value);
    },
    /* One field of a move in words: "card id Snowy owl (sleigh)". */
    describeField(game, key, value, components) {
      return `${words(key).toLowerCase()} ${CairnBoards.describeValue(game, value, components)}`;
    },
    /* A legal move in words, for a list of choices: "Observe: card id Snowy owl (sleigh); location LEFT". */
    describe(game, command, components) {
      const shown = Object.entries(command).filter(([key]) => key !== "type")
        .map(([key, value]) => CairnBoards.describeField(game, key, value, components));
      return words(command.type) + (shown.length ? ": " + shown.join("; ") : "");
    },
    register(game, draw) { drawers[game] = draw; },
    /* The drawing of any game without its own renderer (generic.js). */
    registerFallback(draw) { fallback = draw; },
    games() { return Object.keys(drawers); },
    render(view, context) {
      const draw = drawers[view.game] || fallback;
      if (!draw) {
        throw new Error(`no board renderer for ${view.game}`);
      }
      return draw(view, context || {reader: null, components: {}});
    },
  };
  root.CairnBoards = CairnBoards;
})(typeof window !== "undefined" ? window : globalThis);
