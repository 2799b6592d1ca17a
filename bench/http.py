"""HTTP moves through ``cairn serve`` as shipped, beside a trivial one-append endpoint under the same server.

The server is ``cairn serve`` itself (:func:`bench._servers.cairn_serve`:
its supervisor, gunicorn ``gthread`` with 2 processes of 256 threads and the
redacting access log, and an RQ worker), on a private Redis (AOF,
``appendfsync everysec``). The baseline, ``baseline_app`` below, a Flask
endpoint whose only work is one ``EVALSHA`` of a script that ``XADD``s the
~300-byte JSON body it was sent, runs under the same gunicorn command
(:func:`service.cli.api_command`). Each Cairn client has its own
server-mode Borealis games (2, 3 or 4 seats), driven two ways:

* submission: the moves of a random game decided in advance (server mode
  with a known seed replays identically), one POST per move with
  ``If-Match`` and a fresh ``Idempotency-Key``: the baseline's request
  pattern, so its moves/s compare directly;
* play: one request per move, as a bot plays: each POST asks
  ``?include=legal_moves,view`` and the next move is one of the legal moves
  its answer carries.

The clients run in this process on loopback, driven by one thread with
non-blocking sockets (``bench._loadgen``), for 1, 8 and 32 clients: first
keeping their connections alive, as real clients do, then opening one per
request. Rounds are paired (baseline, submission, play) so that other load
on the machine falls on all alike; each ratio is per round, shown as
min / median / max of the rounds and judged on the median. Outside the
timed runs, Redis MONITOR counts the commands each move sends. The rate
limit is raised out of the way: it is a policy, not a cost.
Targets: submission >= 0.6 x baseline at 1, 8 and 32 clients; p99 < 50 ms
at 32 clients; play >= 0.6 x baseline.

Run from the repository root: ``python -m bench.http``.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path

import redis
from flask import Flask, request

from bench._loadgen import Client, Driver, Outcome, Request, Response
from bench._servers import BASELINE_APP, bench_env, cairn_serve, cairn_serve_line, serve
from domain import registry
from domain.core.chance import SERVER
from domain.core.match import apply_event, create, legal_moves, submit, waiting_for
from service.redis_server import RedisServer

CONCURRENCY = (1, 8, 32)
# ./run bench --rounds N --seconds S sets these for every module that times HTTP rounds.
ROUNDS = int(os.environ.get("CAIRN_BENCH_ROUNDS", "3"))
SECONDS = float(os.environ.get("CAIRN_BENCH_SECONDS", "3"))
MAX_STEPS = 20_000
WARMUP_SECONDS = 1.0
SUBMISSION_TARGET = 0.6
PLAY_TARGET = 0.6
P99_TARGET_MS = 50.0
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


def new_game(players: list[str], seed: str) -> Generator[Request, Response, tuple[str, dict[str, str], str]]:
    """Create a server-mode Borealis game (untimed): its id, its seat tokens and its organiser's token."""
    created = yield Request("POST", "/games", {"game": "borealis", "players": players, "chance_mode": "server",
                                               "seed": seed})
    if created.status != 201:
        raise RuntimeError(f"creating a game answered {created.status}: {created.body[:200]!r}")
    body = created.json()
    return body["game_id"], {seat["seat"]: seat["token"] for seat in body["seats"]}, body["organiser_token"]


def submitter(plan: Script) -> Client:
    """A Cairn client that only submits: it replays a scripted game's moves, one POST per step, into games of
    its own (a new one, untimed, when the script runs out)."""
    while True:
        game_id, tokens, _organiser = yield from new_game(plan.players, plan.seed)
        for seat, move, version in plan.moves:
            headers = {"Authorization": f"Bearer {tokens[seat]}", "If-Match": f'"{version}"',
                       "Idempotency-Key": uuid.uuid4().hex}
            moved = yield Request("POST", f"/games/{game_id}/moves", move, headers, timed=True)
            if moved.status != 201:
                raise RuntimeError(f"a scripted move answered {moved.status}: {moved.body[:200]!r}")


