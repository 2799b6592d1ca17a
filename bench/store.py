"""Event store figures, each beside a raw baseline measured in the same run on the same private Redis.

* append: ``EventStore.append`` of commands of 1-3 events (Lua script, hash
  chain, idempotency key) against redis-py ``XADD`` of the same
  stored payloads one at a time; target ratio >= 0.6;
* load: a game of 100, 1,000 and 10,000 events (a synthetic game: no real
  one is that long) with and without snapshots, beside a bare ``XRANGE`` of
  all its events; target with a snapshot < 10 ms at any length;
* replay: the rate at which ``Rules.apply`` folds the events of every game, over histories recorded by
  random legal play in server mode, each folded from its ``game_created`` as
  the store does (rules looked up by name); target >= 100,000 events/s for
  every game of ``domain/`` (the engine's own test games are shown beside them).
  The rate judged is per second of the process's CPU time: folding is pure
  computation in one thread, so on a shared machine wall time would mostly
  measure the neighbours; the wall-clock rate is printed beside it.

Run from the repository root: ``python -m bench.store``.
"""
from __future__ import annotations

import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import redis

from domain import registry
from domain.core import SERVER, Rules, make_event
from domain.core.match import apply_event, create, legal_moves, replay, submit, waiting_for
from service.redis_server import RedisServer
from service.store import EventStore
from service.store.keys import game_keys
from tests.core.high_card import RULES as HIGH_CARD

APPEND_COMMANDS = 3000
ROUNDS = 5
LOAD_LENGTHS = (100, 1_000, 10_000)
SNAPSHOT_EVERY = 200
# The service MACs its snapshots with a key of its own (a store without one takes none); so does the bench.
SNAPSHOT_KEY = b"bench snapshot key"
REPLAY_SECONDS = 0.4
REPLAY_ROUNDS = 5
REPLAY_TARGET = 100_000
FILLER = "the sledge crossed the pressure ridge at dawn and the dogs were fed twice "


class Tally(Rules):
    """A synthetic game that never ends: each seat in turn marks a tally; the state keeps the last 100 marks,
    so a snapshot is a few kilobytes, as a real board game's is."""

    name = "bench-tally"
    title = "Tally"
    rules_version = "1"
    player_counts = (2, 3, 4)

    def setup(self, created):
        seats = [seat["seat"] for seat in created["seats"]]
        return {"seats": seats, "turn": 0, "totals": {seat: 0 for seat in seats}, "marks": []}

    def event_types(self):
        return frozenset({"tallied"})

    def apply(self, state, event):
        state["totals"][event["seat"]] += event["data"]["points"]
        state["marks"] = [*state["marks"][-99:], {"seat": event["seat"], "points": event["data"]["points"]}]
        state["turn"] = (state["turn"] + 1) % len(state["seats"])
        return state

    def decide(self, state, seat, command):
        return [make_event("tallied", {"points": command["points"], "note": FILLER})]

    def chance_node(self, state):
        return None

    def to_act(self, state):
        return [state["seats"][state["turn"]]]

    def legal_moves(self, state, seat):
        return [{"type": "tally", "points": 1}]

    def view(self, state, reader):
        return state

    def secrets(self, state):
        return {}

    def is_over(self, state):
        return False

    def final_score(self, state):
        return {"outcome": "ranked", "totals": state["totals"], "lines": [], "ranking": [], "tie_breaks": []}


TALLY = Tally()
_ids = itertools.count()


def tally_events(count: int, seats: int = 4) -> list[dict]:
    return [
        make_event("tallied", {"points": n % 5 + 1, "note": FILLER}, seat=f"p{n % seats + 1}") for n in range(count)
    ]


def new_tally(store: EventStore) -> str:
    game_id = f"bench-{next(_ids)}"
    _match, events = create(TALLY, {}, ["Ann", "Bo", "Cy", "Dee"], SERVER, "seed")
    store.create(game_id, events, seed="seed", tokens={}, players=["Ann", "Bo", "Cy", "Dee"])
    return game_id


