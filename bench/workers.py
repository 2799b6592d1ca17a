"""Worker figures: jobs/s for scoring and exports, SimpleWorker against RQ's forking Worker, and export memory.

* trivial jobs (``len``) drained by each worker class: the raw baseline of
  the job machinery on this machine;
* scoring jobs: each loads an ended game, scores it and appends
  ``game_scored`` (high-card games of ~10 events, Borealis games of ~400);
* export jobs: ``json`` records of ended high-card games, and ``html``
  replay pages of Borealis games;
* export memory: the peak Python allocation (tracemalloc) while exporting a
  synthetic game of 10,000 and of 100,000 events as ``json`` and ``ndjson``;
  flat means the second is not ten times the first.

Run from the repository root: ``python -m bench.workers``.
"""
from __future__ import annotations

import itertools
import logging
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis
from rq import SimpleWorker, Worker

from domain import registry
from domain.core import SERVER, Rules, make_event
from domain.core.match import apply_event, create, legal_moves, submit, waiting_for
from service.redis_server import RedisServer
from service.store import EventStore
from tests.core.high_card import RULES as HIGH_CARD
from workers.exports import export_game
from workers.queues import enqueue_export, enqueue_scoring, queue

TRIVIAL_JOBS = 300
HIGH_CARD_GAMES = 100
BOREALIS_GAMES = 8
MEMORY_LENGTHS = (10_000, 100_000)
APPEND_BATCH = 1_000
NOTE = "the sledge crossed the pressure ridge at dawn and the dogs were fed twice"
WORKER_CLASSES: dict[str, type[Worker] | type[SimpleWorker]] = {"SimpleWorker": SimpleWorker, "Worker (fork)": Worker}
_ids = itertools.count()


TrekState = dict[str, Any]
"""The trek's state: its two seats, how far it has marched and how far it goes."""


class Trek(Rules[TrekState]):
    """A synthetic game of ``length`` marches: long histories without a real game's cost per event."""

    name = "bench-trek"
    title = "Trek"
    rules_version = "1"
    player_counts = (2,)
    options_schema = {"type": "object", "properties": {"length": {"type": "integer", "default": 10}}}

    def setup(self, created):
        return {"seats": ["p1", "p2"], "marched": 0, "length": created["options"]["length"]}

    def event_types(self):
        return frozenset({"marched"})

    def apply(self, state, event):
        state["marched"] += 1
        return state

    def decide(self, state, seat, command):
        return [make_event("marched", {"note": NOTE})]

    def chance_node(self, state):
        return None

    def to_act(self, state):
        return [state["seats"][state["marched"] % 2]]

    def legal_moves(self, state, seat):
        return [{"type": "march"}]

    def view(self, state, reader):
        return state

    def secrets(self, state):
        return {}

    def is_over(self, state):
        return state["marched"] >= state["length"]

    def final_score(self, state):
        return {"outcome": "ranked", "totals": {}, "lines": [], "ranking": [], "tie_breaks": []}


def record_played(store: EventStore, rules: Rules, players: list[str], seed: str) -> str:
    """A game played to its end by each seat's first legal move, recorded as the API records it."""
    game_id = f"bench-{next(_ids)}"
    match, events = create(rules, {}, players, SERVER, seed)
    store.create(game_id, events, seed=seed, tokens={}, players=players)
    while not match.ended:
        actor = waiting_for(match)[0]
        move = legal_moves(match, actor)[0]
        events = submit(match, actor, move, seed)
        store.append(game_id, match.version, events, command={**move, "seat": actor},
                     command_id=f"c{match.version}", idempotency_key=None)
        for event in events:
            apply_event(match, event)
    return game_id


def record_trek(store: EventStore, length: int) -> str:
    """A synthetic history of ``length`` events, appended a thousand events per call."""
    game_id = f"trek-{next(_ids)}"
    _match, events = create(TREK, {"length": length}, ["Ann", "Bo"], SERVER, "seed")
    store.create(game_id, events, seed="seed", tokens={}, players=["Ann", "Bo"])
    version = len(events)
    while version < length:
        batch = [make_event("marched", {"note": NOTE}, seat=f"p{(version + n) % 2 + 1}")
                 for n in range(min(APPEND_BATCH, length - version))]
        store.append(game_id, version, batch, command=None, command_id=f"c{version}", idempotency_key=None)
        version += len(batch)
    return game_id


