/* Borealis drawn as the table looks: the shared pool, deck, discard pile, goals and scoring cards on top,
 * then each seat's player board: its hand, two camps and three locations, each location with its flag
 * track, its scientists and its stack of observed animal cards.
 *
 * Picks: elements a seat may click on the table page carry data-pick (a card id, a location, a pool slot
 * as "pool_slot=N", a goal id, or a move type such as "draw_blind"); the page matches them to legal moves.
 */
(function (B) {
  "use strict";
  const {el, text, card, back, tip, words, token, seatColour} = B;
  const WIDTH = 1260;
  const CARD_W = 84;
  const CARD_H = 112;
  const STACK_STEP = 30;
  const LOCATIONS = ["LEFT", "MIDDLE", "RIGHT"];
  const CAMPS = {CAMP_L: 10, CAMP_R: 1160};
  const LOCATION_X = {LEFT: 110, MIDDLE: 460, RIGHT: 810};
  const COLUMN_W = 340;
  const SCIENTIST = {yellow: "#e8c31c", pink: "#e879a6", blue: "#3b82c4"};
  const VEHICLE_SHORT = {sleigh: "Sl", submarine: "Sb", skis: "Sk", zeppelin: "Zp", kayak: "Ky"};

  function speciesFill(species, light) {
    return `hsl(${B.hue(species)} 55% ${light}%)`;
  }

  /* One animal card face up: species and vehicle on the band (readable when stacked), stars, and the two
   * scientists it moves (left and right). An unknown id is still drawn, by its id. */
  function animal(x, y, cardId, components, attributes) {
    const known = (components.cards || {})[cardId];
    if (!known) {
      return card(x, y, CARD_W, CARD_H, {class: "card", "data-card": cardId, ...attributes}, text(6, 16, cardId));
    }
    const [species, vehicle, stars, left, right] = known;
    const starText = "\u2605".repeat(1 + stars);
    return card(x, y, CARD_W, CARD_H, {class: "card animal", "data-card": cardId, "data-species": species,
                                        "data-vehicle": vehicle, ...attributes},
      tip(`${words(species)}, ${vehicle}, ${1 + stars} star${stars ? "s" : ""}; moves ${left} left, ${right} right (${cardId})`),
      el("rect", {width: CARD_W, height: STACK_STEP, rx: 6, fill: speciesFill(species, 62)}),
      text(6, 13, words(species), {class: "card-name", "font-size": 11, "font-weight": 700}),
      text(6, 26, `${vehicle} ${starText}`, {class: "card-vehicle", "font-size": 10}),
      text(CARD_W / 2, 62, vehicle, {"text-anchor": "middle", "font-size": 13, class: "card-big"}),
      text(CARD_W / 2, 80, starText, {"text-anchor": "middle", "font-size": 14, fill: "#9a6b00"}),
      text(8, 103, "\u25c0", {"font-size": 9}), el("circle", {cx: 24, cy: 99, r: 7, fill: SCIENTIST[left] || left}),
      el("circle", {cx: CARD_W - 24, cy: 99, r: 7, fill: SCIENTIST[right] || right}),
      text(CARD_W - 14, 103, "\u25b6", {"font-size": 9}));
  }

  function emptySlot(x, y, label, attributes) {
    return el("g", {transform: `translate(${x} ${y})`, class: "slot", ...attributes},
      el("rect", {width: CARD_W, height: CARD_H, rx: 6, class: "empty-slot"}),
      text(CARD_W / 2, CARD_H / 2, label, {"text-anchor": "middle", "font-size": 11, class: "muted"}));
  }

  function pile(x, y, count, label, attributes) {
    const drawn = count > 0 ? back(x, y, CARD_W, CARD_H, attributes) : emptySlot(x, y, "empty", attributes);
    return [drawn, text(x + CARD_W / 2, y + CARD_H + 14, `${label}: ${count}`,
                        {"text-anchor": "middle", "font-size": 12, "data-count": label})];
  }

  function table(view, components) {
    const state = view.state;
    const parts = [];
    parts.push(text(10, 18, `Round ${state.round} \u00b7 ${words(state.phase)}` +
      (state.step ? ` \u00b7 ${words(state.step).toLowerCase()}` : "") +
      (state.active_seat ? ` \u00b7 ${nameOf(view, state.active_seat)} to play` : "") +
      (state.end_triggered ? " \u00b7 the end is triggered" : ""), {"font-size": 15, "font-weight": 700}));
    parts.push(text(10, 44, "Pool", {class: "label"}));
    (state.pool || []).forEach((cardId, slot) => {
      const x = 10 + slot * (CARD_W + 8);
      parts.push(cardId ? animal(x, 52, cardId, components, {"data-pick": `pool_slot=${slot}`, "data-zone": "pool"})
        : emptySlot(x, 52, "empty", {"data-zone": "pool"}));
    });
    const pileX = 10 + 4 * (CARD_W + 8) + 20;
    parts.push(text(pileX, 44, "Deck", {class: "label"}));
    parts.push(...pile(pileX, 52, state.deck_count, "deck", {"data-pick": "draw_blind", "data-zone": "deck"}));
    const discards = state.discard_pile || [];
    parts.push(text(pileX + CARD_W + 16, 44, "Discard pile", {class: "label"}));
    parts.push(discards.length ? animal(pileX + CARD_W + 16, 52, discards[discards.length - 1], components,
                                        {"data-zone": "discard"})
      : emptySlot(pileX + CARD_W + 16, 52, "empty", {"data-zone": "discard"}));
    parts.push(text(pileX + CARD_W * 1.5 + 16, 52 + CARD_H + 14, `discarded: ${discards.length}`,
                    {"text-anchor": "middle", "font-size": 12, "data-count": "discard"}));
    const goalX = pileX + 2 * CARD_W + 50;
    parts.push(text(goalX, 44, "Goals", {class: "label"}));
    (state.goals || []).forEach((goal, index) => parts.push(goalBox(goalX, 52 + index * 44, goal, view, components)));
    const scoringX = goalX + 280;
    parts.push(text(scoringX, 44, "Scoring cards", {class: "label"}));
    (state.scoring_cards || []).forEach((cardId, index) => {
      const found = (components.scoring_cards || {})[cardId] || {name: words(cardId), rule: ""};
      parts.push(card(scoringX, 52 + index * 62, 250, 54, {class: "card scoring", "data-card": cardId},
        text(10, 22, found.name, {"font-size": 14, "font-weight": 700}),
        text(10, 42, found.rule, {"font-size": 11, class: "muted"})));
    });
    return el("g", {class: "table", "data-zone": "table"}, ...parts);
  }

  function goalBox(x, y, goal, view, components) {
    const known = (components.goals || {})[goal.goal_id] || {};
    const claims = (goal.claimed_by || []).map((seat, index) =>
      token(200 + index * 22, 20, 8, seatColour(seat), seat.replace(/^p/, ""), {"data-claim": seat}));
    return card(x, y, 268, 40, {class: `card goal${goal.removed ? " removed" : ""}`, "data-goal": goal.goal_id,
                                "data-pick": goal.goal_id},
      text(8, 16, goal.title || known.title || words(goal.goal_id), {"font-size": 13, "font-weight": 700}),
      text(8, 33, `${words(goal.type)} \u00b7 ${goal.removed ? "removed" : `${goal.tokens_left} left`}`,
           {"font-size": 11, class: "muted"}),
      ...claims);
  }

  function nameOf(view, seat) {
    const found = (view.seats || []).find((item) => item.seat === seat);
    return found ? found.name : seat;
  }

  function scientists(x, y, counts) {
    const dots = [];
    let index = 0;
    for (const colour of Object.keys(SCIENTIST)) {
      for (let n = 0; n < (counts[colour] || 0); n += 1) {
        dots.push(el("circle", {cx: x + 9 + index * 18, cy: y + 9, r: 7, fill: SCIENTIST[colour],
                                class: "scientist", "data-colour": colour}));
        index += 1;
      }
    }
    return dots.length ? dots : [text(x, y + 13, "no scientists", {"font-size": 11, class: "muted"})];
  }

  function flagTrack(x, y, spaces, at, seat) {
    const cells = [];
    const width = 40;
    for (let index = 0; index < 8; index += 1) {
      const [vehicles, stars] = spaces ? spaces[index] : [[], null];
      const here = index === at;
      cells.push(el("g", {transform: `translate(${x + index * (width + 2)} ${y})`, class: here ? "space here" : "space",
                          "data-space": index},
        el("rect", {width, height: 34, rx: 3, style: here ? `fill: ${seatColour(seat)}` : undefined}),
        here ? text(width - 9, 13, "\u2691", {"font-size": 11, class: "flag"}) : null,
        stars === null ? null : text(width / 2, 13, index === 0 ? "start" : `${stars}\u2605`,
                                     {"text-anchor": "middle", "font-size": 10}),
        text(width / 2, 28, vehicles.map((vehicle) => VEHICLE_SHORT[vehicle] || vehicle).join(" "),
             {"text-anchor": "middle", "font-size": 9}),
        vehicles.length ? tip(vehicles.join(" or ")) : null));
    }
    return el("g", {class: "flag-track", "data-flag": at}, ...cells);
  }

  function stackHeight(stacks) {
    const tallest = Math.max(0, ...LOCATIONS.map((location) => (stacks[location] || []).length));
    return tallest ? CARD_H + (tallest - 1) * STACK_STEP : 24;
  }

  function seatPanel(y, seat, player, view, components, reader) {
    const parts = [];
    const acting = (view.waiting_for || []).includes(seat);
    const height = panelHeight(player);
    parts.push(el("rect", {x: 0, y: 0, width: WIDTH, height, rx: 8, class: acting ? "panel acting" : "panel"}));
    const claimed = (player.goals_claimed || []).map((goal) => ((components.goals || {})[goal] || {}).title || goal);
    parts.push(el("circle", {cx: 18, cy: 16, r: 7, fill: seatColour(seat)}));
    parts.push(text(32, 21, `${nameOf(view, seat)} (${seat})${seat === reader ? " \u2014 you" : ""}`,
                    {"font-size": 15, "font-weight": 700}));
    parts.push(text(300, 21, `\u2605 ${player.token_stars} star tokens \u00b7 board ${player.board ?? "not yet drawn"}` +
      (claimed.length ? ` \u00b7 goals: ${claimed.join(", ")}` : "") +
      (player.farewell_location ? ` \u00b7 farewell at ${player.farewell_location}` : "") +
      (acting ? " \u00b7 to move" : ""), {"font-size": 12}));
    parts.push(text(10, 44, `Hand (${player.hand_count})`, {class: "label"}));
    const hand = player.hand;
    for (let index = 0; index < player.hand_count; index += 1) {
      const x = 10 + index * (CARD_W + 8);
      parts.push(Array.isArray(hand) && hand[index] !== undefined
        ? animal(x, 50, hand[index], components, {"data-pick": hand[index], "data-zone": "hand"})
        : back(x, 50, CARD_W, CARD_H, {"data-zone": "hand"}));
    }
    const top = 50 + CARD_H + 16;
    for (const [camp, x] of Object.entries(CAMPS)) {
      parts.push(el("g", {class: "camp", "data-location": camp},
        el("rect", {x, y: top, width: 90, height: height - top - 8, rx: 6, class: "camp-area"}),
        text(x + 8, top + 16, camp === "CAMP_L" ? "Left camp" : "Right camp", {"font-size": 11, "font-weight": 700}),
        scientistsColumn(x + 8, top + 26, (player.scientists || {})[camp] || {})));
    }
    const tracks = ((components.tracks || {})[player.board]) || {};
    for (const location of LOCATIONS) {
      const x = LOCATION_X[location];
      const stack = (player.stacks || {})[location] || [];
      const cards = stack.map((cardId, index) => animal(x + 4, top + 90 + index * STACK_STEP, cardId, components,
                                                       {"data-zone": "stack"}));
      const pick = seat === reader ? location : undefined;  // only the reader's own locations take its cards
      parts.push(el("g", {class: "location", "data-location": location, "data-pick": pick},
        el("rect", {x, y: top, width: COLUMN_W, height: height - top - 8, rx: 6, class: "location-area"}),
        text(x + 6, top + 14, `${words(location.toLowerCase())} \u00b7 ${stack.length} card${stack.length === 1 ? "" : "s"}`,
             {"font-size": 12, "font-weight": 700}),
        flagTrack(x + 4, top + 20, tracks[location], (player.flags || {})[location] || 0, seat),
        scientists(x + 4, top + 60, (player.scientists || {})[location] || {}),
        stack.length ? cards : text(x + 8, top + 104, "no cards yet", {"font-size": 11, class: "muted"})));
    }
    return el("g", {transform: `translate(0 ${y})`, class: "seat", "data-seat": seat}, ...parts);
  }

  function scientistsColumn(x, y, counts) {
    const dots = [];
    let index = 0;
    for (const colour of Object.keys(SCIENTIST)) {
      for (let n = 0; n < (counts[colour] || 0); n += 1) {
        dots.push(el("circle", {cx: x + 9 + (index % 4) * 18, cy: y + 9 + Math.floor(index / 4) * 18, r: 7,
                                fill: SCIENTIST[colour], class: "scientist", "data-colour": colour}));
        index += 1;
      }
    }
    return dots;
  }

  function panelHeight(player) {
    return 50 + CARD_H + 16 + 90 + stackHeight(player.stacks || {}) + 14;
  }

  function draw(view, context) {
    const components = (context && context.components) || {};
    const reader = context ? context.reader : null;
    const state = view.state || {};
    const players = state.players || {};
    const seats = (view.seats || []).map((item) => item.seat).filter((seat) => players[seat]);
    const parts = [table(view, components)];
    let y = 196;
    for (const seat of seats) {
      parts.push(seatPanel(y, seat, players[seat], view, components, reader));
      y += panelHeight(players[seat]) + 12;
    }
    return B.board("borealis", WIDTH, y, ...parts);
  }

  B.register("borealis", draw);
  B.registerDescriber("borealis", (value, components) => {
    const known = (components.cards || {})[value];
    if (known) {
      return `${words(known[0])} (${known[1]}${known[2] ? ", extra star" : ""})`;
    }
    const goal = (components.goals || {})[value];
    return goal ? goal.title : value;
  });
})(CairnBoards);
