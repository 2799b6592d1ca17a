// Closed-loop clients of boardgame.io's server, each on a match of its own over its own socket.io connection:
// a client makes its next move as soon as the server's update for its last one arrives.
// Usage: node load.js PORT CLIENTS SECONDS; prints one JSON line: {"moves": n, "seconds": s, "latencies_ms": [...]}
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');

const [port, clients, seconds] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;
const Tally = { name: 'tally', minPlayers: 1, maxPlayers: 1, setup: () => ({ marks: 0, note: '' }),
  moves: { tally: { move: () => {}, client: false } } };

// A set-up request (untimed). fetch keeps its connections, and Node's server closes an idle one after 5 s,
// so a request can meet a connection closing under it: it is sent again, as a browser would.
async function post(path, body, tries = 3) {
  try {
    const answer = await fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' },
                                              body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}`);
    return answer.json();
  } catch (error) {
    if (tries <= 1 || !(error instanceof TypeError)) throw error;
    return post(path, body, tries - 1);
  }
}

async function seated() {
  const { matchID } = await post('/games/tally/create', { numPlayers: 1 });
  const { playerCredentials } = await post(`/games/tally/${matchID}/join`, { playerID: '0', playerName: 'p0' });
  const client = Client({ game: Tally, matchID, playerID: '0', credentials: playerCredentials, debug: false,
                          multiplayer: SocketIO({ server: base }) });
  client.start();
  await new Promise((resolve) => {
    const stop = client.subscribe((state) => { if (state && client.getState().isConnected) { stop(); resolve(); } });
  });
  return client;
}

async function main() {
  const players = [];
  for (let n = 0; n < clients; n++) players.push(await seated());
  const latencies = [];
  let running = true;
  const loops = players.map((client) => new Promise((resolve) => {
    let sent = 0;
    let last = client.getState()._stateID;
    const move = () => { sent = performance.now(); client.moves.tally(1); };
    client.subscribe((state) => {
      if (!state || state._stateID === last) return;
      last = state._stateID;
      latencies.push(performance.now() - sent);
      if (running) move(); else resolve();
    });
    move();
  }));
  const began = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  running = false;
  const elapsed = (performance.now() - began) / 1000;
  const moves = latencies.length;
  await Promise.race([Promise.all(loops), new Promise((resolve) => setTimeout(resolve, 5000))]);
  players.forEach((client) => client.stop());
  const shown = latencies.slice(0, moves).map((ms) => Math.round(ms * 1000) / 1000);
  // Exit once the line is written: a pipe takes it in pieces, and exiting at once would cut it.
  process.stdout.write(`${JSON.stringify({ moves, seconds: elapsed, latencies_ms: shown })}\n`, () => process.exit(0));
}

main().catch((error) => { console.error(error); process.exit(1); });
