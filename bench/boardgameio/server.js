// boardgame.io's own server on a one-seat game whose every move appends a mark to the log, as a Cairn move
// appends an event: the peer that bench/peers.py measures Cairn's HTTP moves beside.
// Usage: node server.js PORT memory|flatfile|flatfile-direct [DIR]
//   memory: its default storage; flatfile: its FlatFile storage as shipped (node-persist, whose write queue
//   writes the files once a second and answers each write then); flatfile-direct: the same files written at
//   each move (the write queue off). Neither fsyncs.
const { Server, FlatFile } = require('boardgame.io/server');

class DirectFlatFile extends FlatFile {
  async connect() {
    await this.games.init({ dir: this.dir, logging: this.logging, ttl: this.ttl, writeQueue: false });
  }
}

const NOTE = 'the sledge crossed the pressure ridge at dawn and the dogs were fed twice; '.repeat(3);

const Tally = {
  name: 'tally',
  minPlayers: 1,
  maxPlayers: 1,
  setup: () => ({ marks: 0, note: '' }),
  moves: {
    // client: false keeps the move on the server, so the client's update is the server's answer.
    tally: { move: ({ G }, points) => { G.marks += points; G.note = NOTE; }, client: false },
  },
};

const [port, storage, dir] = process.argv.slice(2);
const stores = { flatfile: FlatFile, 'flatfile-direct': DirectFlatFile };
const db = stores[storage] ? new stores[storage]({ dir, logging: false }) : undefined;
const server = Server({ games: [Tally], db, origins: ['*'] });
server.run({ port: Number(port) }, () => console.log(`ready ${port}`));
