/* The drawing of a game that has no renderer of its own: its state's fields as labelled lines, each seat's
 * part under the seat's name, so a new game can be replayed and played before it has a board. */
(function (B) {
  "use strict";
  const {el, text} = B;
  const WIDTH = 900;
  const LINE = 20;

  function shown(value) {
    if (value === null || value === undefined) {
      return "\u2014";
    }
    const written = typeof value === "string" ? value : JSON.stringify(value);
    return written.length > 110 ? written.slice(0, 107) + "..." : written;
  }

  function draw(view) {
    const state = view.state && typeof view.state === "object" ? view.state : {state: view.state};
    const lines = [];
    let y = 24;
    for (const [field, value] of Object.entries(state)) {
      const seatKeyed = value && typeof value === "object" && !Array.isArray(value) &&
        (view.seats || []).some((seat) => seat.seat in value);
      lines.push(text(10, y, B.words(field), {"font-weight": 700, "font-size": 13}));
      if (seatKeyed) {
        for (const [seat, item] of Object.entries(value)) {
          y += LINE;
          lines.push(el("g", {class: "field", "data-field": field, "data-seat": seat},
            text(30, y, seat, {"font-size": 13, class: "muted"}), text(90, y, shown(item), {"font-size": 13})));
        }
      } else {
        lines.push(el("g", {class: "field", "data-field": field}, text(200, y, shown(value), {"font-size": 13})));
      }
      y += LINE + 6;
    }
    return B.board(view.game, WIDTH, y, ...lines);
  }

  B.registerFallback(draw);
})(CairnBoards);
