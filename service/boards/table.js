/* The live table: the board of one game as the page's token may see it, kept current from the live
 * stream, and for a seat its legal moves as choices.
 *
 * A seat picks by clicking the board (elements the renderer marked with data-pick and that some legal
 * move matches) or the list; when the picks leave one move it is sent. Every move goes with If-Match (the
 * version the board shows) and an Idempotency-Key, so a retried request never moves twice. A refusal is
 * shown with its rule ID and detail. Without a token the page shows the public board.
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

  /* Reads the game and, for a seat that is to move, its legal moves at the same version. */
  async function load() {
    const response = await fetch(gameUrl, {headers: headers(), cache: "no-store"});
    if (!response.ok) {
      byId("error").textContent = problemText(await problemOf(response));
      return;
    }
    const read = await response.json();
    let legal = [];
    const seat = /^p\d+$/.test(read.reader) ? read.reader : null;
    if (seat && read.status === "active" && read.waiting_for.includes(seat)) {
      const answer = await fetch(`${gameUrl}/legal-moves`, {headers: headers(), cache: "no-store"});
      if (answer.ok) {
        const body = await answer.json();
        if (body.version !== read.version) {
          again = true;
          return;
        }
        legal = body.moves;
      }
    }
    byId("error").textContent = "";
    if (!view || view.version !== read.version) {
      picks = [];
    }
    view = read;
    etag = response.headers.get("ETag");
    seen = Math.max(seen, read.version);
    moves = legal;
    draw();
  }

  /* One load at a time; events that arrive meanwhile ask for one more. */
  function refresh() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      do {
        again = false;
        try {
          await load();
        } catch (error) {
          byId("error").textContent = `The server did not answer: ${error.message}`;
        }
      } while (again);
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
    const waiting = (view.waiting_for || []).map(seatName).join(", ");
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
    for (const move of open) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = CairnBoards.describe(view.game, move, config.components);
      button.dataset.move = JSON.stringify(move);
      button.disabled = sending;
      button.onclick = () => submit(move);
      item.appendChild(button);
      list.appendChild(item);
    }
    byId("choices").hidden = !seat;
    document.body.dataset.sending = String(sending);
  }

  function showRefusal(problem) {
    byId("refusal-rule").textContent = problem.rule_id || problem.code || "";
    byId("refusal-detail").textContent = problem.detail || problem.title || "";
    byId("refusal").hidden = false;
  }

  /* Sends one move at the version the board shows; a lost answer is asked again with the same key. */
  async function submit(move) {
    if (sending) {
      return;
    }
    sending = true;
    draw();
    try {
      await send(move);
    } finally {
      sending = false;
      picks = [];
      await refresh();
    }
  }

  async function send(move) {
    const key = newKey();
    const request = () => fetch(`${gameUrl}/moves`, {
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
    }
  }

  /* Follows the stream from the version after the last one seen; it ends after idle time, and is opened
   * again from there, as it would be resumed with Last-Event-ID. */
  function follow() {
    if (following) {
      following.close();
    }
    const query = new URLSearchParams({from: String(seen + 1)});
    if (token) {
      query.set("token", token);
    }
    const source = new EventSource(`${gameUrl}/stream?${query}`);
    following = source;
    source.onmessage = (event) => {
      seen = Math.max(seen, Number(event.lastEventId) || seen);
      refresh();
    };
    source.addEventListener("end", (event) => {
      source.close();
      const ended = JSON.parse(event.data || "{}");
      seen = Math.max(seen, ended.version || seen);
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
    token = byId("token").value.trim();
    const url = new URL(location.href);
    url.searchParams.set("token", token);
    history.replaceState(null, "", url);
    view = null;
    refresh().then(follow);
  });
  refresh().then(follow);
})();
