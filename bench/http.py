"""HTTP move submission: real Borealis moves through the Cairn API beside a trivial one-append endpoint.

Both apps run under the same gunicorn settings (sync workers, 2 of them) on
one private Redis (AOF, ``appendfsync everysec``), started by this run:

* baseline: ``baseline_app`` below, a Flask endpoint whose only work is one
  ``EVALSHA`` of a script that ``XADD``s the ~300-byte JSON body it was sent;
* Cairn, ``service.app:create_app()``, driven two ways; each client has its
  own server-mode Borealis games (2, 3 or 4 seats):
  - submission: the moves of a random game decided in advance (server mode
    with a known seed replays identically), one POST per move with
    ``If-Match`` and a fresh ``Idempotency-Key``: the same request pattern
    as the baseline's, so its moves/s compare directly with the baseline's;
  - play: fetch the acting seat's legal moves, POST one of them; only the
    POST is timed, but the same two workers serve the GETs as well.

The clients run in this process on loopback, driven by one thread with
non-blocking sockets (``bench._loadgen``: the load generator must take as
little as it can of the cores the servers share), for 1, 8 and 32 clients,
in paired rounds (baseline, then Cairn) so that other load on the machine
falls on both alike; throughput is the median round, latencies are pooled.
Outside the timed runs, Redis MONITOR counts the commands each request sends.
The rate limit is raised out of the way: it is a policy, not a cost.
Targets: Cairn moves/s >= 0.4 x baseline requests/s; p99 < 50 ms at 32 clients.

Run from the repository root: ``python -m bench.http``.
"""
from __future__ import annotations

import contextlib
import functools
import http.client
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis
from flask import Flask, request

from bench._loadgen import Client, Driver, Outcome, Request, Response
from domain import registry
from domain.core.chance import SERVER
from domain.core.match import apply_event, create, legal_moves, submit, waiting_for
from service.redis_server import RedisServer, free_port

CONCURRENCY = (1, 8, 32)
ROUNDS = 3
SECONDS = 3.0
MAX_STEPS = 20_000
WARMUP_SECONDS = 1.0
WORKERS = 2
RATIO_TARGET = 0.4
P99_TARGET_MS = 50.0
ROOT = Path(__file__).resolve().parents[1]
CAIRN_APP = "service.app:create_app()"
BASELINE_APP = "bench.http:baseline_app()"
NOTE = "the sledge crossed the pressure ridge at dawn and the dogs were fed twice; "
APPEND_SCRIPT = "return redis.call('XADD', KEYS[1], '*', 'e', ARGV[1])"


def baseline_payload(client: int) -> dict:
    """A body of about 300 bytes, the size of a Borealis move's event envelope."""
    return {"type": "pick", "seat": f"p{client % 4 + 1}", "client": client, "note": NOTE * 3}


def baseline_app() -> Flask:
    """The least an HTTP append can do: parse the body, one Lua append, answer with the entry id."""
    app = Flask("bench-baseline")
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    sha = client.script_load(APPEND_SCRIPT)

    @app.post("/append/<stream>")
    def append(stream: str):
        payload = json.dumps(request.get_json(), separators=(",", ":"))
        entry = client.evalsha(sha, 1, f"bench:http:{stream}", payload)
        return {"id": entry.decode()}, 201

    return app