def batches(events: list[dict], sizes: list[int]) -> list[list[dict]]:
    out, at = [], 0
    for size in itertools.cycle(sizes):
        if at >= len(events):
            return out
        out.append(events[at:at + size])
        at += size
    return out


def store_appends(store: EventStore, commands: list[list[dict]]) -> tuple[float, str]:
    """Seconds to append every command to a new game, and the game."""
    game_id = new_tally(store)
    version = store.version(game_id)
    started = time.perf_counter()
    for number, events in enumerate(commands):
        store.append(game_id, version, events, command={"type": "tally", "points": 1},
                     command_id=f"c{number}", idempotency_key=f"k{number}")
        version += len(events)
    return time.perf_counter() - started, game_id


def raw_xadds(client: redis.Redis, payloads: list[bytes]) -> float:
    key = f"bench:raw:{next(_ids)}"
    started = time.perf_counter()
    for payload in payloads:
        client.xadd(key, {"e": payload})
    return time.perf_counter() - started


def bench_append(client: redis.Redis) -> None:
    store = EventStore(client, snapshot_every=SNAPSHOT_EVERY, snapshot_key=SNAPSHOT_KEY)
    commands = batches(tally_events(APPEND_COMMANDS * 2), [1, 2, 3])[:APPEND_COMMANDS]
    events = sum(len(command) for command in commands)
    store_rates, raw_rates, sizes = [], [], []
    for _round in range(ROUNDS):
        seconds, game_id = store_appends(store, commands)
        store_rates.append(events / seconds)
        payloads = [fields[b"e"] for _id, fields in client.xrange(game_keys(game_id).events, "2-0", "+")]
        sizes.extend(len(payload) for payload in payloads)
        raw_rates.append(events / raw_xadds(client, payloads))
    store_rate, raw_rate = statistics.median(store_rates), statistics.median(raw_rates)
    ratio = statistics.median(ours / raw for ours, raw in zip(store_rates, raw_rates, strict=True))
    print(f"append: {len(commands)} commands, {events} events, 1-3 per command, idempotency key each, "
          f"mean payload {statistics.mean(sizes):.0f} bytes, median of {ROUNDS} paired rounds")
    print(f"  store append   {store_rate:9,.0f} events/s  {store_rate * len(commands) / events:9,.0f} commands/s")
    print(f"  raw XADD       {raw_rate:9,.0f} events/s  (one XADD per event, the same payloads)")
    print(f"  ratio          {ratio:9.2f}   (target >= 0.6)")


