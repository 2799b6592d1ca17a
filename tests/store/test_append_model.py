"""The event store against a model: random interleavings of appends, some racing from threads, on a real Redis.

Each append carries an expected version (right, stale or in the future) and
an idempotency key (none, new, one seen before with the same command, or one
seen before with another). The model says what each must answer; a batch
sent from several threads at once must answer as some one-at-a-time order of
it would. Whatever happens, the stream stays gap-free and duplicate-free, is
exactly the model's history, and its chain verifies.
"""
from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field, replace

import redis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from domain.core.events import make_event
from service.store import EventStore, IdempotencyMismatch, VersionConflict
from service.store.keys import game_keys
from tests.store.conftest import new_game

GAME = "g"
SETTINGS = settings(max_examples=30, stateful_step_count=20, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# What the caller chooses: how the expected version relates to the game's, and which idempotency key to send.
VERSIONS = st.sampled_from(["right", "stale", "future"])
KEYS = st.sampled_from(["none", "new", "shared", "same body", "different body"])
SPEC = st.tuples(VERSIONS, st.integers(1, 3), KEYS, st.integers(0, 1000), st.integers(1, 3), st.integers(0, 1))


@dataclass(frozen=True)
class Request:
    expected: int
    key: str | None
    command: dict
    events: int
    command_id: str
    store: int


@dataclass
class Model:
    """The game as the store must keep it: its version, each key's command and range, and each entry's command."""

    version: int
    keys: dict[str, tuple[dict, int, int, str]] = field(default_factory=dict)
    history: list[str] = field(default_factory=list)

    def copy(self) -> Model:
        return replace(self, keys=dict(self.keys), history=list(self.history))

    def apply(self, request: Request) -> tuple:
        """``(outcome, ...)`` as the store must answer; an applied request is added to the model."""
        if request.key is not None and request.key in self.keys:
            command, first, last, command_id = self.keys[request.key]
            return ("duplicate", first, last, command_id) if command == request.command else ("mismatch",)
        if request.expected != self.version:
            return ("conflict", self.version)
        first, self.version = self.version + 1, self.version + request.events
        if request.key is not None:
            self.keys[request.key] = (request.command, first, self.version, request.command_id)
        self.history.extend([request.command_id] * request.events)
        return ("ok", first, self.version, request.command_id)


class AppendMachine(RuleBasedStateMachine):
    def __init__(self, client: redis.Redis, other: redis.Redis) -> None:
        super().__init__()
        client.flushall()
        self.client = client
        # Two stores on two connection pools: two API processes, each with its own cache of game heads.
        self.stores = [EventStore(client, snapshot_every=0), EventStore(other, snapshot_every=0)]
        new_game(self.stores[0], GAME)
        opening = self.stores[0].read(GAME)
        self.model = Model(version=len(opening), history=[envelope["command_id"] for envelope in opening])
        self.counter = itertools.count()

    def request(self, spec: tuple, shared_key: str) -> Request:
        versions, offset, keys, pick, events, store = spec
        number = next(self.counter)
        command = {"type": "note", "n": number}
        expected = {"right": self.model.version, "stale": max(0, self.model.version - offset),
                    "future": self.model.version + offset}[versions]
        seen = sorted(self.model.keys)
        key = {"none": None, "new": f"key-{number}", "shared": shared_key}.get(keys)
        if keys in ("same body", "different body"):
            key = seen[pick % len(seen)] if seen else f"key-{number}"
            if seen and keys == "same body":
                command = self.model.keys[key][0]
        return Request(expected, key, command, events, f"cmd-{number}", store)

    def send(self, request: Request) -> tuple:
        events = [make_event("note", {"n": index}) for index in range(request.events)]
        try:
            result = self.stores[request.store].append(
                GAME, request.expected, events, command=request.command, command_id=request.command_id,
                idempotency_key=request.key,
            )
        except VersionConflict as conflict:
            return ("conflict", conflict.current_version)
        except IdempotencyMismatch:
            return ("mismatch",)
        assert [envelope["version"] for envelope in result.envelopes] == list(
            range(result.first_version, result.last_version + 1))
        outcome = "duplicate" if result.duplicate else "ok"
        return outcome, result.first_version, result.last_version, result.envelopes[0]["command_id"]

    @rule(spec=SPEC)
    def append(self, spec):
        request = self.request(spec, f"shared-{next(self.counter)}")
        assert self.send(request) == self.model.apply(request)

    @rule(specs=st.lists(SPEC, min_size=2, max_size=4))
    def append_from_threads_at_once(self, specs):
        shared = f"shared-{next(self.counter)}"
        requests = [self.request(spec, shared) for spec in specs]
        answers = race([lambda request=request: self.send(request) for request in requests])
        for order in itertools.permutations(range(len(requests))):
            model = self.model.copy()
            predicted = {index: model.apply(requests[index]) for index in order}
            if all(predicted[index] == answer for index, answer in enumerate(answers)):
                self.model = model
                return
        raise AssertionError(f"no one-at-a-time order of {requests} answers {answers}")

    @invariant()
    def the_stream_is_the_models_history_and_verifies(self):
        entries = self.client.xrange(game_keys(GAME).events)
        assert [entry_id.decode() for entry_id, _ in entries] == [f"{v}-0" for v in range(1, len(entries) + 1)]
        assert [envelope["command_id"] for envelope in self.stores[1].read(GAME)] == self.model.history
        assert self.stores[0].version(GAME) == self.model.version
        assert self.stores[1].verify_chain(GAME).ok


def race(calls: list) -> list:
    """Each call from its own thread, all released at once; their results in order."""
    start = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index: int) -> None:
        start.wait()
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_appends_answer_as_the_model_says_and_leave_a_verified_gap_free_stream(redis_server, redis_client):
    other = redis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        run_state_machine_as_test(lambda: AppendMachine(redis_client, other), settings=SETTINGS)
    finally:
        other.close()