class BlockingClient:
    """One keep-alive connection (gunicorn's sync workers close it after each answer; it reopens itself)."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None,
             ) -> tuple[int, dict | None, float]:
        """Status, JSON body and seconds from sending the request to reading the whole answer."""
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json", **(headers or {})}
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
            raw = response.read()
        except (ConnectionError, http.client.HTTPException):
            self.connection.close()
            raise
        seconds = time.perf_counter() - started
        if response.will_close:
            self.connection.close()
        is_json = "json" in (response.getheader("Content-Type") or "")
        return response.status, json.loads(raw) if raw and is_json else None, seconds


def appender(index: int) -> Client:
    """A baseline client: POSTs its payload to its own stream."""
    body = baseline_payload(index)
    while True:
        answer = yield Request("POST", f"/append/c{index}", body, timed=True)
        if answer.status != 201:
            raise RuntimeError(f"baseline answered {answer.status}")


@dataclass
class Script:
    """A whole random Borealis game decided in advance: server mode with a known seed is deterministic, so the
    same moves are legal, in the same order, in every game the API creates with these players and seed."""

    players: list[str]
    seed: str
    moves: list[tuple[str, dict, int]]  # (seat, command, the version it is decided against)


def script(player_count: int) -> Script:
    rules = registry.get_rules("borealis")
    players = [f"Player {n}" for n in range(1, player_count + 1)]
    seed = f"bench-http-planned-{player_count}"
    rng = random.Random(seed)
    match, _events = create(rules, {}, players, SERVER, seed)
    moves = []
    while not match.ended:
        seat = rng.choice(waiting_for(match))
        move = rng.choice(legal_moves(match, seat))
        moves.append((seat, move, match.version))
        for event in submit(match, seat, move, seed):
            apply_event(match, event)
    return Script(players, seed, moves)


def new_game(players: list[str], seed: str) -> Generator[Request, Response, tuple[str, dict[str, str], int]]:
    """Create a server-mode Borealis game (untimed): its id, its seat tokens and its version."""
    created = yield Request("POST", "/games", {"game": "borealis", "players": players, "chance_mode": "server",
                                               "seed": seed})
    if created.status != 201:
        raise RuntimeError(f"creating a game answered {created.status}: {created.body[:200]!r}")
    body = created.json()
    return body["game_id"], {seat["seat"]: seat["token"] for seat in body["seats"]}, body["version"]


def submitter(plan: Script) -> Client:
    """A Cairn client that only submits: it replays a scripted game's moves, one POST per step, into games of
    its own (a new one, untimed, when the script runs out)."""
    while True:
        game_id, tokens, _version = yield from new_game(plan.players, plan.seed)
        for seat, move, version in plan.moves:
            headers = {"Authorization": f"Bearer {tokens[seat]}", "If-Match": f'"{version}"',
                       "Idempotency-Key": uuid.uuid4().hex}
            moved = yield Request("POST", f"/games/{game_id}/moves", move, headers, timed=True)
            if moved.status != 201:
                raise RuntimeError(f"a scripted move answered {moved.status}: {moved.body[:200]!r}")


def player(index: int, label: str) -> Client:
    """A Cairn client that plays: fetches the acting seat's legal moves, POSTs one of them (only the POST
    timed), in games of its own (a new one, untimed, when one ends)."""
    rng = random.Random(f"{label}-{index}")
    for games_started in itertools.count():
        players = [f"Player {n}" for n in range(1, 2 + (index + games_started) % 3 + 1)]
        game_id, tokens, _version = yield from new_game(players, f"bench-http-{label}-{index}-{games_started}")
        shown = (yield Request("GET", f"/games/{game_id}")).json()
        waiting, status = shown["waiting_for"], "active"
        while status == "active":
            auth = {"Authorization": f"Bearer {tokens[rng.choice(waiting)]}"}
            offered = yield Request("GET", f"/games/{game_id}/legal-moves", headers=auth)
            if offered.status != 200:
                raise RuntimeError(f"legal moves answered {offered.status}: {offered.body[:200]!r}")
            choices = offered.json()
            headers = {**auth, "If-Match": f'"{choices["version"]}"', "Idempotency-Key": uuid.uuid4().hex}
            moved = yield Request("POST", f"/games/{game_id}/moves", rng.choice(choices["moves"]), headers,
                                  timed=True)
            if moved.status != 201:
                raise RuntimeError(f"a legal move answered {moved.status}: {moved.body[:200]!r}")
            body = moved.json()
            waiting, status = body["waiting_for"], body["status"]


def drive(port: int, make: Callable[[int], Client], concurrency: int, seconds: float,
          servers: tuple[int, ...] = (), max_steps: int = MAX_STEPS) -> Outcome:
    """``concurrency`` clients, set up untimed, then run together until time or count is up; the CPU time the
    ``servers`` processes use meanwhile is the run's server CPU."""
    driver = Driver(port)
    ready = driver.set_up([make(index) for index in range(concurrency)])
    server_cpu = cpu_seconds(servers)
    outcome = driver.run(ready, seconds, max_steps)
    outcome.server_cpu = cpu_seconds(servers) - server_cpu
    return outcome