def player(plan: Script, label: str) -> Client:
    """A Cairn client that plays, one request per move: each POST asks ``?include=legal_moves,view`` and the
    next move is chosen among the legal moves its answer carries. It plays every seat with the organiser's
    token (whose answer holds the moves of everyone who may act), in games of its own (a new one, untimed,
    when one ends); the first move of a game is the script's, as the game has the script's seed."""
    rng = random.Random(label)
    while True:
        game_id, _tokens, organiser = yield from new_game(plan.players, plan.seed)
        seat, move, version = plan.moves[0]
        while True:
            headers = {"Authorization": f"Bearer {organiser}", "If-Match": f'"{version}"',
                       "Idempotency-Key": uuid.uuid4().hex}
            moved = yield Request("POST", f"/games/{game_id}/moves?include=legal_moves,view", {**move, "seat": seat},
                                  headers, timed=True)
            if moved.status != 201:
                raise RuntimeError(f"a legal move answered {moved.status}: {moved.body[:200]!r}")
            body = moved.json()
            if body["status"] != "active":
                break
            offered = {who: moves for who, moves in sorted(body["legal_moves"].items()) if moves}
            seat = rng.choice(list(offered))
            move, version = rng.choice(offered[seat]), body["version"]


def drive(port: int, make: Callable[[int], Client], concurrency: int, seconds: float,
          servers: tuple[int, ...] = (), keep_alive: bool = True, max_steps: int = MAX_STEPS) -> Outcome:
    """``concurrency`` clients, set up untimed, then run together until time or count is up; the CPU time the
    ``servers`` processes use meanwhile is the run's server CPU."""
    driver = Driver(port, keep_alive)
    try:
        ready = driver.set_up([make(index) for index in range(concurrency)])
        server_cpu = cpu_seconds(servers)
        outcome = driver.run(ready, seconds, max_steps)
        outcome.server_cpu = cpu_seconds(servers) - server_cpu
    finally:
        driver.close()
    return outcome