def warm_up(client: redis.Redis, store: EventStore, export_dir: Path) -> None:
    """One job of each kind first, so imports and data files are loaded before anything is timed."""
    for rules, players in ((HIGH_CARD, ["Ann", "Bo"]), (registry.get_rules("borealis"), ["Ann", "Bo", "Cy"])):
        game_id = record_played(store, rules, players, "warm")
        enqueue_scoring(client, game_id)
        export(client, store, game_id, "html", export_dir)
    drain(client, SimpleWorker)


def drain(client: redis.Redis, worker_class) -> float:
    started = time.perf_counter()
    worker_class([queue(client)], connection=client).work(burst=True, logging_level="WARNING")
    return time.perf_counter() - started


def rate(label: str, jobs: int, seconds: float) -> float:
    print(f"  {label:<44} {jobs:>5} jobs in {seconds:6.2f} s = {jobs / seconds:8.1f} jobs/s", flush=True)
    return jobs / seconds


def bench_trivial(client: redis.Redis) -> None:
    print("trivial jobs (the job machinery alone):")
    for name, worker_class in WORKER_CLASSES.items():
        for _ in range(TRIVIAL_JOBS):
            queue(client).enqueue(len, "x")
        rate(name, TRIVIAL_JOBS, drain(client, worker_class))


def bench_jobs(client: redis.Redis, store: EventStore, export_dir: Path) -> None:
    high_card = [[record_played(store, HIGH_CARD, ["Ann", "Bo"], f"s{n}") for n in range(HIGH_CARD_GAMES)]
                 for _ in WORKER_CLASSES]
    borealis = [[record_played(store, registry.get_rules("borealis"), ["Ann", "Bo", "Cy"], f"b{n}")
                 for n in range(BOREALIS_GAMES)] for _ in WORKER_CLASSES]
    cases: list[tuple[str, list[list[str]], Callable[[str], object]]] = [
        ("scoring, high-card (~10 events)", high_card, lambda game: enqueue_scoring(client, game)),
        ("scoring, borealis (~400 events)", borealis, lambda game: enqueue_scoring(client, game)),
        ("json export, high-card", high_card, lambda game: export(client, store, game, "json", export_dir)),
        ("html export, borealis", borealis, lambda game: export(client, store, game, "html", export_dir)),
    ]
    for label, games, enqueue in cases:
        print(f"{label}:")
        for (name, worker_class), batch in zip(WORKER_CLASSES.items(), games, strict=True):
            for game in batch:
                enqueue(game)
            rate(name, len(batch), drain(client, worker_class))


def export(client: redis.Redis, store: EventStore, game_id: str, fmt: str, export_dir: Path) -> None:
    enqueue_export(client, game_id, fmt, store.version(game_id), None, "all", str(export_dir))


def bench_memory(client: redis.Redis, store: EventStore, export_dir: Path) -> None:
    """``json`` timed as it runs; ``ndjson`` under tracemalloc (which slows it) for the peak allocation."""
    print("export of long games (json: time; ndjson: peak Python allocation, tracemalloc):")
    for length in MEMORY_LENGTHS:
        game_id = record_trek(store, length)
        started = time.perf_counter()
        saved = export_game(store, client, game_id, "json", length, None, export_dir)
        seconds = time.perf_counter() - started
        tracemalloc.start()
        export_game(store, client, game_id, "ndjson", length, None, export_dir)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  {length:>7} events: json {seconds:6.2f} s ({length / seconds:6.0f} events/s, "
              f"{saved['size'] / 2**20:5.1f} MiB); ndjson peak allocation {peak / 2**20:5.1f} MiB", flush=True)


TREK = Trek()


def main() -> None:
    logging.getLogger("rq").setLevel(logging.WARNING)
    registry.register(HIGH_CARD)
    registry.register(TREK)
    with tempfile.TemporaryDirectory() as folder:
        server = RedisServer(Path(folder) / "redis").start()
        try:
            client = redis.Redis.from_url(server.url)
            store = EventStore(client)
            warm_up(client, store, Path(folder) / "exports")
            bench_trivial(client)
            bench_jobs(client, store, Path(folder) / "exports")
            bench_memory(client, store, Path(folder) / "exports")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
