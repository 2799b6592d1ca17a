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

  const CairnBoards = {
    el, text, board, escapeText,
    register(game, draw) { drawers[game] = draw; },
    games() { return Object.keys(drawers); },
    render(view, context) {
      const draw = drawers[view.game];
      if (!draw) {
        throw new Error(`no board renderer for ${view.game}`);
      }
      return draw(view, context || {reader: null, components: {}});
    },
  };
  root.CairnBoards = CairnBoards;
})(typeof window !== "undefined" ? window : globalThis);