def timed(action: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of ``repeat`` runs."""
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def extend(store: EventStore, game_id: str, length: int) -> None:
    """Append synthetic events, ten at a time, until the game has ``length``."""
    version = store.version(game_id)
    for events in batches(tally_events(length - version), [10]):
        store.append(game_id, version, events, command=None, command_id="build", idempotency_key=None)
        version += len(events)


def bench_load(client: redis.Redis) -> None:
    """The snapshotted game is loaded (so snapshotted) ``SNAPSHOT_EVERY - 1`` events before its end: the
    worst case, as the next load that folds ``SNAPSHOT_EVERY`` events takes a new snapshot."""
    snapshotting = EventStore(client, snapshot_every=SNAPSHOT_EVERY, snapshot_key=SNAPSHOT_KEY)
    plain = EventStore(client, snapshot_every=0)
    print(f"load: synthetic game, median ms; snapshot every {SNAPSHOT_EVERY} events, "
          f"timed {SNAPSHOT_EVERY - 1} events after it (the worst case)")
    print(f"  {'events':>7} {'with snapshot':>14} {'without':>9} {'raw XRANGE':>11}")
    for length in LOAD_LENGTHS:
        with_snapshot, without = new_tally(snapshotting), new_tally(plain)
        extend(snapshotting, with_snapshot, max(length - SNAPSHOT_EVERY + 1, 5))
        snapshotting.load(with_snapshot)
        extend(snapshotting, with_snapshot, length)
        extend(plain, without, length)
        repeat = 5 if length >= 10_000 else 25
        assert snapshotting.load(with_snapshot).version == plain.load(without).version == length
        fast = timed(lambda game=with_snapshot: snapshotting.load(game), repeat)
        slow = timed(lambda game=without: plain.load(game), repeat)
        raw = timed(lambda game=without: client.xrange(game_keys(game).events), repeat)
        print(f"  {length:>7,} {fast:>11.2f} ms {slow:>6.1f} ms {raw:>8.1f} ms")
    print(f"  target with a snapshot: < 10 ms at any length (below {SNAPSHOT_EVERY} events no snapshot is taken)")


def random_history(rules: Rules, seed: int) -> list[dict]:
    rng = random.Random(seed)
    players = [f"Player {n}" for n in range(1, max(rules.player_counts) + 1)]
    match, events = create(rules, {}, players, SERVER, f"seed-{seed}")
    while not match.ended and len(events) < 20_000:
        seat = waiting_for(match)[0]
        batch = submit(match, seat, rng.choice(legal_moves(match, seat)), f"seed-{seed}")
        for event in batch:
            apply_event(match, event)
        events.extend(batch)
    return events


def histories_for(rules: Rules) -> list[list[dict]]:
    if rules is TALLY:
        return [create(TALLY, {}, ["Ann", "Bo", "Cy", "Dee"], SERVER, "seed")[1] + tally_events(1000)]
    return [random_history(rules, seed) for seed in range(5)]


def fold_rates(histories: list[list[dict]]) -> tuple[float, float]:
    """Events per second of CPU time and of wall time folding the histories in turn, each whole, for at least
    ``REPLAY_SECONDS`` of CPU time."""
    events, folds, started, cpu_started = 0, 0, time.perf_counter(), time.process_time()
    while time.process_time() - cpu_started < REPLAY_SECONDS or folds < len(histories):
        played = histories[folds % len(histories)]
        replay(played, registry.get_rules)
        events += len(played)
        folds += 1
    return events / (time.process_time() - cpu_started), events / (time.perf_counter() - started)


def bench_replay() -> None:
    """Every game's median rate of ``REPLAY_ROUNDS`` rounds, a round per game in turn, so that a busy
    moment of the machine weighs on one round of each game rather than on one game."""
    print(f"replay: apply fold rate over random server-mode games with the most players, median of "
          f"{REPLAY_ROUNDS} rounds; target >= {REPLAY_TARGET:,} events/s of CPU time for every game")
    print(f"  {'game':<22} {'CPU events/s':>12} {'wall':>12}")
    games = {rules.name: rules for rules in (HIGH_CARD, TALLY)}
    targeted = registry.game_names()
    games.update((name, registry.get_rules(name)) for name in targeted)
    histories: dict[str, list[list[dict]]] = {}
    for name, rules in games.items():
        try:
            histories[name] = histories_for(rules)
        except Exception as error:  # a game still being written must not stop the others' figures
            print(f"  {name:<22} skipped: {type(error).__name__}: {error}")
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in histories}
    for _round in range(REPLAY_ROUNDS):
        for name, played in histories.items():
            rates[name].append(fold_rates(played))
    for name, played in histories.items():
        cpu = statistics.median(rate for rate, _wall in rates[name])
        wall = statistics.median(wall for _rate, wall in rates[name])
        verdict = ("met" if cpu >= REPLAY_TARGET else "NOT met") if name in targeted else "(engine test game)"
        mean = statistics.mean(len(history) for history in played)
        print(f"  {name:<22} {cpu:12,.0f} {wall:12,.0f}  {verdict:<18} ({mean:,.0f} events per game)")


def main() -> int:
    registry.register(HIGH_CARD)
    registry.register(TALLY)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, redis-py {redis.__version__}")
    with tempfile.TemporaryDirectory(prefix="cairn-bench-") as folder:
        server = RedisServer(Path(folder)).start()
        try:
            client = redis.Redis.from_url(server.url)
            print(f"redis: {client.info('server')['redis_version']}, appendonly yes, appendfsync everysec")
            bench_append(client)
            bench_load(client)
        finally:
            server.stop()
    bench_replay()
    return 0


if __name__ == "__main__":
    sys.exit(main())
