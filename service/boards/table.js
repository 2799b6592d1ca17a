/* The live table: the board of one game as the page's token may see it, kept current from the live
 * stream, and for a seat its legal moves as choices.
 *
 * A seat picks by clicking the board (elements the renderer marked with data-pick and that some legal
 * move matches) or the list; when the picks leave one move it is sent. The list groups the moves by type,
 * one group a line that opens: within it one field's values are the buttons of a row and the other
 * fields name the row, so "observe" is a row per card with a button per location, or a row per location
 * with a button per card when that makes fewer rows. Every move goes
 * with If-Match (the version the board shows) and an Idempotency-Key, so a retried request never moves
 * twice. A refusal is shown with its title, its rule ID (or code) and detail, and the page reads the game
 * and its moves again. Without a token the page shows the public board.
 *
 * The board follows the stream's views (?view=1) and a move's answer carries the next view and moves, so
 * the page reads the game only when it opens and after a refusal, and the legal moves only when its seat
 * is to move at a new version. A read refused by the rate limit is waited out quietly.
 *
 * While seats are open (view.open_seats), a page without a seat lists them, each with a name field and a
 * join button: a join answers with the seat's token, shown once, which the page keeps (in its address, as
 * if given as ?token=) and plays with from then on. A seat may resign, with a second click to confirm.
 *
 * Takebacks (TABLE-TAKEBACK-*): the seat the view names in may_take_back is offered "Ask to take back";
 * while a request is open every page shows it, and whoever it waits for (a seat, or the organiser's page)
 * is offered "Accept" and "Decline". Each is a move like any other.
 * A game with a clock shows it (table-clock.js), and a seat or the organiser claims a fallen flag there.
 */
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("table-config").textContent);
  const gameUrl = `/games/${encodeURIComponent(config.game_id)}`;
  const byId = (name) => document.getElementById(name);
  let token = new URLSearchParams(location.search).get("token") || "";
  let view = null;
  let etag = null;
  let moves = [];
  let picks = [];
  let following = null;
  let seen = 0;
  let loading = null;
  let again = false;
  let sending = false;
  const opened = new Map();

  function headers(extra) {
    return Object.assign(token ? {Authorization: `Bearer ${token}`} : {}, extra || {});
  }

  function newKey() {
    if (crypto.randomUUID) {
      return crypto.randomUUID();
    }
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function values(value) {
    if (Array.isArray(value)) {
      return value.flatMap(values);
    }
    return value !== null && typeof value === "object" ? Object.values(value).flatMap(values) : [String(value)];
  }

  /* A pick is a move type, a value ("animal-12"), or "key=value" pairs joined by "&"; all must match. */
  function matches(move, pick) {
    if (pick === move.type) {
      return true;
    }
    return pick.split("&").every((part) => {
      const at = part.indexOf("=");
      if (at < 0) {
        return Object.entries(move).some(([key, value]) => key !== "type" && values(value).includes(part));
      }
      const key = part.slice(0, at);
      return key in move && values(move[key]).includes(part.slice(at + 1));
    });
  }

  function chosen() {
    return moves.filter((move) => picks.every((pick) => matches(move, pick)));
  }

  function seatName(seat) {
    const found = ((view && view.seats) || []).find((item) => item.seat === seat);
    return found ? `${found.name} (${seat})` : seat;
  }

  function problemText(problem) {
    return `${problem.title || "Error"}: ${problem.detail || ""}`;
  }

  async function problemOf(response) {
    try {
      return await response.json();
    } catch (error) {
      return {title: `HTTP ${response.status}`, detail: response.statusText};
    }
  }

  /* A read the rate limit refuses (429) is asked again after its Retry-After, with no banner: a bot playing
   * with the same token shares the page's read bucket, and the page can wait its turn. */
  async function readQuietly(url) {
    for (;;) {
      const response = await fetch(url, {headers: headers(), cache: "no-store"});
      if (response.status !== 429) {
        return response;
      }
      const wait = Number(response.headers.get("Retry-After")) || 1;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }

  /* Reads the game, when the stream has not brought its view: at the start and after a refusal. */
  async function load() {
    const response = await readQuietly(gameUrl);
    if (!response.ok) {
      byId("error").textContent = problemText(await problemOf(response));
      return;
    }
    await show(await response.json());
  }

  function seatOf(read) {
    return /^p\d+$/.test(read.reader) ? read.reader : null;
  }

  /* The seat's legal moves at the view's version: those already held for it, else read; null when the game
   * moved on between the view and the read, so the caller reads again. */
  async function legalMovesAt(read) {
    const seat = seatOf(read);
    if (!seat || read.status !== "active" || !read.waiting_for.includes(seat)) {
      return [];
    }
    if (view && view.version === read.version && view.reader === read.reader) {
      return moves;
    }
    const answer = await readQuietly(`${gameUrl}/legal-moves`);
    if (!answer.ok) {
      return [];
    }
    const body = await answer.json();
    return body.version === read.version ? body.moves : null;
  }

  /* Shows a view, read or sent on the stream, with the seat's moves at its version. */
  async function show(read, known) {
    if (view && view.reader === read.reader && read.version < view.version) {
      return;  // a view the stream sent before the move answer already shown
    }
    const legal = known || await legalMovesAt(read);
    if (legal === null) {
      again = true;
      return;
    }
    byId("error").textContent = "";
    if (!view || view.version !== read.version) {
      picks = [];
    }
    view = read;
    etag = `"${read.version}"`;
    seen = Math.max(seen, read.version);
    moves = legal;
    draw();
  }

  /* One load or view at a time; what arrives meanwhile is shown next (the latest view), or read once more. */
  let sentView = null;
  function refresh(sent) {
    if (sent) {
      sentView = sent;
    }
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      do {
        again = false;
        const next = sentView;
        sentView = null;
        try {
          await (next ? show(next) : load());
        } catch (error) {
          byId("error").textContent = `The server did not answer: ${error.message}`;
        }
      } while (again || sentView);
      loading = null;
    })();
    return loading;
  }

  function draw() {
    const seat = /^p\d+$/.test(view.reader) ? view.reader : null;
    const reader = view.reader === "public" ? null : view.reader;
    const board = byId("board");
    board.innerHTML = CairnBoards.render(view, {reader, components: config.components}) +
      (view.score ? CairnBoards.scoreTable(view.score, view.seats) : "");
    const open = chosen();
    for (const element of board.querySelectorAll("[data-pick]")) {
      const pick = element.getAttribute("data-pick");
      element.classList.toggle("picked", picks.includes(pick));
      element.classList.toggle("pickable", picks.includes(pick) || open.some((move) => matches(move, pick)));
    }
    const openSeats = view.open_seats || [];
    const waiting = openSeats.length ? `a player to take ${openSeats.join(", ")}`
      : (view.waiting_for || []).map(seatName).join(", ");
    byId("seat-line").textContent = seat ? `You are ${seatName(seat)}` : view.reader === "organiser" ?
      "You are the organiser" : "Watching as the public";
    byId("status").textContent = `Version ${view.version} \u00b7 ${view.status}` +
      (view.status === "active" ? (seat && moves.length ? " \u00b7 your move" : ` \u00b7 waiting for ${waiting || "nobody"}`) : "");
    document.body.dataset.version = String(view.version);
    document.body.dataset.status = view.status;
    byId("picked").textContent = picks.length ? `Picked: ${picks.join(", ")}` : "";
    byId("clear").hidden = picks.length === 0;
    const list = byId("moves");
    list.innerHTML = "";
    groups(open).forEach((group, index) => list.appendChild(groupItem(group, index, open.length)));
    byId("choices").hidden = !seat;
    const resign = byId("resign");
    resign.hidden = !seat || view.status !== "active";
    resign.textContent = resign.dataset.armed === "true" ? "Click again to resign" : "Resign";
    drawOpenSeats(seat);
    drawTakeback(seat);
    CairnClock.show(view, seatName, reader ? (flagged) => submit({type: "claim_timeout", flagged}) : null);
    document.body.dataset.sending = String(sending);
  }

  /* The takeback bar: the open request, and the buttons of whoever may ask or answer now. */
  function drawTakeback(seat) {
    const request = view.status === "active" ? view.takeback : null;
    const reader = seat || (view.reader === "organiser" ? "organiser" : null);
    const ask = byId("ask-takeback");
    ask.hidden = !(seat && view.status === "active" && view.may_take_back === seat);
    const answering = Boolean(request && reader && request.waiting_for.includes(reader));
    byId("accept-takeback").hidden = byId("decline-takeback").hidden = !answering;
    let line = "";
    if (request) {
      const first = request.to_version + 1;
      const versions = first === request.from_version ? `version ${first}` : `versions ${first}-${request.from_version}`;
      line = `${seatName(request.seat)} asks to take back ${versions}; waiting for ` +
        request.waiting_for.map((who) => (who === "organiser" ? "the organiser" : seatName(who))).join(", ");
    }
    if (!request && !ask.hidden) {
      const asked = view.takebacks === "organiser" ? "the organiser" : view.seats.length > 1 ? "the other seats" : "";
      line = asked ? `You may ask ${asked} to take back your last move` : "You may take back your last move";
    }
    byId("takeback-line").textContent = line;
    byId("takeback").hidden = ask.hidden && !request;
    document.body.dataset.takeback = request ? "open" : "none";
  }

  /* The open seats with a join button each, for a page that holds no seat. */
  function drawOpenSeats(seat) {
    const open = view.status === "active" && !seat ? view.open_seats || [] : [];
    byId("open-seats").hidden = open.length === 0;
    const list = byId("open-seat-list");
    list.innerHTML = "";
    for (const openSeat of open) {
      const item = document.createElement("li");
      item.dataset.seat = openSeat;
      const name = document.createElement("input");
      name.placeholder = "your name";
      name.maxLength = 64;
      name.setAttribute("aria-label", `name for ${openSeat}`);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "join-seat";
      button.textContent = `Join as ${openSeat}`;
      button.onclick = () => joinSeat(openSeat, name.value.trim(), button);
      const label = document.createElement("span");
      label.textContent = seatName(openSeat);
      item.append(label, name, button);
      list.appendChild(item);
    }
  }

  /* Takes a seat; its token, shown in this answer only, becomes the page's. */
  async function joinSeat(openSeat, name, button) {
    button.disabled = true;
    byId("join-refusal").textContent = "";
    let response;
    try {
      response = await fetch(`${gameUrl}/seats/${encodeURIComponent(openSeat)}/join`, {
        method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(name ? {name} : {}),
      });
    } catch (error) {
      byId("join-refusal").textContent = `The server did not answer: ${error.message}`;
      button.disabled = false;
      return;
    }
    if (response.status !== 201) {
      const problem = await problemOf(response);
      byId("join-refusal").textContent = `${problemText(problem)} (${problem.code || response.status})`;
      await refresh();
      return;
    }
    const joined = await response.json();
    useToken(joined.token);
  }

  /* The page plays with ``given`` from now on, kept in its address so a reload keeps the seat. */
  function useToken(given) {
    token = given;
    byId("token").value = given;
    const url = new URL(location.href);
    url.searchParams.set("token", given);
    history.replaceState(null, "", url);
    view = null;
    refresh().then(follow);
  }

  /* Moves by type, in the order the service listed them; see layout() for the rows of a group. */
  function groups(list) {
    const byType = new Map();
    for (const move of list) {
      byType.set(move.type, [...(byType.get(move.type) || []), move]);
    }
    return [...byType].map(([type, members]) => ({type, members, ...layout(members)}));
  }

  /* One field is the choice of each row, its buttons; the other fields that differ name the rows (by value
   * alone when one field does), and what all of them share goes under the group's name. The choice is the
   * field that leaves the fewest rows, then the one with the fewest values. A group of one move, or of moves
   * that differ in nothing, has no choice. */
  function layout(members) {
    const keys = [...new Set(members.flatMap((move) => Object.keys(move)))].filter((key) => key !== "type");
    const distinct = (parts) => new Set(members.map((move) => JSON.stringify(parts.map((key) => move[key] ?? null)))).size;
    const varying = keys.filter((key) => distinct([key]) > 1);
    if (!varying.length) {
      return {choice: null, rows: []};
    }
    const cost = (key) => [distinct(varying.filter((other) => other !== key)), distinct([key])];
    const choice = varying.reduce((best, key) => {
      const [rows, values] = cost(key);
      const [bestRows, bestValues] = cost(best);
      return rows < bestRows || (rows === bestRows && values <= bestValues) ? key : best;
    });
    const rows = new Map();
    const naming = varying.filter((key) => key !== choice);
    for (const move of members) {
      const name = JSON.stringify(naming.map((key) => move[key] ?? null));
      if (!rows.has(name)) {
        const named = naming.filter((key) => key in move);
        const label = named.length === 1 && naming.length === 1
          ? CairnBoards.describeValue(view.game, move[named[0]], config.components)
          : named.map((key) => CairnBoards.describeField(view.game, key, move[key], config.components)).join("; ");
        rows.set(name, {label, moves: []});
      }
      rows.get(name).moves.push(move);
    }
    const shared = keys.filter((key) => !varying.includes(key) && key in members[0])
      .map((key) => CairnBoards.describeField(view.game, key, members[0][key], config.components));
    return {choice, rows: [...rows.values()], shared};
  }

  function moveButton(move, label) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = label;
    button.title = CairnBoards.describe(view.game, move, config.components);
    button.dataset.move = JSON.stringify(move);
    button.disabled = sending;
    button.onclick = () => submit(move);
    return button;
  }

  /* A group opens as the player left it; at first the first group is open, and every group is while the
   * board's picks narrow the moves or when there are few. */
  function groupItem(group, index, total) {
    const item = document.createElement("li");
    item.dataset.type = group.type;
    if (!group.choice) {
      for (const move of group.members) {
        item.appendChild(moveButton(move, CairnBoards.describe(view.game, move, config.components)));
      }
      return item;
    }
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = ` \u00b7 ${group.members.length} moves`;
    summary.append(CairnBoards.words(group.type), count);
    summary.addEventListener("click", () => opened.set(group.type, !details.open));
    details.open = picks.length > 0 || total <= 12 || (opened.get(group.type) ?? index === 0);
    const caption = document.createElement("p");
    caption.className = "caption";
    caption.textContent = [`choose the ${CairnBoards.words(group.choice).toLowerCase()}`, ...group.shared].join(" \u00b7 ");
    details.append(summary, caption);
    for (const row of group.rows) {
      const line = document.createElement("div");
      line.className = "row";
      if (row.label) {
        const label = document.createElement("span");
        label.className = "row-label";
        label.textContent = row.label;
        line.appendChild(label);
      }
      for (const move of row.moves) {
        const value = group.choice in move ? CairnBoards.describeValue(view.game, move[group.choice], config.components)
          : `no ${CairnBoards.words(group.choice).toLowerCase()}`;
        line.appendChild(moveButton(move, value));
      }
      details.appendChild(line);
    }
    item.appendChild(details);
    return item;
  }

  function showRefusal(problem) {
    byId("refusal-title").textContent = problem.title || "Error";
    byId("refusal-rule").textContent = problem.rule_id || problem.code || "";
    byId("refusal-detail").textContent = problem.detail || "";
    byId("refusal").hidden = false;
  }

  /* Sends one move at the version the board shows; a lost answer is asked again with the same key. */
  async function submit(move) {
    if (sending) {
      return;
    }
    sending = true;
    draw();
    let moved = null;
    try {
      moved = await send(move);
    } catch (error) {
      byId("error").textContent = `The server did not answer: ${error.message}`;
    } finally {
      sending = false;
      picks = [];
      await (moved ? showMoved(moved) : refresh());
    }
  }

  /* A move's answer carries the mover's view and next moves (include=view,legal_moves): shown with no read. */
  async function showMoved(moved) {
    const seat = seatOf(moved.view);
    await show(moved.view, (moved.legal_moves || {})[seat] || []);
  }

  /* Sends a move; its answer when accepted, else null (the refusal shown). */
  async function send(move) {
    const key = newKey();
    const request = () => fetch(`${gameUrl}/moves?include=view,legal_moves`, {
      method: "POST", body: JSON.stringify(move),
      headers: headers({"Content-Type": "application/json", "If-Match": etag, "Idempotency-Key": key}),
    });
    byId("refusal").hidden = true;
    let response;
    try {
      response = await request();
    } catch (error) {
      response = await request();
    }
    if (response.status !== 201) {
      showRefusal(await problemOf(response));
      return null;
    }
    return response.json();
  }

  /* Follows the stream from the version after the last one seen; it ends after idle time, and is opened
   * again from there, as it would be resumed with Last-Event-ID. */
  function follow() {
    if (following) {
      following.close();
    }
    const query = new URLSearchParams({from: String(seen + 1), view: "1"});
    if (token) {
      query.set("token", token);
    }
    const source = new EventSource(`${gameUrl}/stream?${query}`);
    following = source;
    source.onmessage = (event) => {
      seen = Math.max(seen, Number(event.lastEventId) || seen);
    };
    source.addEventListener("view", (event) => refresh(JSON.parse(event.data)));
    source.addEventListener("end", (event) => {
      source.close();
      const ended = JSON.parse(event.data || "{}");
      seen = Math.max(seen, ended.version || seen);
      if (ended.reason === "token_rotated") {
        byId("error").textContent = "This page's token was replaced: sit down again with the new one.";
        return;
      }
      if (following === source && ended.reason !== "game_over" && ended.reason !== "game_not_found") {
        setTimeout(follow, 200);
      }
    });
    source.onerror = () => {
      source.close();
      if (following === source) {
        setTimeout(follow, 2000);
      }
    };
  }

  byId("board").addEventListener("click", (event) => {
    const target = event.target.closest("[data-pick].pickable");
    if (!target || sending) {
      return;
    }
    const pick = target.getAttribute("data-pick");
    picks = picks.includes(pick) ? picks.filter((item) => item !== pick) : [...picks, pick];
    const open = chosen();
    if (open.length === 1) {
      submit(open[0]);
    } else {
      draw();
    }
  });
  byId("clear").onclick = () => {
    picks = [];
    draw();
  };
  byId("join").addEventListener("submit", (event) => {
    event.preventDefault();
    useToken(byId("token").value.trim());
  });
  byId("resign").onclick = () => {
    const button = byId("resign");
    if (button.dataset.armed !== "true") {
      button.dataset.armed = "true";
      draw();
      return;
    }
    button.dataset.armed = "false";
    submit({type: "resign"});
  };
  byId("ask-takeback").onclick = () => submit({type: "request_takeback"});
  byId("accept-takeback").onclick = () => submit({type: "accept_takeback"});
  byId("decline-takeback").onclick = () => submit({type: "decline_takeback"});
  refresh().then(follow);
})();
