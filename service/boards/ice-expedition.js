/* I C E Expedition: the pile of tiles seen from above, and beside it the city, the reserve and each seat's board.
 *
 * Every tile of a layer is centred on a corner of the layer below (the game's board data places each slot on
 * one triangular lattice), so a tile covers a third of each of the three tiles under it: drawn bottom layer
 * first at full size, a tile shows exactly the parts a player sees on the table. Each layer is lifted a little
 * and has its own colour, so layers 0, 2 and 4 (which share centres) stay apart. Pieces and faces are drawn on
 * the visible part of their tile. An empty slot with nothing over it (dug or collapsed) is a dashed outline.
 */
(function () {
  "use strict";
  const {el, text, board} = CairnBoards;
  const UNIT = 46;
  const LIFT = 0.16;
  const ROOT3 = Math.sqrt(3);
  const PILE = {x: 318, y: 362};
  const PANEL = 640;
  const PANEL_WIDTH = 780;
  const LAYER_FILL = {0: "#c8a46e", 1: "#35628f", 2: "#5d8fbf", 3: "#9cc3e4", 4: "#f5f8fb"};
  const LAYER_SIDE = {0: "#8a6a3c", 1: "#1f3f60", 2: "#3b6a96", 3: "#6f9cc2", 4: "#b7c6d3"};
  const TERRAIN_MARK = {"T-ENC": "#e9d9b0", "T-TUN": "#cfd8e3", "T-RIF": "#f2e0e0", "T-NUN": "#dce9dc", "T-CLR": null};
  const TYPE_FILL = {feat: "#d9534f", nobility: "#8e5bc2", harmony: "#3c9d4f", philosophy: "#e0a800",
                     oblivion: "#37474f", prismatic: "#f0f0ff"};
  const SEAT_FILL = ["#d9534f", "#2a6fdb", "#3c9d4f", "#e0a800", "#8e5bc2"];
  const TYPE_SHORT = {feat: "Feat", nobility: "Nob", harmony: "Harm", philosophy: "Phil", oblivion: "Obl"};

  /* Black or white text, whichever reads on ``fill`` (a "#rrggbb" colour). */
  function inkOn(fill) {
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(fill.slice(at, at + 2), 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#222" : "#fff";
  }

  function seatColour(view, seat) {
    const index = view.seats.findIndex((entry) => entry.seat === seat);
    return SEAT_FILL[index % SEAT_FILL.length] || "#777";
  }

  function seatName(view, seat) {
    const entry = view.seats.find((candidate) => candidate.seat === seat);
    return entry ? entry.name : seat;
  }

  /* A lattice point as board coordinates (units of the hex's corner radius). */
  function point(a, b) {
    return [a + b / 2, (b * ROOT3) / 2];
  }

  function hexPoints(cx, cy, radius) {
    const corners = [];
    for (let k = 0; k < 6; k += 1) {
      const angle = (Math.PI / 3) * k;
      corners.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
    }
    return corners.join(" ");
  }

  /* Where the slot "z:a:b" is drawn, in SVG units: the lattice's origin is the middle of the pile. */
  function place(z, a, b) {
    const [x, y] = point(a, b);
    return [PILE.x + x * UNIT, PILE.y + (y - (z - 2) * LIFT) * UNIT];
  }


  function visibleCentre(tiles, components, z, a, b) {
    const open = components.above_offsets[z % 2].filter(([da, db]) => !tiles[`${z + 1}:${a + da}:${b + db}`]);
    const [x, y] = place(z, a, b);
    if (open.length === 3 || z === 4) {
      return {x, y, open: 3};
    }
    if (!open.length) {
      return {x, y, open: 0};
    }
    const shift = open.map(([da, db]) => point(da, db)).reduce((sum, [dx, dy]) => [sum[0] + dx, sum[1] + dy], [0, 0]);
    return {x: x + (shift[0] / open.length) * 0.5 * UNIT, y: y + (shift[1] / open.length) * 0.5 * UNIT, open: open.length};
  }

  function rifts(tile, cx, cy, offsets) {
    return (tile.rift || []).map((edge) => {
      const [dx, dy] = point(...offsets[edge]);
      const facing = Math.atan2(dy, dx);
      const ends = [facing - Math.PI / 6, facing + Math.PI / 6].map((angle) => [cx + UNIT * 0.97 * Math.cos(angle), cy + UNIT * 0.97 * Math.sin(angle)]);
      return el("line", {class: "rift", x1: ends[0][0].toFixed(1), y1: ends[0][1].toFixed(1), x2: ends[1][0].toFixed(1),
                         y2: ends[1][1].toFixed(1), stroke: "#b3261e", "stroke-width": 5, "stroke-linecap": "round"});
    });
  }

  function tileShape(key, z, tile, components) {
    const [, a, b] = key.split(":").map(Number);
    const [cx, cy] = place(z, a, b);
    const fill = (z === 4 && TERRAIN_MARK[tile.terrain]) || LAYER_FILL[z];
    const face = tile.face ? "face-up" : (tile.kind === "snow" ? "snow-back" : "face-down");
    return el("g", {class: "tile", "data-slot": key, "data-layer": z, "data-kind": tile.kind, "data-face": tile.face,
                    "data-terrain": tile.terrain, "data-side": face},
      el("polygon", {points: hexPoints(cx, cy + LIFT * UNIT, UNIT * 0.97), fill: LAYER_SIDE[z]}),
      el("polygon", {points: hexPoints(cx, cy, UNIT * 0.97), fill, stroke: LAYER_SIDE[z], "stroke-width": 1.5}),
      rifts(tile, cx, cy, components.neighbour_offsets));
  }

  function artifactLabel(face, components) {
    const facts = components.artifacts[face];
    if (!facts) {
      return {name: face, fill: "#ccc"};
    }
    const [type, shape, anima] = facts;
    return {name: type ? `${TYPE_SHORT[type]} ${shape} ${"✦".repeat(anima)}` : `Prism ${"✦".repeat(anima)}`,
            fill: TYPE_FILL[type || "prismatic"]};
  }

  function faceChip(x, y, tile, components) {
    if (tile.kind === "building") {
      return el("g", {class: "building-face"}, el("rect", {x: x - 24, y: y - 9, width: 48, height: 18, rx: 3, fill: "#fff8e6",
                                                            stroke: "#8a6a3c"}),
                text(x, y + 4, tile.face, {"text-anchor": "middle", "font-size": 11, fill: "#5a4020"}));
    }
    const label = artifactLabel(tile.face, components);
    return el("g", {class: "artifact-face"},
      el("rect", {x: x - 24, y: y - 8, width: 48, height: 16, rx: 8, fill: label.fill, stroke: "#222", "stroke-width": 0.6}),
      text(x, y + 3.5, label.name, {"text-anchor": "middle", "font-size": 8.5, fill: inkOn(label.fill)}));
  }

  function pieces(key, tile, spot, view) {
    const drawn = [];
    const leaders = Object.entries(view.state.leaders).filter(([, at]) => at === key).map(([seat]) => seat);
    let x = spot.x - 8 * (leaders.length + (tile.arch ? 1 : 0) + (tile.camp ? 1 : 0) + (tile.smilodon ? 1 : 0) - 1);
    const y = tile.face ? spot.y + 16 : spot.y;
    if (tile.camp) {
      drawn.push(el("polygon", {class: "camp", "data-slot": key, points: `${x - 8},${y + 7} ${x + 8},${y + 7} ${x},${y - 8}`,
                                fill: "#7a4b1c", stroke: "#fff", "stroke-width": 1}));
      x += 16;
    }
    if (tile.arch) {
      drawn.push(el("g", {class: "archaeologists", "data-slot": key, "data-count": tile.arch},
        el("circle", {cx: x, cy: y, r: 7, fill: "#eee", stroke: "#333", "stroke-width": 1.2}),
        text(x, y + 3.5, tile.arch, {"text-anchor": "middle", "font-size": 10, "font-weight": "bold"})));
      x += 16;
    }
    for (const seat of leaders) {
      drawn.push(el("g", {class: "leader", "data-seat": seat, "data-slot": key},
        el("circle", {cx: x, cy: y, r: 8, fill: seatColour(view, seat), stroke: "#fff", "stroke-width": 2}),
        text(x, y + 3.5, seat.replace("p", ""), {"text-anchor": "middle", "font-size": 10, fill: "#fff", "font-weight": "bold"})));
      x += 16;
    }
    if (tile.smilodon) {
      const colour = tile.smilodon === "logbook" ? "#f07c00" : seatColour(view, tile.smilodon);
      drawn.push(el("g", {class: "smilodon", "data-slot": key, "data-owner": tile.smilodon},
        el("rect", {x: x - 7, y: y - 7, width: 14, height: 14, rx: 2, fill: colour, stroke: "#000"}),
        text(x, y + 4, "S", {"text-anchor": "middle", "font-size": 10, fill: "#fff"})));
    }
    return drawn;
  }

  function pile(view, components) {
    const tiles = view.state.tiles;
    const drawn = [];
    for (const layer of components.layers) {
      const z = layer.z;
      for (const [a, b] of layer.slots) {
        const key = `${z}:${a}:${b}`;
        const nothingOver = components.above_offsets[z % 2].every(([da, db]) => !tiles[`${z + 1}:${a + da}:${b + db}`]);
        if (!tiles[key] && nothingOver && z > 0) {
          const [cx, cy] = place(z, a, b);
          drawn.push(el("polygon", {class: "empty-slot", "data-slot": key, points: hexPoints(cx, cy, UNIT * 0.9),
                                    fill: "none", stroke: "#7d93a8", "stroke-dasharray": "4 4", "stroke-width": 1}));
        }
      }
      const labels = [];
      for (const [key, tile] of Object.entries(tiles)) {
        const [tz, a, b] = key.split(":").map(Number);
        if (tz !== z) {
          continue;
        }
        drawn.push(tileShape(key, z, tile, components));
        const spot = visibleCentre(tiles, components, z, a, b);
        if (!spot.open) {
          continue;
        }
        if (tile.face) {
          labels.push(faceChip(spot.x, spot.y - (tile.arch || tile.camp || tile.smilodon ? 6 : 0), tile, components));
        } else if (z === 4 && tile.terrain && tile.terrain !== "T-CLR") {
          labels.push(text(spot.x, spot.y - 14, components.terrains[tile.terrain] || tile.terrain,
                           {"text-anchor": "middle", "font-size": 9, fill: "#345"}));
        }
        labels.push(...pieces(key, tile, spot, view));
      }
      drawn.push(el("g", {class: "layer", "data-layer": z}, labels));
    }
    const legend = components.layers.map((layer, index) => el("g", {class: "legend"},
      el("rect", {x: 16, y: 16 + index * 20, width: 16, height: 14, fill: LAYER_FILL[layer.z], stroke: LAYER_SIDE[layer.z]}),
      text(38, 28 + index * 20, `${layer.z} ${layer.name}`, {"font-size": 12})));
    return [el("rect", {x: 0, y: 0, width: PANEL - 16, height: 720, fill: "#dfe8ef"}), ...drawn, ...legend];
  }

  function cardBack(x, y, width, height, what, attributes) {
    return el("g", {class: "back", "data-back": what, ...(attributes || {})},
      el("rect", {x, y, width, height, rx: 3, fill: "#4a5d73", stroke: "#223"}),
      el("path", {d: `M${x + 4} ${y + height - 4} L${x + width - 4} ${y + 4}`, stroke: "#8fa3b8", "stroke-width": 1}));
  }

  function chip(x, y, label, fill, attributes, width) {
    const wide = width || Math.max(44, label.length * 6.2 + 10);
    return [el("g", attributes, el("rect", {x, y, width: wide, height: 18, rx: 4, fill, stroke: "#333", "stroke-width": 0.6}),
                text(x + wide / 2, y + 13, label, {"text-anchor": "middle", "font-size": 10.5, fill: inkOn(fill)})), wide];
  }

  /* A row of chips that wraps within the panel; each item is [label, fill, attributes]. */
  function chipRow(x, y, items, right) {
    const drawn = [];
    let at = x;
    let row = y;
    for (const [label, fill, attributes, width] of items) {
      const wide = width || Math.max(44, label.length * 6.2 + 10);
      if (at + wide > right) {
        at = x;
        row += 22;
      }
      drawn.push(chip(at, row, label, fill, attributes, width)[0]);
      at += wide + 4;
    }
    return [drawn, row + (items.length ? 22 : 0)];
  }

  function requestLabel(card) {
    const types = (card.types || []).map((type) => TYPE_SHORT[type] || type).join("+");
    const reward = card.rewards_by_shapes ? card.rewards_by_shapes.join("/") : card.reward;
    const anima = card.anima ? ` ${card.anima}✦` : "";
    return `${card.kind.replace("K-", "")} ${types}${anima} → ${reward} RP`;
  }

  function cityPanel(view, components, x, y) {
    const state = view.state;
    const rows = [];
    const status = view.status === "ended" || state.phase === "over" ? "game over" : `day ${state.day}, ${state.phase}`;
    rows.push(text(x, y, `I C E Expedition · ${status}`, {"font-size": 16, "font-weight": "bold"}));
    const who = state.active ? `${seatName(view, state.active)}'s turn` : "";
    const waiting = state.waiting ? ` · waiting: ${seatName(view, state.waiting.seat)} (${state.waiting.kind})` : "";
    rows.push(text(x, y + 20, `first player ${seatName(view, state.first_player)} · ${who}${waiting}`, {"font-size": 12}));
    rows.push(text(x, y + 44, "The city's decrees", {"font-size": 13, "font-weight": "bold"}));
    const [decrees, afterDecrees] = chipRow(x, y + 50, state.decrees.map((id) => [components.decrees[id] || id, "#fff8e6",
      {class: "decree", "data-card": id}]), x + PANEL_WIDTH - 20);
    rows.push(...decrees);
    const reserve = state.reserve;
    const facts = [`request deck ${state.request_deck}`, `discard ${state.request_discard.length}`,
                   `snowflakes ${state.snowflake_pool}`, `bag ${state.bag_count}`];
    rows.push(text(x, afterDecrees + 14, facts.join(" · "), {"font-size": 12, class: "decks"}));
    rows.push(text(x, afterDecrees + 30, `reserve: ${reserve.archaeologists} archaeologists · ${reserve.camps} camps · ` +
                   `${reserve.smilodons} Smilodons · logbook ${state.logbook_revealed.length} cards`, {"font-size": 12, class: "reserve"}));
    return [rows, afterDecrees + 44];
  }

  function seatPanel(view, components, seat, player, x, y, reader) {
    const right = x + PANEL_WIDTH - 20;
    const drawn = [];
    const colour = seatColour(view, seat);
    const score = view.score && view.score.totals ? view.score.totals[seat] : null;
    const leader = view.state.leaders[seat];
    drawn.push(el("rect", {x: x - 6, y: y - 14, width: PANEL_WIDTH - 8, height: 4, fill: colour}));
    const guild = player.guild ? components.guilds[player.guild] || player.guild : "no guild yet";
    const points = score === null || score === undefined ? `${player.rp} RP` : `${player.rp} RP held · ${score} points`;
    drawn.push(text(x, y + 4, `${seatName(view, seat)} (${seat}) · ${guild}`, {"font-size": 13, "font-weight": "bold", fill: colour}));
    drawn.push(text(x, y + 20, `${points} · ${player.ep} EP · plans ${player.plans} · leader ${leader ? `on ${leader}` : "off the board"}`,
                    {"font-size": 12, class: "points", "data-seat": seat, "data-rp": player.rp}));
    const items = player.artifacts.map((id) => {
      const label = artifactLabel(id, components);
      return [label.name, label.fill, {class: "artifact", "data-card": id, "data-seat": seat}];
    });
    const city = player.city
      ? player.city.map((id) => [`city: ${artifactLabel(id, components).name}`, artifactLabel(id, components).fill,
                                 {class: "city", "data-card": id, "data-seat": seat}])
      : [];
    let [row, after] = chipRow(x, y + 28, [...items, ...city], right);
    drawn.push(...row);
    let at = after;
    const backs = [];
    if (!player.city && player.city_count) {
      backs.push(["city", player.city_count]);
    }
    if (!player.requests && player.request_count) {
      backs.push(["request", player.request_count]);
    }
    if (!player.hand && player.hand_count) {
      backs.push(["snow-tile", player.hand_count]);
    }
    let bx = x;
    for (const [what, count] of backs) {
      drawn.push(text(bx, at + 13, `${what.replace("-", " ")}s`, {"font-size": 11}));
      bx += 62;
      for (let n = 0; n < count; n += 1) {
        drawn.push(cardBack(bx, at, 14, 18, what, {"data-seat": seat}));
        bx += 17;
      }
      bx += 12;
    }
    if (backs.length) {
      at += 22;
    }
    if (player.requests) {
      const requests = [...player.requests, ...(player.drawn_requests || [])].map((card) =>
        [requestLabel(card), "#fffbe0", {class: "request", "data-card": card.id, "data-seat": seat, "data-pick": card.id}]);
      [row, at] = chipRow(x, at, requests, right);
      drawn.push(...row);
    }
    if (player.hand) {
      const hand = player.hand.map((tile) => [`${components.terrains[tile.terrain] || "snow"}: ` +
        `${tile.effect ? components.effects[tile.effect.split("(")[0]] || tile.effect : "unknown front"}`,
        "#e8f1f8", {class: "snow-tile", "data-card": tile.id, "data-seat": seat}]);
      [row, at] = chipRow(x, at, hand, right);
      drawn.push(...row);
    }
    const reading = reader === seat ? el("text", {x: right - 4, y: y + 4, "text-anchor": "end", "font-size": 11, fill: "#555"}, "you") : null;
    return [[el("g", {class: "seat", "data-seat": seat}, drawn, reading)], at + 18];
  }

  function draw(view, context) {
    const components = context.components;
    const reader = context.reader;
    const [city, afterCity] = cityPanel(view, components, PANEL, 30);
    const panels = [];
    let y = afterCity + 20;
    for (const [seat, player] of Object.entries(view.state.players)) {
      const [drawn, after] = seatPanel(view, components, seat, player, PANEL, y, reader);
      panels.push(...drawn);
      y = after;
    }
    const height = Math.max(720, y);
    return board("ice-expedition", PANEL + PANEL_WIDTH, height,
      el("rect", {x: 0, y: 0, width: PANEL + PANEL_WIDTH, height, fill: "#f7f9fb"}),
      el("g", {class: "pile"}, pile(view, components)),
      el("g", {class: "city"}, city),
      ...panels);
  }

  CairnBoards.register("ice-expedition", draw);
  /* A move names a request card, a guild or a decree by its id ("R17"); the words are what the card says. */
  CairnBoards.registerDescriber("ice-expedition", (value, components) => {
    const request = (components.requests || {})[value];
    if (request) {
      return `${requestLabel(request)} (${value})`;
    }
    return (components.guilds || {})[value] || (components.decrees || {})[value] || value;
  });
})();
