/* Northwest Passage drawn as its map: the grid of cells with every placed tile as land and sea in its
 * orientation, Greenland to the east and the Northwest to the west, the rows the sun leaves as ice, the
 * tokens still on their tiles and each seat's ship and sled; beside it each seat's crew, tokens and hand,
 * and below it the display and the supply.
 *
 * Picks for the table page: a tile (hand, display, map) by its id, a small type in the supply by its
 * type, a port by "G" or "N", a token by its id, an empty cell by "anchor_x=X&anchor_y=Y".
 */
(function (B) {
  "use strict";
  const {el, text, tip, words, seatColour, back} = B;
  const WIDTH = 1260;
  const CELL = 52;
  const MAP_X = 100;
  const MAP_Y = 84;
  const PANEL_X = 840;
  const TOKEN_LETTER = {inuit: "I", cairn: "C", wreck: "W", strait: "S", map: "M"};
  const PORT_NAME = {G: "Greenland", N: "Northwest"};

  function cellX(x) { return MAP_X + x * CELL; }
  function cellY(y) { return MAP_Y + y * CELL; }

  /* Each covered cell as its 3 x 3 lattice points (land and sea at half-cell spacing, NWP-GEO-2), so a
   * cell shows its own pattern; a large tile's two cells share their middle column of points. */
  function terrain(lattice, tiles) {
    const third = CELL / 3;
    const squares = [];
    for (const tile of Object.values(tiles)) {
      for (const [x, y] of tile.cells || []) {
        for (let dy = 0; dy < 3; dy += 1) {
          const line = lattice[2 * y + dy] || "";
          for (let dx = 0; dx < 3; dx += 1) {
            const kind = {L: "land", S: "sea"}[line[2 * x + dx]];
            if (kind) {
              squares.push(el("rect", {x: cellX(x) + dx * third, y: cellY(y) + dy * third, width: third + 0.3,
                                       height: third + 0.3, class: kind}));
            }
          }
        }
      }
    }
    return el("g", {class: "terrain"}, ...squares);
  }

  function grid(components) {
    const lines = [];
    for (let y = 0; y < components.height; y += 1) {
      for (let x = 0; x < components.width; x += 1) {
        lines.push(el("rect", {x: cellX(x), y: cellY(y), width: CELL, height: CELL, class: "grid",
                               "data-cell": `${x},${y}`, "data-pick": `anchor_x=${x}&anchor_y=${y}`}));
      }
    }
    return el("g", {class: "cells"}, ...lines);
  }

  function zones(components) {
    const labels = [];
    (components.zones[0] || []).forEach((multiplier, x) => {
      if (x === 0 || components.zones[0][x - 1] !== multiplier) {
        labels.push(text(cellX(x) + 4, MAP_Y - 6, `zone \u00d7${multiplier}`, {"font-size": 11, class: "muted"}));
      }
    });
    return labels;
  }

  function ice(components, sun) {
    const frozen = (components.frozen || {})[sun] || [];
    const rows = new Set();
    const cells = frozen.map((key) => {
      const [x, y] = key.split(",").map(Number);
      rows.add(y);
      return el("rect", {x: cellX(x), y: cellY(y), width: CELL, height: CELL, class: "ice", "data-ice": key});
    });
    const labels = [...rows].map((y) => text(MAP_X - 6, cellY(y) + CELL / 2 + 4, "ice",
                                              {"text-anchor": "end", "font-size": 11, class: "muted"}));
    return el("g", {class: "frozen", "data-sun": sun}, ...cells, ...labels);
  }

  function bounds(cells) {
    const xs = cells.map((cell) => cell[0]);
    const ys = cells.map((cell) => cell[1]);
    return {x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs) + 1,
            h: Math.max(...ys) - Math.min(...ys) + 1};
  }

  /* A placed tile's outline, its type and its orientation: an arrow for where its printed top points,
   * and a mirror mark when it lies flipped. */
  function placedTile(tileId, tile) {
    const box = bounds(tile.cells || [tile.anchor]);
    const x = cellX(box.x);
    const y = cellY(box.y);
    const width = box.w * CELL;
    return el("g", {class: "tile", "data-tile": tileId, "data-pick": tileId, "data-rotation": tile.rotation,
                    "data-flip": tile.flip ? "yes" : "no"},
      el("rect", {x, y, width, height: box.h * CELL, class: "tile-outline"}),
      tip(`${tileId}: turned ${tile.rotation}\u00b0${tile.flip ? ", flipped" : ""}`),
      text(x + 3, y + 11, tile.type, {"font-size": 9, class: "tile-label"}),
      el("text", {x: 0, y: 4, "font-size": 11, "text-anchor": "middle", class: "tile-label",
                  transform: `translate(${x + width - 9} ${y + 9}) rotate(${tile.rotation})`}, "\u25b2"),
      tile.flip ? text(x + width - 20, y + 12, "\u21c6", {"font-size": 10, class: "tile-label"}) : null);
  }

  function mapTokens(tokens) {
    return Object.entries(tokens || {}).filter(([, found]) => !found.owner).map(([tokenId, found]) => {
      const [x, y] = found.cell;
      return el("g", {class: "token map-token", "data-token": tokenId, "data-kind": found.kind, "data-pick": tokenId},
        el("circle", {cx: cellX(x) + CELL - 13, cy: cellY(y) + CELL - 13, r: 9, fill: "#fff8e0"}),
        text(cellX(x) + CELL - 13, cellY(y) + CELL - 9, TOKEN_LETTER[found.kind] || "?",
             {"text-anchor": "middle", "font-size": 11, "font-weight": 700}),
        tip(`${words(found.kind)} token`));
    });
  }

  function ports(components) {
    const drawn = [];
    for (const [code, cells, x] of [["N", components.northwest, 14], ["G", components.greenland,
                                                                       MAP_X + components.width * CELL + 6]]) {
      const box = bounds(cells);
      drawn.push(el("g", {class: "port-area", "data-port": code, "data-pick": code},
        el("rect", {x, y: cellY(box.y), width: 80, height: box.h * CELL, rx: 6, class: "port"}),
        text(x + 40, cellY(box.y) + 16, PORT_NAME[code], {"text-anchor": "middle", "font-size": 12, "font-weight": 700})));
    }
    return drawn;
  }

  /* Where a vessel stands: a tile's first cell, or a port's box; seats share a place side by side. */
  function vesselPlace(at, tiles, components, slot) {
    if (at in PORT_NAME) {
      const box = bounds(at === "G" ? components.greenland : components.northwest);
      const left = at === "G" ? MAP_X + components.width * CELL + 6 : 14;
      return [left + 14 + (slot % 3) * 24, cellY(box.y) + 34 + Math.floor(slot / 3) * 24];
    }
    const tile = tiles[at];
    if (!tile) {
      return null;
    }
    const [x, y] = tile.cells[0];
    return [cellX(x) + 12 + (slot % 3) * 15, cellY(y) + 22 + Math.floor(slot / 3) * 15];
  }

  function vessels(view, components) {
    const state = view.state;
    const drawn = [];
    const used = {};
    for (const seat of Object.keys(state.players || {})) {
      for (const kind of ["ship", "sled"]) {
        const vessel = state.players[seat][kind];
        if (!vessel || vessel.lost || vessel.at === null || vessel.at === undefined) {
          continue;
        }
        const slot = used[vessel.at] = (used[vessel.at] ?? -1) + 1;
        const place = vesselPlace(vessel.at, state.tiles || {}, components, slot);
        if (!place) {
          continue;
        }
        const [x, y] = place;
        const shape = kind === "ship"
          ? el("path", {d: `M${x - 9} ${y - 3} L${x + 9} ${y - 3} L${x + 5} ${y + 6} L${x - 5} ${y + 6} Z`,
                        fill: seatColour(seat), stroke: "#0008"})
          : el("rect", {x: x - 6, y: y - 5, width: 12, height: 10, rx: 2, fill: seatColour(seat), stroke: "#0008"});
        drawn.push(el("g", {class: `vessel ${kind}`, "data-piece": `${seat}:${kind}`, "data-at": vessel.at},
          shape, tip(`${seat}'s ${kind} at ${PORT_NAME[vessel.at] || vessel.at}`)));
      }
    }
    return drawn;
  }

  /* A tile off the map, face up: its printed pattern of land and sea, `size` units per point. */
  function thumbnail(x, y, tileType, components, size, attributes, label) {
    const rows = ((components.patterns || {})[tileType] || "").split("/").filter(Boolean);
    const squares = [];
    rows.forEach((row, j) => [...row].forEach((value, i) => squares.push(
      el("rect", {x: i * size, y: j * size, width: size, height: size, class: value === "L" ? "land" : "sea"}))));
    const width = (rows[0] || "").length * size;
    return el("g", {transform: `translate(${x} ${y})`, class: "tile-face", ...attributes},
      el("rect", {x: -1, y: -1, width: width + 2, height: rows.length * size + 2, class: "tile-outline"}),
      ...squares, label ? text(0, rows.length * size + 11, label, {"font-size": 10}) : null);
  }

  function tileType(tileId) {
    return String(tileId).split("#")[0];
  }

  function crew(x, y, available, resting) {
    const dots = [];
    for (let n = 0; n < available + resting; n += 1) {
      dots.push(el("circle", {cx: x + n * 13, cy: y, r: 5, class: n < available ? "crew ready" : "crew resting",
                              fill: n < available ? "#1d3b53" : "#fff", stroke: "#1d3b53"}));
    }
    return dots;
  }

  function seatPanel(y, seat, player, view, components, reader) {
    const parts = [];
    const acting = (view.waiting_for || []).includes(seat);
    const hand = player.hand;
    const rowsOfHand = Math.max(1, Math.ceil((Array.isArray(hand) ? hand.length : 0) / 10));
    const height = 112 + rowsOfHand * 30;
    const name = ((view.seats || []).find((item) => item.seat === seat) || {}).name || seat;
    parts.push(el("rect", {width: WIDTH - PANEL_X - 10, height, rx: 8, class: acting ? "panel acting" : "panel"}));
    parts.push(el("circle", {cx: 16, cy: 16, r: 7, fill: seatColour(seat)}));
    parts.push(text(30, 21, `${name} (${seat})${seat === reader ? " \u2014 you" : ""} \u00b7 fame ${(view.state.fame || {})[seat] ?? 0}` +
      (player.reached_northwest ? " \u00b7 reached the Northwest" : "") + (acting ? " \u00b7 to move" : ""),
      {"font-size": 14, "font-weight": 700}));
    ["ship", "sled"].forEach((kind, row) => {
      const vessel = player[kind] || {};
      const where = vessel.lost ? "lost" : vessel.returned ? "returned" : `at ${PORT_NAME[vessel.at] || vessel.at}`;
      parts.push(el("g", {class: "vessel-line", "data-vessel": `${seat}:${kind}`},
        text(10, 44 + row * 20, `${words(kind)} ${where} \u00b7 crew ${vessel.available ?? 0} ready, ${vessel.resting ?? 0} resting`,
             {"font-size": 12}),
        ...crew(318, 40 + row * 20, vessel.available || 0, vessel.resting || 0)));
    });
    const tokens = Object.entries(player.tokens || {}).map(([kind, count]) => `${words(kind)} ${count}`).join(" \u00b7 ");
    parts.push(text(10, 84, `Tokens: ${tokens}`, {"font-size": 12, "data-tokens": seat}));
    parts.push(text(10, 104, `Hand (${Array.isArray(hand) ? hand.length : "hidden"})`, {class: "label"}));
    (Array.isArray(hand) ? hand : []).forEach((tileId, index) => {
      const type = tileType(tileId);
      parts.push(thumbnail(10 + (index % 10) * 38, 110 + Math.floor(index / 10) * 30, type, components, 6,
                           {"data-tile": tileId, "data-pick": tileId, "data-zone": "hand"}));
    });
    return [el("g", {transform: `translate(${PANEL_X} ${y})`, class: "seat", "data-seat": seat}, ...parts), height];
  }

  function display(view, components, y) {
    const state = view.state;
    const parts = [text(MAP_X, y, "Display", {class: "label"})];
    (state.display || []).forEach((tileId, index) => parts.push(
      thumbnail(MAP_X + index * 96, y + 8, tileType(tileId), components, 14,
                {"data-tile": tileId, "data-pick": tileId, "data-zone": "display"}, tileId)));
    const supplyX = MAP_X + 4 * 96 + 20;
    parts.push(text(supplyX, y, "Supply", {class: "label"}));
    const unlimited = (view.options || state.options || {}).small_tiles_unlimited;
    const smallTypes = Object.keys(components.patterns || {}).filter((type) => type.startsWith("S")).sort();
    smallTypes.forEach((type, index) => {
      const taken = (state.small_taken || {})[type] || 0;
      const left = unlimited ? "\u221e" : String(Math.max(0, (components.small_copies || 0) - taken));
      parts.push(thumbnail(supplyX + index * 44, y + 8, type, components, 10,
                           {"data-supply": type, "data-pick": type}, `${type} ${left}`));
    });
    const stockX = supplyX + smallTypes.length * 44 + 16;
    parts.push(text(stockX, y, "Stock", {class: "label"}));
    parts.push(state.stock_size ? back(stockX, y + 8, 60, 40, {"data-zone": "stock"}) : null);
    parts.push(text(stockX, y + 64, `${state.stock_size ?? 0} tiles`, {"font-size": 11, "data-count": "stock"}));
    return el("g", {class: "table", "data-zone": "table"}, ...parts);
  }

  function sunTrack(components, sun) {
    return (components.sun_track || []).map((position, index) => el("g", {class: position === sun ? "sun here" : "sun"},
      el("rect", {x: 330 + index * 52, y: 28, width: 48, height: 20, rx: 4,
                  style: position === sun ? "fill: #f2b632" : "fill: #e1e8ee"}),
      text(354 + index * 52, 42, position === components.the_end ? `${position} end` : position,
           {"text-anchor": "middle", "font-size": 11})));
  }

  function draw(view, context) {
    const components = (context && context.components) || {};
    const reader = context ? context.reader : null;
    const state = view.state || {};
    const turn = state.turn ? ` \u00b7 ${state.turn.seat} to act, ${state.turn.actions} action${state.turn.actions === 1 ? "" : "s"} left` : "";
    const parts = [
      text(10, 20, `Round ${state.round ?? "\u2014"} \u00b7 ${words(state.phase || "")}${turn} \u00b7 ` +
        `map tokens left ${state.map_tokens_left ?? 0}`, {"font-size": 15, "font-weight": 700}),
      text(10, 42, "Sun", {class: "label"}), ...sunTrack(components, state.sun_position),
      el("rect", {x: MAP_X, y: MAP_Y, width: components.width * CELL, height: components.height * CELL,
                  class: "unknown"}),
      terrain(state.lattice || [], state.tiles || {}),
      ice(components, state.sun_position), grid(components), ...zones(components), ...ports(components),
      ...Object.entries(state.tiles || {}).map(([tileId, tile]) => placedTile(tileId, tile)),
      ...mapTokens(state.tokens), ...vessels(view, components),
    ];
    const below = MAP_Y + components.height * CELL + 26;
    parts.push(display(view, components, below));
    let y = 60;
    for (const seat of (view.seats || []).map((item) => item.seat)) {
      if (state.players && state.players[seat]) {
        const [panel, height] = seatPanel(y, seat, state.players[seat], view, components, reader);
        parts.push(panel);
        y += height + 10;
      }
    }
    return B.board("northwest-passage", WIDTH, Math.max(y, below + 90), ...parts);
  }

  B.register("northwest-passage", draw);
})(CairnBoards);
