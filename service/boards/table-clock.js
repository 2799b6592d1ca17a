/* The clocks of the live table (TABLE-CLOCK-2, TABLE-CLOCK-3): each seat's time left, the running ones
 * counting down, and a "Claim timeout" button once a running clock shows zero.
 *
 * A view's clock gives each seat's time left as of `as_of` (the time of the game's last event) and the
 * server's time when it was sent (`now`): the page counts the running clocks down from `as_of` by its own
 * clock, corrected by the difference between the two, so a browser whose clock is off still shows the
 * server's. The claim is only ever the server's to judge: a click sends claim_timeout, and a clock that
 * had time left after all is refused with clock_running, shown as any refusal.
 */
(function (root) {
  "use strict";
  const TICK_MS = 100;
  let shown = null;
  let offset = 0;  // the server's clock minus this browser's, as of the last view that said
  let ticking = null;
  let claim = null;

  /* ISO times as the store writes them (microseconds) in milliseconds; Date.parse reads three digits. */
  function millis(time) {
    return Date.parse(time.replace(/(\.\d{3})\d*/, "$1"));
  }

  function leftMs(entry) {
    if (!entry.running || !shown.as_of) {
      return entry.remaining_ms;
    }
    return Math.max(0, entry.remaining_ms - (Date.now() + offset - millis(shown.as_of)));
  }

  function tick() {
    const section = document.getElementById("clocks");
    if (!section || !shown) {
      return;
    }
    for (const item of section.querySelectorAll("[data-clock-seat]")) {
      const entry = shown.seats[item.dataset.clockSeat];
      const left = leftMs(entry);
      item.querySelector(".time").textContent = CairnBoards.clockText(left);
      item.classList.toggle("running", entry.running);
      item.classList.toggle("flag", entry.running && left === 0);
      const button = item.querySelector("button");
      button.hidden = !(claim && entry.running && left === 0);
    }
  }

  /* Draws the clocks of `view` (none for a game without one); `onClaim(seat)` sends a claim, `null` for a
   * reader that may not claim (the public). */
  function show(view, names, onClaim) {
    const section = document.getElementById("clocks");
    shown = view.clock || null;
    claim = view.status === "active" ? onClaim : null;
    section.hidden = !shown;
    if (!shown) {
      section.innerHTML = "";
      return;
    }
    if (shown.now) {
      offset = millis(shown.now) - Date.now();
    }
    section.innerHTML = "";
    const title = document.createElement("h2");
    title.textContent = shown.mode === "turn" ? `Clock: ${shown.turn_seconds} s a turn`
      : `Clock: ${shown.initial_seconds} s + ${shown.increment_seconds} s a turn`;
    section.appendChild(title);
    if (view.ended_by && view.ended_by.reason === "timeout") {
      const ended = document.createElement("strong");
      ended.className = "timed-out";
      ended.textContent = `Time ran out for ${names(view.ended_by.seat)}`;
      section.appendChild(ended);
    }
    for (const seat of Object.keys(shown.seats)) {
      const item = document.createElement("span");
      item.className = "clock";
      item.dataset.clockSeat = seat;
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = names(seat);
      const time = document.createElement("span");
      time.className = "time";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "claim-timeout";
      button.textContent = "Claim timeout";
      button.hidden = true;
      button.onclick = () => claim && claim(seat);
      item.append(name, time, button);
      section.appendChild(item);
    }
    tick();
    if (!ticking) {
      ticking = setInterval(tick, TICK_MS);
    }
  }

  root.CairnClock = {show};
})(typeof window !== "undefined" ? window : globalThis);
