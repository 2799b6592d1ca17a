/* Through Ice and Snow: the route through the Arctic with the fleet on it, and each seat's player board.
 *
 * The map is drawn from the catalogue's anchors (their printed coordinates) and routes: a section shows its
 * placed side's routes, a section not yet placed is a grey band. Every seat's ship sits at the fleet's anchor.
 * A player board is its tracks (fuel, food, health, morale, towing, sled, dogs, Inuit and whatever a module
 * adds), crew, resources and cards by name. A card dealt to another seat is a back; a card nobody holds is not
 * drawn at all.
 */
(function () {
  "use strict";
  const {el, text, board} = CairnBoards;
  const WIDTH = 1400;
  const MAP = {left: -110, top: 110, x: 36, y: 30};
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
        el("rect", {x: left, y: MAP.top - 40, width: right - left, height: 11 * MAP.y + 50, rx: 8,
                    fill: side ? "#d4e6f3" : "#e4e4e4", stroke: side ? "#8fb3cf" : "#bbb", "stroke-dasharray": side ? null : "5 4",
                    opacity: 0.8}),
        text((left + right) / 2, MAP.top - 26, `${section} ${side ? `side ${side}` : "not yet placed"}`,
             {"text-anchor": "middle", "font-size": 11, fill: "#456"}));
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
      return el("g", {class: "anchor", "data-anchor": key, "data-region": anchor.region, "data-mapped-by": mapped},
        mapped ? el("circle", {cx: x, cy: y, r: 13, fill: "none", stroke: seatColour(view, mapped), "stroke-width": 3}) : null,
        shape,
        final ? text(x, y + 4, "⚑", {"text-anchor": "middle", "font-size": 12}) : null,
        text(x, y + 24, anchor.region, {"text-anchor": "middle", "font-size": 10, fill: "#233"}),
        final ? text(x, y + 36, "end of the Passage", {"text-anchor": "middle", "font-size": 9, fill: "#233"}) : null,
        anchor.final_round ? text(x, y - 14, "final round", {"text-anchor": "middle", "font-size": 8, fill: "#a33"}) : null,
        dynamite ? el("g", {class: "dynamite", "data-anchor": key, "data-count": dynamite},
          el("rect", {x: x + 9, y: y - 15, width: 6, height: 12, fill: "#c62828"}),
          text(x + 20, y - 5, dynamite, {"font-size": 10, fill: "#c62828"})) : null,
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

  function card(x, y, label, attributes, fill) {
    const width = Math.max(40, label.length * 5.8 + 10);
    return [el("g", attributes, el("rect", {x, y, width, height: 17, rx: 3, fill: fill || "#fffbe8", stroke: "#7a6a40"}),
               text(x + 5, y + 12, label, {"font-size": 10})), width];
  }

  function back(x, y, kind, seat) {
    return [el("g", {class: "back", "data-back": kind, "data-seat": seat},
      el("rect", {x, y, width: 14, height: 17, rx: 2, fill: "#4a5d73", stroke: "#223"}),
      el("path", {d: `M${x + 3} ${y + 14} L${x + 11} ${y + 3}`, stroke: "#8fa3b8"})), 14];
  }

  /* Lays out cards left to right, wrapping inside the board: each item draws itself at (x, y) and says its width. */
  function flow(x, y, right, items) {
    const drawn = [];
    let cx = x;
    let cy = y;
    for (const item of items) {
      let [shape, width] = item(cx, cy);
      if (cx + width > right && cx > x) {
        cx = x;
        cy += 20;
        [shape, width] = item(cx, cy);
      }
      drawn.push(shape);
      cx += width + 4;
    }
    return [drawn, items.length ? cy + 22 : cy];
  }

  function dealtCards(player, seat, components) {
    const items = [];
    for (const kind of ["investor", "carto", "explorer", "ship", "explorer_event"]) {
      const chosen = player[kind];
      const dealt = player[`${kind}_dealt`];
      if (chosen) {
        items.push((x, y) => card(x, y, `${kind.replace("_", " ")}: ${cardName(kind, chosen, components)}`,
                                  {class: "dealt-card", "data-card": chosen, "data-kind": kind, "data-seat": seat}, "#eef5e0"));
      } else if (typeof dealt === "number") {
        for (let n = 0; n < dealt; n += 1) {
          items.push((x, y) => back(x, y, kind, seat));
        }
      } else if (Array.isArray(dealt)) {
        for (const id of dealt) {
          items.push((x, y) => card(x, y, `${kind} to choose: ${cardName(kind, id, components)}`,
                                    {class: "dealt-card", "data-card": id, "data-kind": kind, "data-seat": seat}));
        }
      }
    }
    return items;
  }

  function trackBar(x, y, name, value, track, seat) {
    const low = track.min ?? 0;
    const high = track.max ?? Math.max(value, 10);
    const width = 150;
    const filled = high === low ? 0 : ((value - low) / (high - low)) * width;
    return el("g", {class: "track", "data-track": name, "data-seat": seat, "data-value": value},
      text(x, y + 10, name, {"font-size": 11}),
      el("rect", {x: x + 52, y, width, height: 11, fill: "#eef1f4", stroke: "#9aa"}),
      el("rect", {x: x + 52, y, width: Math.max(0, filled), height: 11, fill: "#5b8fb9"}),
      text(x + 52 + width + 6, y + 10, `${value} / ${high}`, {"font-size": 11}));
  }

  function playerBoard(view, components, player, x, y, width, reader) {
    const seat = player.seat;
    const right = x + width - 10;
    const drawn = [];
    const colour = seatColour(view, seat);
    drawn.push(el("rect", {x, y, width: width - 8, height: 4, fill: colour}));
    drawn.push(text(x + 4, y + 20, `${seatName(view, seat)} (${seat})${reader === seat ? " · you" : ""}`,
                    {"font-size": 13, "font-weight": "bold", fill: colour}));
    const leader = view.state.leader === seat ? " · leader" : "";
    drawn.push(text(x + 4, y + 36, `${player.vp} VP · food ${player.food}${leader}${player.passed ? " · passed" : ""}`,
                    {"font-size": 12, class: "vp", "data-seat": seat, "data-vp": player.vp}));
    let row = y + 44;
    for (const name of TRACKS) {
      if (typeof player[name] === "number") {
        drawn.push(trackBar(x + 4, row, name, player[name], components.tracks[name] || {}, seat));
        row += 15;
      }
    }
    const extras = Object.entries(player).filter(([key, value]) => !BASE_KEYS.has(key) && value !== null && value !== false
                                                  && typeof value !== "object");
    if (extras.length) {
      drawn.push(text(x + 4, row + 10, extras.map(([key, value]) => `${key.replace(/_/g, " ")} ${value === true ? "✓" : value}`).join(" · "),
                      {"font-size": 11, class: "module-tracks", "data-seat": seat}));
      row += 16;
    }
    drawn.push(text(x + 4, row + 12, `dynamite ${player.dynamite} · wood ${player.wood} · rifles ${player.rifle} · cabins ${player.cabins}`,
                    {"font-size": 11, class: "resources", "data-seat": seat}));
    const crew = Object.entries(player.crew).filter(([, count]) => count).map(([kind, count]) => `${kind} ${player.free[kind]}/${count}`);
    drawn.push(text(x + 4, row + 28, `crew (free/aboard): ${crew.join(", ")}`, {"font-size": 11, class: "crew", "data-seat": seat}));
    const items = [
      ...player.upgrades.map((number) => (cx, cy) => card(cx, cy, cardName("upgrade", number, components),
                                                         {class: "upgrade", "data-card": number, "data-seat": seat}, "#e8eef6")),
      ...player.species.map((id) => (cx, cy) => card(cx, cy, cardName("species", id, components),
                                                    {class: "species", "data-card": id, "data-seat": seat}, "#eaf6ea")),
      ...player.kept_events.map((id) => (cx, cy) => card(cx, cy, cardName("event", id, components),
                                                        {class: "kept-event", "data-card": id, "data-seat": seat})),
      ...dealtCards(player, seat, components),
    ];
    const [cards, after] = flow(x + 4, row + 36, right, items);
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

  function tableInfo(view, components, y) {
    const state = view.state;
    const lines = [];
    const over = state.over ? ` · over: ${state.over.outcome}` : "";
    const scenario = view.options.scenario ? ` · solo: ${view.options.scenario.replace(/_/g, " ")}` : "";
    lines.push(text(20, 24, `Through Ice and Snow · round ${state.round} · ${state.phase}${state.final_voyage ? " · final voyage" : ""}` +
                    `${scenario}${over}`, {"font-size": 16, "font-weight": "bold"}));
    const event = state.event_card ? `event: ${state.event_card.name}` : "no event";
    const decks = `coastal deck ${state.deck_sizes.coastal} · open sea deck ${state.deck_sizes.open_sea} · ${event}`;
    lines.push(text(20, 42, decks, {"font-size": 12, class: "event-decks"}));
    const modules = MODULE_KEYS.filter((key) => state[key] !== undefined && !(Array.isArray(state[key]) && !state[key].length));
    let row = y;
    const revealed = [
      ...state.revealed.hunting.map((id) => (x, cy) => card(x, cy, `hunt: ${cardName("hunting", id, components)}`,
                                                           {class: "revealed", "data-card": id}, "#f6ece0")),
      ...state.revealed.species.map((id) => (x, cy) => card(x, cy, `species: ${cardName("species", id, components)}`,
                                                           {class: "revealed", "data-card": id}, "#eaf6ea")),
    ];
    const [shown, after] = flow(20, row, WIDTH - 20, revealed);
    lines.push(...shown);
    row = after + 4;
    const supply = Object.entries(state.supply).map(([kind, count]) => `${kind} ${count}`).join(" · ");
    lines.push(text(20, row + 10, `discovered: ${state.discovered.join(", ") || "none"} · supply: ${supply}`, {"font-size": 11}));
    row += 18;
    for (const key of modules) {
      lines.push(text(20, row + 10, `${key.replace(/_/g, " ")} · ${summary(state[key])}`.slice(0, 230),
                      {"font-size": 11, class: "module", "data-module": key}));
      row += 16;
    }
    return [lines, row];
  }

  function draw(view, context) {
    const components = context.components;
    const mapBottom = MAP.top + 11 * MAP.y + 20;
    const [info, afterInfo] = tableInfo(view, components, mapBottom + 6);
    const players = view.state.players;
    const width = WIDTH / Math.max(2, players.length);
    let bottom = afterInfo;
    const boards = players.map((player, index) => {
      const [drawn, after] = playerBoard(view, components, player, 10 + index * width, afterInfo + 8, width, context.reader);
      bottom = Math.max(bottom, after);
      return drawn;
    });
    const height = bottom + 10;
    return board("through-ice-and-snow", WIDTH, height,
      el("rect", {x: 0, y: 0, width: WIDTH, height, fill: "#f7f9fb"}),
      el("g", {class: "map"}, sectionBands(view, components), routes(view, components), anchors(view, components),
         fleet(view, components)),
      info, boards);
  }

  CairnBoards.register("through-ice-and-snow", draw);
})();