def cpu_seconds(pids: tuple[int, ...]) -> float:
    """User and system CPU seconds the processes ``pids`` have used so far (fields 14 and 15 of their stat)."""
    ticks = 0
    for pid in pids:
        after_name = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(after_name[11]) + int(after_name[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> tuple[int, ...]:
    """A gunicorn master's workers."""
    return tuple(int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split())


def percentile(samples: list[float], fraction: float) -> float:
    """Milliseconds at ``fraction`` of the sorted samples (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))] * 1000


@contextlib.contextmanager
def gunicorn(app: str, env: dict[str, str], workers: int = WORKERS) -> Iterator[tuple[int, subprocess.Popen]]:
    """A gunicorn of ``workers`` sync workers serving ``app``; yields its port once it answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class", "sync",
         "--bind", f"127.0.0.1:{port}", "--backlog", "2048", "--timeout", "120", "--log-level", "warning", app],
        cwd=ROOT, env={**os.environ, **env},
    )
    try:
        wait_until_serving(port, process)
        yield port, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_until_serving(port: int, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            BlockingClient(port).call("GET", "/bench-ready")
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn serving {port} did not start") from None
            time.sleep(0.1)


def cairn_env(redis_url: str) -> dict[str, str]:
    return {"REDIS_URL": redis_url, "CAIRN_RATE_LIMIT": "1000000", "CAIRN_RATE_BURST": "1000000"}


@dataclass
class Level:
    """One concurrency's paired rounds: the baseline, Cairn submitting scripted moves, Cairn playing."""

    concurrency: int
    baseline: list[Outcome] = field(default_factory=list)
    submitting: list[Outcome] = field(default_factory=list)
    playing: list[Outcome] = field(default_factory=list)

    def errors(self) -> list[str]:
        return sorted({error for run in self.baseline + self.submitting + self.playing for error in run.errors})


def commands_sent(redis_url: str, step: Callable[[], object]) -> Counter:
    """The commands clients send Redis while ``step`` runs, by name (watched with MONITOR, so never during a
    timed run); commands a Lua script runs inside Redis are left out: they are no round trip."""
    stop = f"ECHO bench-monitor-{uuid.uuid4().hex}"
    seen: Counter = Counter()
    with redis.Redis.from_url(redis_url).monitor() as monitor:
        def listen() -> None:
            while (command := monitor.next_command())["command"] != stop:
                if command["client_type"] != "lua":
                    seen[command["command"].split()[0].upper()] += 1

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        step()
        with redis.Redis.from_url(redis_url) as asking:
            asking.echo(stop.split()[1])
        listener.join()
    return seen


def per_request(counts: Counter, requests: int) -> str:
    """Commands per request, then the usual ones by name (a new connection's HELLO is rare: not shown)."""
    usual = [f"{name} {count / requests:.1f}" for name, count in counts.most_common() if count / requests >= 0.05]
    return f"{sum(counts.values()) / requests:.1f} ({', '.join(usual)})"


def round_trips(redis_url: str, baseline_port: int, cairn_port: int, plan: Script, steps: int = 50) -> str:
    """Redis commands per request of one client, each set up and warmed by one step first."""
    sent = []
    for port, client in ((baseline_port, appender(0)), (cairn_port, submitter(plan))):
        driver = Driver(port)
        ready = driver.set_up([client])
        driver.run(ready, SECONDS, 1)
        sent.append(commands_sent(redis_url, functools.partial(driver.run, ready, SECONDS * 10, steps + 1)))
    base, ours = sent
    return (f"  Redis commands sent per request, at 1 client over {steps} each: baseline {per_request(base, steps)}; "
            f"Cairn move {per_request(ours, steps)}")


def measure(baseline: tuple[int, subprocess.Popen], cairn: tuple[int, subprocess.Popen], redis_pid: int,
            scripts: list[Script]) -> list[Level]:
    """Every level's paired rounds, after a warm-up that boots every worker; servers = workers and Redis."""
    (baseline_port, baseline_master), (cairn_port, cairn_master) = baseline, cairn
    drive(baseline_port, appender, 8, WARMUP_SECONDS)
    drive(cairn_port, lambda index: submitter(scripts[index % len(scripts)]), 8, WARMUP_SECONDS)
    drive(cairn_port, lambda index: player(index, "warmup"), 8, WARMUP_SECONDS)
    baseline_servers = (*children(baseline_master.pid), redis_pid)
    cairn_servers = (*children(cairn_master.pid), redis_pid)
    levels = []
    for concurrency in CONCURRENCY:
        level = Level(concurrency)
        for round_number in range(ROUNDS):
            level.baseline.append(drive(baseline_port, appender, concurrency, SECONDS, baseline_servers))
            level.submitting.append(drive(cairn_port, lambda index: submitter(scripts[index % len(scripts)]),
                                          concurrency, SECONDS, cairn_servers))
            label = f"c{concurrency}-r{round_number}"
            level.playing.append(drive(cairn_port, lambda index, label=label: player(index, label), concurrency,
                                       SECONDS, cairn_servers))
        levels.append(level)
    return levels


def pooled(runs: list[Outcome]) -> list[float]:
    return [latency for run in runs for latency in run.latencies]


def paired_ratio(ours: list[Outcome], theirs: list[Outcome]) -> float:
    return statistics.median(mine.rate / base.rate for mine, base in zip(ours, theirs, strict=True) if base.rate)


def cpu_ms(levels: list[Level], runs_of: Callable[[Level], list[Outcome]], spent: Callable[[Outcome], float]) -> float:
    """CPU milliseconds per step over every run of every level."""
    runs = [run for level in levels for run in runs_of(level)]
    return 1000 * sum(spent(run) for run in runs) / max(1, sum(run.steps for run in runs))


def table(title: str, levels: list[Level], cairn: Callable[[Level], list[Outcome]], unit: str) -> bool:
    """A table of Cairn beside the baseline at each concurrency, then its targets; True when all are met."""
    print(title)
    print(f"  {'clients':>7} | {'baseline req/s':>14} {'p50 ms':>7} {'p99 ms':>7} | "
          f"{'Cairn ' + unit:>13} {'p50 ms':>7} {'p99 ms':>7} | {'ratio':>5} {'moves':>7}")
    met, last_p99 = True, float("nan")
    for level in levels:
        ours, base = cairn(level), level.baseline
        ratio = paired_ratio(ours, base)
        met &= ratio >= RATIO_TARGET
        last_p99 = percentile(pooled(ours), 0.99)
        print(f"  {level.concurrency:>7} | {statistics.median(run.rate for run in base):>14,.0f} "
              f"{percentile(pooled(base), 0.5):>7.1f} {percentile(pooled(base), 0.99):>7.1f} | "
              f"{statistics.median(run.rate for run in ours):>13,.0f} {percentile(pooled(ours), 0.5):>7.1f} "
              f"{last_p99:>7.1f} | {ratio:>5.2f} {len(pooled(ours)):>7,}")
    ratios_met = all(paired_ratio(cairn(level), level.baseline) >= RATIO_TARGET for level in levels)
    p99_met = last_p99 < P99_TARGET_MS
    base_server = cpu_ms(levels, lambda level: level.baseline, lambda run: run.server_cpu)
    our_server = cpu_ms(levels, cairn, lambda run: run.server_cpu)
    print(f"  server CPU per step (gunicorn workers + Redis): baseline {base_server:.2f} ms, Cairn {our_server:.2f} ms;"
          f" CPU ratio {base_server / our_server:.2f} (the throughput ratio if the servers had the cores alone)")
    print(f"  load generator CPU per step (sharing the cores): baseline "
          f"{cpu_ms(levels, lambda level: level.baseline, lambda run: run.client_cpu):.2f} ms, "
          f"Cairn {cpu_ms(levels, cairn, lambda run: run.client_cpu):.2f} ms")
    print(f"  target ratio >= {RATIO_TARGET} at every concurrency: {'met' if ratios_met else 'NOT met'}; "
          f"target p99 < {P99_TARGET_MS:g} ms at {levels[-1].concurrency} clients: "
          f"{'met' if p99_met else 'NOT met'} ({last_p99:.1f} ms)")
    return ratios_met and p99_met


def main() -> int:
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start, Python "
          f"{sys.version.split()[0]}")
    print(f"http: gunicorn sync x {WORKERS} workers for each app, one private Redis (AOF, appendfsync everysec); "
          f"clients in this process on loopback, one thread; {ROUNDS} paired rounds of {SECONDS:g} s per level; "
          "throughput = median round, latency = pooled rounds")
    scripts = [script(count) for count in registry.get_rules("borealis").player_counts]
    print("scripted Borealis games: " + ", ".join(f"{len(plan.players)} players {len(plan.moves)} moves"
                                                   for plan in scripts))
    with tempfile.TemporaryDirectory(prefix="cairn-bench-http-") as folder:
        server = RedisServer(Path(folder)).start()
        try:
            env = cairn_env(server.url)
            with gunicorn(BASELINE_APP, env) as baseline, gunicorn(CAIRN_APP, env) as cairn:
                levels = measure(baseline, cairn, server.process.pid, scripts)
                sent = round_trips(server.url, baseline[0], cairn[0], scripts[-1])
        finally:
            server.stop()
    print(f"load average {os.getloadavg()[0]:.1f} at end")
    table("submission: scripted legal moves, one POST each (If-Match, Idempotency-Key)", levels,
          lambda level: level.submitting, "moves/s")
    print(sent)
    table("play: GET the acting seat's legal moves, POST one; only the POST timed; the GETs load the same "
          "workers", levels, lambda level: level.playing, "moves/s")
    errors = sorted({error for level in levels for error in level.errors()})
    for error in errors:
        print(f"  error: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
