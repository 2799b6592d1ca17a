"""Redis memory and load time of a scored 500-event game, live and compacted.

The game is the synthetic Tally of ``bench.store`` (each event carries a
line of prose, as a real move's data does), recorded through
``EventStore.append`` one command per event with an idempotency key each, as
the API records moves, then ended and scored: 500 events. Memory is
``MEMORY USAGE`` summed over the game's keys (stream, meta, idempotency
records, snapshot, private hash, compacted value). Load time is the median
``EventStore.load`` of the whole game: live without a snapshot (the
baseline: every event read from the stream and folded) and compacted.

Targets: the compacted game takes at most one fifth of the live game's
memory, and loads no slower than the live game without a snapshot.

Run from the repository root: ``python -m bench.compaction``.
"""
from __future__ import annotations

import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

import redis

from bench.store import TALLY, new_tally, tally_events
from domain import registry
from domain.core import make_event
from service.redis_server import RedisServer
from service.store import EventStore, compaction
from service.store.keys import game_keys

EVENTS = 500
LOADS = 50
SNAPSHOT_KEY = b"bench snapshot key"


def scored_tally(store: EventStore) -> str:
    game_id = new_tally(store)
    version = store.version(game_id)
    moves = tally_events(EVENTS - version - 2)
    for number, event in enumerate(moves):
        store.append(game_id, version, [event], command={"type": "tally", "points": 1}, command_id=f"c{number}",
                     idempotency_key=f"k{number}")
        version += 1
    store.append(game_id, version, [make_event("game_ended", {"seed": "seed"})], command=None, command_id="end",
                 idempotency_key=None)
    store.append(game_id, version + 1, [make_event("game_scored", {"score_sheet": {}})], command=None,
                 command_id="score", idempotency_key="score")
    return game_id


def memory(client: redis.Redis, game_id: str) -> dict[str, int]:
    keys = game_keys(game_id)
    names = {"stream": keys.events, "meta": keys.meta, "idempotency": keys.idem, "snapshot": keys.snapshot,
             "private": keys.private, "compacted": keys.compacted}
    return {name: client.memory_usage(key) or 0 for name, key in names.items()}


def load_ms(store: EventStore, game_id: str) -> float:
    samples = []
    for _ in range(LOADS):
        started = time.perf_counter()
        store.load(game_id)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def main() -> int:
    registry.register(TALLY)
    # The store without a snapshot key ignores the writer's snapshot, as it should, and says so on every load.
    logging.getLogger("cairn.store").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        server = RedisServer(Path(folder) / "redis").start()
        client = redis.Redis.from_url(server.url)
        try:
            writer = EventStore(client, snapshot_every=200, snapshot_key=SNAPSHOT_KEY)
            game_id = scored_tally(writer)
            writer.load(game_id)
            live = memory(client, game_id)
            plain = EventStore(client, snapshot_every=0)
            live_ms = load_ms(plain, game_id)
            with_snapshot_ms = load_ms(writer, game_id)
            assert compaction.compact(client, game_id) == "compacted"
            compacted = memory(client, game_id)
            compacted_ms = load_ms(writer, game_id)
        finally:
            client.close()
            server.stop()
    live_total, compacted_total = sum(live.values()), sum(compacted.values())
    print(f"a scored Tally game of {EVENTS} events")
    print(f"  {'key':<12} {'live bytes':>12} {'compacted bytes':>16}")
    for name in live:
        print(f"  {name:<12} {live[name]:>12,} {compacted[name]:>16,}")
    ratio = compacted_total / live_total
    memory_met = ratio <= 0.2
    print(f"  {'total':<12} {live_total:>12,} {compacted_total:>16,}   compacted/live {ratio:.3f} "
          f"(target <= 0.2: {'met' if memory_met else 'NOT met'})")
    load_met = compacted_ms <= live_ms
    print(f"load: live without snapshot {live_ms:.2f} ms, live with snapshot {with_snapshot_ms:.2f} ms, "
          f"compacted {compacted_ms:.2f} ms (target compacted <= live without snapshot: "
          f"{'met' if load_met else 'NOT met'})")
    return 0 if memory_met and load_met else 1


if __name__ == "__main__":
    sys.exit(main())