def cpu_seconds(pids: tuple[int, ...]) -> float:
    """User and system CPU seconds the processes ``pids`` have used so far (fields 14 and 15 of their stat)."""
    ticks = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            after_name = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(after_name[11]) + int(after_name[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def percentile(samples: list[float], fraction: float) -> float:
    """Milliseconds at ``fraction`` of the sorted samples (nearest rank)."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))] * 1000


def spread(values: list[float], form: str = ".2f") -> str:
    """``min / median / max`` of the rounds."""
    return " / ".join(format(value, form) for value in (min(values), statistics.median(values), max(values)))


def submitters(scripts: list[Script]) -> Callable[[int], Client]:
    return lambda index: submitter(scripts[index % len(scripts)])


def players(scripts: list[Script], label: str) -> Callable[[int], Client]:
    return lambda index: player(scripts[index % len(scripts)], f"{label}-{index}")


@dataclass
class Pairs:
    """One concurrency's paired rounds: the baseline's, then each Cairn client's, in turn within a round."""

    concurrency: int
    baseline: list[Outcome] = field(default_factory=list)
    cairn: dict[str, list[Outcome]] = field(default_factory=dict)

    def ratios(self, name: str) -> list[float]:
        return [ours.rate / base.rate if base.rate else 0.0
                for ours, base in zip(self.cairn[name], self.baseline, strict=True)]

    def p99s(self, name: str) -> list[float]:
        return [percentile(run.latencies, 0.99) for run in self.cairn[name]]

    def errors(self) -> list[str]:
        return sorted({error for run in [*self.baseline, *(r for runs in self.cairn.values() for r in runs)]
                       for error in run.errors})


def paired_rounds(baseline: tuple[int, tuple[int, ...]], cairn: tuple[int, tuple[int, ...]],
                  clients: dict[str, Callable[[str], Callable[[int], Client]]], concurrency: int,
                  keep_alive: bool, rounds: int = ROUNDS, seconds: float = SECONDS) -> Pairs:
    """``rounds`` rounds at ``concurrency``: the baseline, then each of Cairn's ``clients`` (made anew for each
    round from the round's label), every run on the same kind of connections; servers = (port, pids to
    charge CPU to)."""
    pairs = Pairs(concurrency, cairn={name: [] for name in clients})
    for number in range(rounds):
        pairs.baseline.append(drive(baseline[0], appender, concurrency, seconds, baseline[1], keep_alive))
        for name, make in clients.items():
            label = f"{name}-c{concurrency}-r{number}-{'kept' if keep_alive else 'new'}"
            pairs.cairn[name].append(drive(cairn[0], make(label), concurrency, seconds, cairn[1], keep_alive))
    return pairs


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
    usual = [f"{name} {count / requests:.2f}" for name, count in counts.most_common() if count / requests >= 0.05]
    return f"{sum(counts.values()) / requests:.2f} ({', '.join(usual)})"


def commands_per_move(redis_url: str, port: int, make: Callable[[int], Client], concurrency: int, keep_alive: bool,
                      steps: int = 300) -> tuple[Counter, int]:
    """The Redis commands of ``steps`` moves of ``concurrency`` clients (set up and warmed first), untimed."""
    driver = Driver(port, keep_alive)
    try:
        ready = driver.set_up([make(index) for index in range(concurrency)])
        driver.run(ready, SECONDS, concurrency)
        before = len(driver.outcome.latencies)
        counts = commands_sent(redis_url, functools.partial(driver.run, ready, SECONDS * 20, before + steps))
        return counts, len(driver.outcome.latencies) - before
    finally:
        driver.close()


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def report(title: str, levels: list[Pairs]) -> None:
    """The figures of every concurrency, and each target with met or NOT met."""
    print(title)
    print(f"  {'clients':>7} | {'baseline req/s':>14} {'p99 ms':>7} | {'submission moves/s':>18} {'p50':>6} {'p99':>6}"
          f" {'ratio min/med/max':>18} | {'play moves/s':>12} {'p99':>6} {'ratio min/med/max':>18}")
    for level in levels:
        base, sub, play = level.baseline, level.cairn["submission"], level.cairn["play"]
        print(f"  {level.concurrency:>7} | {statistics.median(r.rate for r in base):>14,.0f} "
              f"{percentile(pooled(base), 0.99):>7.1f} | {statistics.median(r.rate for r in sub):>18,.0f} "
              f"{percentile(pooled(sub), 0.5):>6.1f} {percentile(pooled(sub), 0.99):>6.1f} "
              f"{spread(level.ratios('submission')):>18} | {statistics.median(r.rate for r in play):>12,.0f} "
              f"{percentile(pooled(play), 0.99):>6.1f} {spread(level.ratios('play')):>18}")
    top = levels[-1]
    p99s = top.p99s("submission")
    base_cpu = cpu_ms([run for level in levels for run in level.baseline])
    sub_cpu = cpu_ms([run for level in levels for run in level.cairn["submission"]])
    play_cpu = cpu_ms([run for level in levels for run in level.cairn["play"]])
    print(f"  server CPU per request (every process of the server + Redis): baseline {base_cpu:.2f} ms, "
          f"submission {sub_cpu:.2f} ms, play {play_cpu:.2f} ms; CPU ratios {base_cpu / sub_cpu:.2f} and "
          f"{base_cpu / play_cpu:.2f} (the throughput ratios if the servers had the cores alone)")
    for name, target, cpu in (("submission", SUBMISSION_TARGET, sub_cpu), ("play", PLAY_TARGET, play_cpu)):
        what = "submission" if name == "submission" else "play with ?include=legal_moves,view"
        medians = [statistics.median(level.ratios(name)) for level in levels]
        print(f"  target {what} >= {target} x baseline at "
              f"{', '.join(str(level.concurrency) for level in levels)} clients (median of the rounds): "
              f"{verdict(all(median >= target for median in medians))}{shortfall(levels, medians, target)}; "
              f"{ceiling(base_cpu, cpu, target)}")
        if name == "submission":
            print(f"  target submission p99 < {P99_TARGET_MS:g} ms at {top.concurrency} clients: "
                  f"{verdict(statistics.median(p99s) < P99_TARGET_MS)} (rounds' p99 min/med/max "
                  f"{spread(p99s, '.1f')} ms)")


def shortfall(levels: list[Pairs], medians: list[float], target: float) -> str:
    """By how much each level falls short of ``target``, if any does."""
    short = [f"{level.concurrency} clients by {target - median:.2f}"
             for level, median in zip(levels, medians, strict=True) if median < target]
    return f" (short at {', '.join(short)})" if short else ""


def ceiling(base_cpu: float, cpu: float, target: float) -> str:
    """The server CPU a request may cost for ``target`` where the cores, not waiting, bound both servers."""
    most = base_cpu / target
    return (f"at {target} a request may cost at most {most:.2f} ms of server CPU, "
            f"{'now within it' if cpu <= most else f'{cpu - most:.2f} ms less than now'}")


def pooled(runs: list[Outcome]) -> list[float]:
    return [latency for run in runs for latency in run.latencies]


def cpu_ms(runs: list[Outcome]) -> float:
    """Server CPU milliseconds per timed request over ``runs``."""
    return 1000 * sum(run.server_cpu for run in runs) / max(1, sum(run.steps for run in runs))


def warm_up(baseline_port: int, cairn_port: int, scripts: list[Script]) -> None:
    """Boot every worker and fill their caches' code paths before anything is timed."""
    drive(baseline_port, appender, 8, WARMUP_SECONDS)
    drive(cairn_port, submitters(scripts), 8, WARMUP_SECONDS)
    drive(cairn_port, players(scripts, "warm-up"), 8, WARMUP_SECONDS)


def machine_line() -> str:
    return (f"machine: {os.cpu_count()} cores, load average {', '.join(f'{n:.2f}' for n in os.getloadavg())} "
            f"(1, 5, 15 min), Python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")


def scripted() -> list[Script]:
    scripts = [script(count) for count in registry.get_rules("borealis").player_counts]
    print("scripted Borealis games: " + ", ".join(f"{len(plan.players)} players {len(plan.moves)} moves"
                                                   for plan in scripts))
    return scripts


def main() -> int:
    print(machine_line())
    print(f"server: {cairn_serve_line()}; the baseline app under the same gunicorn command "
          f"(service.cli.api_command); one private Redis (AOF, appendfsync everysec)")
    print(f"clients: this process, one thread, loopback; {ROUNDS} paired rounds of {SECONDS:g} s per level "
          "(baseline, submission, play); ratios per round, shown min / median / max, judged on the median")
    scripts = scripted()
    clients = {"submission": lambda label: submitters(scripts), "play": lambda label: players(scripts, label)}
    results: dict[bool, list[Pairs]] = {}
    with tempfile.TemporaryDirectory(prefix="cairn-bench-http-") as name:
        folder = Path(name)
        server = RedisServer(folder / "redis").start()
        try:
            env = bench_env(server.url)
            with serve("gthread", BASELINE_APP, env, folder) as baseline, cairn_serve(env, folder) as cairn:
                pids = (server.pid,)
                warm_up(baseline.port, cairn.port, scripts)
                for keep_alive in (True, False):
                    results[keep_alive] = [
                        paired_rounds((baseline.port, baseline.pids() + pids), (cairn.port, cairn.pids() + pids),
                                      clients, concurrency, keep_alive) for concurrency in CONCURRENCY]
                sent = {keep_alive: commands_per_move(server.url, cairn.port, submitters(scripts), 8, keep_alive)
                        for keep_alive in (True, False)}
                logged = cairn.log_lines()
        finally:
            server.stop()
    print(f"load average {os.getloadavg()[0]:.2f} at end; cairn serve wrote {logged:,} log lines (its access log)")
    for keep_alive, title in ((True, "clients keeping their connections alive (as real clients do)"),
                              (False, "clients opening a connection per request")):
        report(title, results[keep_alive])
        counts, moves = sent[keep_alive]
        print(f"  Redis commands per scripted move, 8 clients, {moves} moves: {per_request(counts, moves)}")
    errors = sorted({error for levels in results.values() for level in levels for error in level.errors()})
    for error in errors:
        print(f"  error: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
