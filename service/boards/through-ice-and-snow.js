/* Through Ice and Snow: the route through the Arctic with the fleet on it, and each seat's player board.
 *
 * The map is drawn from the catalogue's anchors (their printed coordinates) and routes: a section shows its
 * placed side's routes, a section not yet placed is a grey band. Every seat's ship sits at the fleet's anchor.
 * A player board is its tracks (fuel, food, health, morale, towing, sled, dogs, Inuit and whatever a module
 * adds), crew, resources and cards by name. A card dealt to another seat is a back; a card nobody holds is not
 * drawn at all. An anchor is a pick (anchor=<id>) for the moves that name it, and a move's words name an anchor
 * by its region.
 *
 * The whole board is about twice as wide as it is tall, so a table page holds it on one screen: the title and
 * the decks share a line, the table's notes sit in two columns under the map, and the player boards stand side
 * by side, each with its tracks two or three to a row. Its text is 13 to 18 units high (the map's labels 10 to
 * 13), at least 9.5 pixels on a 1366-pixel-wide screen.
 */
(function () {
  "use strict";
  const {el, text, board, escapeText} = CairnBoards;
  const WIDTH = 1400;
  const MAP = {left: -110, top: 84, x: 36, y: 27};
  const MAP_BOTTOM = MAP.top + 10 * MAP.y + 38;
  // Text sizes (SVG units) and the width of an average character, for laying text out without measuring it
  // (a card's name, in capitals more often, takes wider ones).
  const SIZE = {title: 18, name: 16, line: 15, small: 14, card: 13.5};
  const CHAR = 0.53;
  const CARD_CHAR = 0.6;
  const SEAT_FILL = ["#d9534f", "#2a6fdb", "#3c9d4f", "#e0a800"];
  const TRACKS = ["fuel", "health", "morale", "towing", "sled", "dogs", "inuit"];
  const BASE_KEYS = new Set(["vp", "food", "health", "morale", "fuel", "sled", "dogs", "inuit", "towing", "dynamite",
    "wood", "rifle", "crew", "free", "hired", "upgrades", "subst_used", "species", "cabins", "passed", "turns",
    "kept_events", "times_leader", "explores", "booth_ok", "seat", "investor", "investor_dealt", "carto", "carto_dealt",
    "explorer", "explorer_dealt", "ship", "ship_dealt", "explorer_event", "explorer_event_dealt", "no_vp_gains"]);
  const MODULE_KEYS = ["lost", "magnetic", "epidemic", "amundsen", "walking", "myths", "legendary", "explorers",
                       "survival_paid", "shelters_on"];
  const ROUTE_STYLE = {N: {dash: "6 4", name: "broken ice"}, IC: {dash: "2 3", name: "ice"},
                       WK: {dash: "1 5", name: "walking"}, BI: {dash: "8 3", name: "broken ice"}};

  function seatIndex(view, seat) {
    return view.seats.findIndex((entry) => entry.seat === seat);
  }

  function seatColour(view, seat) {
    return SEAT_FILL[seatIndex(view, seat)] || "#777";
  }

  function seatName(view, seat) {
    const entry = view.seats[seatIndex(view, seat)];
    return entry ? entry.name : seat;
  }

  function at(anchor) {
    return [MAP.left + anchor.x * MAP.x, MAP.top + anchor.y * MAP.y];
  }

  /* Walking on Ice replaces Central-West and West with its own sections (the engine's map variant). */
  function mapVariant(view) {
    return view.options.walking_on_ice ? "walking" : "base";
  }

  function onThisMap(item, variant) {
    return !item.variant || item.variant === variant;
  }

  function sectionBands(view, components) {
    const anchors = Object.values(components.anchors);
    return components.sections.map((section) => {
      const xs = anchors.filter((anchor) => anchor.sections.includes(section) && onThisMap(anchor, mapVariant(view)))
        .map((anchor) => at(anchor)[0]);
      const left = Math.min(...xs) - 24;
      const right = Math.max(...xs) + 24;
      const side = view.state.sections[section];
      return el("g", {class: "section", "data-section": section, "data-side": side || "unplaced"},
        el("rect", {x: left, y: MAP.top - 38, width: right - left, height: MAP_BOTTOM - MAP.top + 38, rx: 8,
                    fill: side ? "#d4e6f3" : "#e4e4e4", stroke: side ? "#8fb3cf" : "#bbb", "stroke-dasharray": side ? null : "5 4",
                    opacity: 0.8}),
        text((left + right) / 2, MAP.top - 24, `${section} ${side ? `side ${side}` : "not yet placed"}`,
             {"text-anchor": "middle", "font-size": SIZE.small, fill: "#456"}));
    });
  }

  function routes(view, components) {
    const variant = mapVariant(view);
    return components.routes.filter((route) => view.state.sections[route.section]
        && route.sides.includes(view.state.sections[route.section]) && onThisMap(route, variant))
      .map((route) => {
        const [x1, y1] = at(components.anchors[route.from]);
        const [x2, y2] = at(components.anchors[route.to]);
        const style = ROUTE_STYLE[route.type] || {};
        return el("line", {class: "route", "data-from": route.from, "data-to": route.to, "data-type": route.type, x1, y1, x2, y2,
                           stroke: route.extra_dynamite ? "#b3261e" : "#31658f", "stroke-width": 2.5,
                           "stroke-dasharray": style.dash});
      });
  }

  function anchors(view, components) {
    const state = view.state;
    const variant = mapVariant(view);
    const cabins = new Set([...(state.cabins_on || []), ...(state.shelters_on || [])]);
    return Object.entries(components.anchors).filter(([, anchor]) => onThisMap(anchor, variant)).map(([key, anchor]) => {
      const [x, y] = at(anchor);
      const mapped = state.mapped[anchor.region];
      const final = key === components.final_anchor || anchor.final;
      const shape = anchor.island
        ? el("circle", {cx: x, cy: y, r: 9, fill: "#fdfdf8", stroke: "#4b6b3c", "stroke-width": 2})
        : el("rect", {x: x - 9, y: y - 9, width: 18, height: 18, fill: "#eee3c6", stroke: "#7a5d2a", "stroke-width": 2});
      const dynamite = state.dynamite_on[key];
      return el("g", {class: "anchor", "data-anchor": key, "data-region": anchor.region, "data-mapped-by": mapped,
                      "data-pick": `anchor=${key}`},
        mapped ? el("circle", {cx: x, cy: y, r: 13, fill: "none", stroke: seatColour(view, mapped), "stroke-width": 3}) : null,
        shape,
        final ? text(x, y + 4, "⚑", {"text-anchor": "middle", "font-size": 12}) : null,
        text(x, y + 23, anchor.region, {"text-anchor": "middle", "font-size": 13, fill: "#233"}),
        final ? text(x, y + 35, "end of the Passage", {"text-anchor": "middle", "font-size": 11, fill: "#233"}) : null,
        anchor.final_round ? text(x, y - 13, "final round", {"text-anchor": "middle", "font-size": 11, fill: "#a33"}) : null,
        dynamite ? el("g", {class: "dynamite", "data-anchor": key, "data-count": dynamite},
          el("rect", {x: x + 9, y: y - 15, width: 6, height: 12, fill: "#c62828"}),
          text(x + 20, y - 5, dynamite, {"font-size": 12, fill: "#c62828"})) : null,
        cabins.has(key) ? el("polygon", {class: "cabin", points: `${x - 16},${y + 4} ${x - 10},${y - 4} ${x - 4},${y + 4}`, fill: "#7a4b1c"}) : null);
    });
  }

  function fleet(view, components) {
    const anchor = components.anchors[view.state.anchor];
    if (!anchor) {
      return [];
    }
    const [x, y] = at(anchor);
    const drawn = [];
    const destination = components.anchors[view.state.destination];
    if (destination && view.state.destination !== view.state.anchor) {
      const [dx, dy] = at(destination);
      drawn.push(el("circle", {class: "destination", "data-anchor": view.state.destination, cx: dx, cy: dy, r: 16, fill: "none",
                               stroke: "#e07b00", "stroke-width": 3, "stroke-dasharray": "4 3"}));
    }
    view.state.players.forEach((player, index) => {
      const sx = x - 14 + (index % 2) * 28;
      const sy = y - 30 - Math.floor(index / 2) * 14;
      drawn.push(el("g", {class: "ship", "data-seat": player.seat, "data-anchor": view.state.anchor},
        el("path", {d: `M${sx - 12} ${sy} L${sx + 12} ${sy} L${sx + 8} ${sy + 7} L${sx - 8} ${sy + 7} Z`,
                    fill: seatColour(view, player.seat), stroke: "#222"}),
        el("line", {x1: sx, y1: sy, x2: sx, y2: sy - 10, stroke: "#222", "stroke-width": 1.5})));
    });
    return drawn;
  }

  function cardName(kind, id, components) {
    const names = {
      investor: () => components.investors[id],
      carto: () => `${id}: ${(components.cartography[id] || []).join(", ")}`,
      explorer: () => components.explorers[id],
      ship: () => components.ships[id],
      explorer_event: () => components.events[String(Number(String(id).slice(2)))],
      event: () => components.events[String(Number(String(id).slice(2)))],
      species: () => components.species[id],
      hunting: () => components.hunting[id],
      upgrade: () => components.upgrades[String(id)],
    };
    return (names[kind] && names[kind]()) || String(id);
  }

  /* A face-up card named `label`; one wider than `room` is cut short, its whole name in its tooltip. */
  function card(x, y, label, attributes, fill, room) {
    const most = Math.floor(((room ?? Infinity) - 10) / (SIZE.card * CARD_CHAR));
    const shown = label.length > most ? `${label.slice(0, most - 1)}…` : label;
    const width = Math.max(40, shown.length * SIZE.card * CARD_CHAR + 10);
    return [el("g", attributes, shown !== label ? CairnBoards.tip(label) : null,
               el("rect", {x, y, width, height: 20, rx: 3, fill: fill || "#fffbe8", stroke: "#7a6a40"}),
               text(x + 5, y + 14.5, shown, {"font-size": SIZE.card})), width];
  }

  function back(x, y, kind, seat) {
    return [el("g", {class: "back", "data-back": kind, "data-seat": seat},
      el("rect", {x, y, width: 14, height: 20, rx: 2, fill: "#4a5d73", stroke: "#223"}),
      el("path", {d: `M${x + 3} ${y + 17} L${x + 11} ${y + 3}`, stroke: "#8fa3b8"})), 14];
  }

  /* Lays out cards left to right, wrapping inside the board: each item draws itself at (x, y) within a row's
   * width and says its width. */
  function flow(x, y, right, items) {
    const drawn = [];
    let cx = x;
    let cy = y;
    for (const item of items) {
      let [shape, width] = item(cx, cy, right - x);
      if (cx + width > right && cx > x) {
        cx = x;
        cy += 23;
        [shape, width] = item(cx, cy, right - x);
      }
      drawn.push(shape);
      cx += width + 4;
    }
    return [drawn, items.length ? cy + 25 : cy];
  }

  /* One <text> of as many lines as `content` needs within `width`, broken between words; and its height. */
  function wrapped(x, y, width, content, size, attributes) {
    const most = Math.max(8, Math.floor(width / (size * CHAR)));
    const lines = [];
    for (const word of String(content).split(" ")) {
      const last = lines.length - 1;
      if (last >= 0 && (lines[last] + " " + word).length <= most) {
        lines[last] += " " + word;
      } else {
        lines.push(word);
      }
    }
    const step = size + 3;
    return [el("text", {x, y: y + size, "font-size": size, ...(attributes || {})},
      lines.map((line, index) => el("tspan", {x, dy: index ? step : 0}, escapeText(line)))), lines.length * step];
  }

  function dealtCards(player, seat, components) {
    const items = [];
    for (const kind of ["investor", "carto", "explorer", "ship", "explorer_event"]) {
      const chosen = player[kind];
      const dealt = player[`${kind}_dealt`];
      if (chosen) {
        items.push((x, y, room) => card(x, y, `${kind.replace("_", " ")}: ${cardName(kind, chosen, components)}`,
                                        {class: "dealt-card", "data-card": chosen, "data-kind": kind, "data-seat": seat},
                                        "#eef5e0", room));
      } else if (typeof dealt === "number") {
        for (let n = 0; n < dealt; n += 1) {
          items.push((x, y) => back(x, y, kind, seat));
        }
      } else if (Array.isArray(dealt)) {
        for (const id of dealt) {
          items.push((x, y, room) => card(x, y, `${kind} to choose: ${cardName(kind, id, components)}`,
                                          {class: "dealt-card", "data-card": id, "data-kind": kind, "data-seat": seat},
                                          null, room));
        }
      }
    }
    return items;
  }

  /* A track in `width` units: its name, a bar filled to the value, and the value against the track's top. */
  function trackBar(x, y, width, name, value, track, seat) {
    const low = track.min ?? 0;
    const high = track.max ?? Math.max(value, 10);
    const bar = width - 52 - 44;
    const filled = high === low ? 0 : ((value - low) / (high - low)) * bar;
    return el("g", {class: "track", "data-track": name, "data-seat": seat, "data-value": value},
      text(x, y + 12, name, {"font-size": SIZE.card}),
      el("rect", {x: x + 52, y: y + 2, width: bar, height: 11, fill: "#eef1f4", stroke: "#9aa"}),
      el("rect", {x: x + 52, y: y + 2, width: Math.max(0, filled), height: 11, fill: "#5b8fb9"}),
      text(x + width, y + 12, `${value}/${high}`, {"font-size": SIZE.card, "text-anchor": "end"}));
  }

  function playerBoard(view, components, player, x, y, width, reader) {
    const seat = player.seat;
    const inner = width - 14;
    const right = x + inner;
    const drawn = [];
    const colour = seatColour(view, seat);
    drawn.push(el("rect", {x, y, width: inner, height: 4, fill: colour}));
    drawn.push(text(x + 2, y + 22, `${seatName(view, seat)} (${seat})${reader === seat ? " · you" : ""}`,
                    {"font-size": SIZE.name, "font-weight": "bold", fill: colour}));
    const leader = view.state.leader === seat ? " · leader" : "";
    drawn.push(text(x + 2, y + 41, `${player.vp} VP · food ${player.food}${leader}${player.passed ? " · passed" : ""}`,
                    {"font-size": SIZE.line, class: "vp", "data-seat": seat, "data-vp": player.vp}));
    let row = y + 48;
    const tracks = TRACKS.filter((name) => typeof player[name] === "number");
    const perRow = inner >= 480 ? 3 : 2;
    const column = inner / perRow;
    tracks.forEach((name, index) => {
      drawn.push(trackBar(x + 2 + (index % perRow) * column, row + Math.floor(index / perRow) * 17, column - 14, name,
                          player[name], components.tracks[name] || {}, seat));
    });
    row += Math.ceil(tracks.length / perRow) * 17 + 2;
    const lines = [];
    const extras = Object.entries(player).filter(([key, value]) => !BASE_KEYS.has(key) && value !== null && value !== false
                                                  && typeof value !== "object");
    if (extras.length) {
      lines.push([extras.map(([key, value]) => `${key.replace(/_/g, " ")} ${value === true ? "✓" : value}`).join(" · "),
                  "module-tracks"]);
    }
    lines.push([`dynamite ${player.dynamite} · wood ${player.wood} · rifles ${player.rifle} · cabins ${player.cabins}`,
                "resources"]);
    const crew = Object.entries(player.crew).filter(([, count]) => count).map(([kind, count]) => `${kind} ${player.free[kind]}/${count}`);
    lines.push([`crew (free/aboard): ${crew.join(", ")}`, "crew"]);
    for (const [content, name] of lines) {
      const [shape, height] = wrapped(x + 2, row, inner - 4, content, SIZE.small, {class: name, "data-seat": seat});
      drawn.push(shape);
      row += height;
    }
    const items = [
      ...player.upgrades.map((number) => (cx, cy, room) => card(cx, cy, cardName("upgrade", number, components),
        {class: "upgrade", "data-card": number, "data-seat": seat}, "#e8eef6", room)),
      ...player.species.map((id) => (cx, cy, room) => card(cx, cy, cardName("species", id, components),
        {class: "species", "data-card": id, "data-seat": seat}, "#eaf6ea", room)),
      ...player.kept_events.map((id) => (cx, cy, room) => card(cx, cy, cardName("event", id, components),
        {class: "kept-event", "data-card": id, "data-seat": seat}, null, room)),
      ...dealtCards(player, seat, components),
    ];
    const [cards, after] = flow(x + 2, row + 4, right, items);
    drawn.push(...cards);
    return [el("g", {class: "player-board", "data-seat": seat}, drawn), after];
  }

  function summary(value) {
    if (Array.isArray(value)) {
      return value.length ? value.join(", ") : "none";
    }
    if (value && typeof value === "object") {
      return Object.entries(value).map(([key, item]) => `${key.replace(/_/g, " ")}: ${typeof item === "object" && item !== null
        ? JSON.stringify(item) : item}`).join(" · ");
    }
    return String(value);
  }

  /* The title and the decks on the first line; under the map, the revealed cards and then the table's notes
   * (what is discovered, the supply, each module's state) in two columns. */
  function tableInfo(view, components) {
    const state = view.state;
    const lines = [];
    const over = state.over ? ` · over: ${state.over.outcome}` : "";
    const scenario = view.options.scenario ? ` · solo: ${view.options.scenario.replace(/_/g, " ")}` : "";
    lines.push(text(14, 22, `Through Ice and Snow · round ${state.round} · ${state.phase}${state.final_voyage ? " · final voyage" : ""}` +
                    `${scenario}${over}`, {"font-size": SIZE.title, "font-weight": "bold"}));
    const event = state.event_card ? `event: ${state.event_card.name}` : "no event";
    const decks = `coastal deck ${state.deck_sizes.coastal} · open sea deck ${state.deck_sizes.open_sea} · ${event}`;
    lines.push(text(WIDTH - 14, 22, decks, {"font-size": SIZE.line, class: "event-decks", "text-anchor": "end"}));
    const revealed = [
      ...state.revealed.hunting.map((id) => (x, cy, room) => card(x, cy, `hunt: ${cardName("hunting", id, components)}`,
        {class: "revealed", "data-card": id}, "#f6ece0", room)),
      ...state.revealed.species.map((id) => (x, cy, room) => card(x, cy, `species: ${cardName("species", id, components)}`,
        {class: "revealed", "data-card": id}, "#eaf6ea", room)),
    ];
    const [shown, after] = flow(14, MAP_BOTTOM + 6, WIDTH - 14, revealed);
    lines.push(...shown);
    const supply = Object.entries(state.supply).map(([kind, count]) => `${kind} ${count}`).join(" · ");
    const notes = [[`discovered: ${state.discovered.join(", ") || "none"} · supply: ${supply}`, {}]];
    for (const key of MODULE_KEYS.filter((name) => state[name] !== undefined
                                               && !(Array.isArray(state[name]) && !state[name].length))) {
      notes.push([`${key.replace(/_/g, " ")} · ${summary(state[key])}`.slice(0, 230), {class: "module", "data-module": key}]);
    }
    const half = notes.length > 1 ? (WIDTH - 28) / 2 : WIDTH - 14;
    const heights = [0, 0];
    notes.forEach(([content, attributes], index) => {
      const side = notes.length > 1 && index >= Math.ceil(notes.length / 2) ? 1 : 0;
      const [shape, height] = wrapped(14 + side * (half + 14), after + heights[side], half - 14, content, SIZE.small, attributes);
      lines.push(shape);
      heights[side] += height;
    });
    return [lines, after + Math.max(...heights)];
  }

  function draw(view, context) {
    const components = context.components;
    const [info, afterInfo] = tableInfo(view, components);
    const players = view.state.players;
    const width = (WIDTH - 12) / Math.max(2, players.length);
    let bottom = afterInfo;
    const boards = players.map((player, index) => {
      const [drawn, after] = playerBoard(view, components, player, 12 + index * width, afterInfo + 6, width, context.reader);
      bottom = Math.max(bottom, after);
      return drawn;
    });
    const height = bottom + 6;
    return board("through-ice-and-snow", WIDTH, height,
      el("rect", {x: 0, y: 0, width: WIDTH, height, fill: "#f7f9fb"}),
      el("g", {class: "map"}, sectionBands(view, components), routes(view, components), anchors(view, components),
         fleet(view, components)),
      info, boards);
  }

  CairnBoards.register("through-ice-and-snow", draw);
  /* A move names an anchor by its id ("C2"); the map shows its region, so the words say both. */
  CairnBoards.registerDescriber("through-ice-and-snow", (value, components) => {
    const anchor = (components.anchors || {})[value];
    return anchor ? `${anchor.region} (${value})` : value;
  });
})();
