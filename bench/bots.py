"""The search bot's strength: win rates against random players and a weaker self, and normal endings.

Run from the project root: ``python -m bench.bots [GAME ...]`` (or ``./run bench bots``, every game). For
each game, three pairings of two players: the bot at ``weak`` against a uniform random player, ``medium``
against ``weak`` and ``strong`` against ``medium``, alternating seats, one seed per game. Printed per game
and pairing: games played, the first seat's win rate (a shared first place counts half) with its 95 %
Wilson interval, the share of games reaching the game's normal end, and the mean and longest time per move
of the stronger seat. The targets (:data:`WIN_TARGETS`, :data:`NORMAL_TARGET`, :data:`MOVE_SECONDS`) each
get a line saying met or NOT met: weak wins >= 95 % against random with the interval's lower bound >= 85 %;
medium against weak and strong against medium win >= 70 % with the lower bound above 55 %; >= 90 % normal
ends in every pairing; a weak move under 0.1 s, a medium one under 0.5 s on average, no strong move over its
own time limit (by more than the 10 % one search step may run past it); and for I C E Expedition both of its
endings seen among its games. The targets are judged over at least :data:`MIN_SEEDS` seeds per pairing; a
shorter run says so.

The games are played in worker processes, one per core, seeds handed out round-robin over the pairings so
every pairing advances alike. Each game depends only on its seed; a pairing counts the games of seeds
0, 1, 2, ... up to the first one not finished when ``BENCH_BOT_SECONDS`` ran out, so a longer run only adds
games and the same seeds always give the same table (the times per move aside). ``BENCH_BOT_PAIRINGS`` (say
``weak-random,medium-weak``) plays only the pairings named, and reports the others as not met.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bots import LEVELS, Policy, policy
from bots.determinise import LogEntry
from bots.endings import BOTH_ENDINGS, ending, is_normal
from bots.outcome import winners
from bots.play import play
from domain.registry import game_names, get_rules

GAMES = int(os.environ.get("BENCH_BOT_GAMES", "40"))
DEADLINE_SECONDS = float(os.environ.get("BENCH_BOT_SECONDS", "540"))
WORKERS = int(os.environ.get("BENCH_BOT_WORKERS", str(os.cpu_count() or 1)))
ALL_PAIRINGS = (("weak", "random"), ("medium", "weak"), ("strong", "medium"))
# A strong game costs several medium ones, so a run may leave its pairing out (the module's docstring).
CHOSEN_PAIRINGS = os.environ.get("BENCH_BOT_PAIRINGS")
PAIRINGS = tuple(pairing for pairing in ALL_PAIRINGS
                 if CHOSEN_PAIRINGS is None or "-".join(pairing) in CHOSEN_PAIRINGS.split(","))
MIN_SEEDS = 40
# Per pairing: the least win rate, and the least the 95 % interval's lower bound may be (inclusive or not).
WIN_TARGETS = {("weak", "random"): (0.95, 0.85, True), ("medium", "weak"): (0.70, 0.55, False),
               ("strong", "medium"): (0.70, 0.55, False)}
NORMAL_TARGET = 0.9
# The mean seconds a move of each level may take; strong is held to its own budget's limit, on every move.
MOVE_SECONDS = {"weak": 0.1, "medium": 0.5}
OVERRUN = 1.1

Pairing = tuple[str, str]
ERROR = "error"


@dataclass(frozen=True)
class Result:
    """One game: the stronger seat's share of first place, how the game ended, the bot's moves and time."""

    win: float
    end: str
    normal: bool
    bot_moves: int
    bot_seconds: float
    longest: float = 0.0


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    normal: int = 0
    endings: dict[str, int] = field(default_factory=dict)
    bot_moves: int = 0
    bot_seconds: float = 0.0
    longest: float = 0.0

    def add(self, result: Result) -> None:
        self.games += 1
        self.wins += result.win
        self.normal += result.normal
        self.endings[result.end] = self.endings.get(result.end, 0) + 1
        self.bot_moves += result.bot_moves
        self.bot_seconds += result.bot_seconds
        self.longest = max(self.longest, result.longest)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


class Timed:
    """A policy that counts its moves and the time they took."""

    def __init__(self, inner: Policy):
        self.inner = inner
        self.moves = 0
        self.seconds = 0.0
        self.longest = 0.0

    def choose(self, seat: str, events: Sequence[LogEntry], legal_moves: list[dict]) -> dict:
        started = time.perf_counter()
        move = self.inner.choose(seat, events, legal_moves)
        took = time.perf_counter() - started
        self.seconds += took
        self.longest = max(self.longest, took)
        self.moves += 1
        return move


def play_one(game: str, strong: str, weak: str, seed: int) -> Result:
    """One game of ``strong`` against ``weak``, the stronger seat alternating with the seed."""
    rules = get_rules(game)
    strong_seat = "p1" if seed % 2 == 0 else "p2"
    weak_seat = "p2" if strong_seat == "p1" else "p1"
    timed = Timed(policy(strong, seed))
    seats: dict[str, Policy] = {strong_seat: timed, weak_seat: policy(weak, seed + 1000)}
    match = play(rules, seats, seed).match
    first = winners(rules.final_score(match.state))
    end = ending(match)
    return Result((1.0 / len(first)) if strong_seat in first else 0.0, end, is_normal(game, end),
                  timed.moves, timed.seconds, timed.longest)


def _play_job(job: tuple[str, Pairing, int]) -> tuple[tuple[str, Pairing, int], Result]:
    """One game; a game whose play raised counts as an ``error`` ending (never a normal one), named with
    its error, so one broken game shows in the table instead of ending the whole run."""
    game, (strong, weak), seed = job
    try:
        return job, play_one(game, strong, weak, seed)
    except Exception as error:  # noqa: BLE001 - reported below the table, with its seed
        return job, Result(0.0, f"{ERROR} {type(error).__name__}: {error}", False, 0, 0.0)


def run_games(games: list[str], deadline: float) -> dict[tuple[str, Pairing], list[Result]]:
    """Each pairing's results for seeds 0, 1, ... without a gap, played in parallel until ``deadline``."""
    jobs = [(game, pairing, seed) for seed in range(GAMES) for game in games for pairing in PAIRINGS]
    done: dict[tuple[str, Pairing, int], Result] = {}
    with multiprocessing.Pool(WORKERS) as pool:
        results = pool.imap_unordered(_play_job, jobs)
        try:
            while len(done) < len(jobs):
                job, result = results.next(timeout=max(0.0, deadline - time.monotonic()))
                done[job] = result
        except multiprocessing.TimeoutError:
            pass
        pool.terminate()
    out = {}
    for game in games:
        for pairing in PAIRINGS:
            played = []
            for seed in range(GAMES):
                if (game, pairing, seed) not in done:
                    break
                played.append(done[game, pairing, seed])
            out[game, pairing] = played
    return out


def targets(pairing: Pairing, tally: Tally) -> list[tuple[str, bool]]:
    """Each target of one pairing, as a line to print and whether it is met."""
    strong, weak = pairing
    games = tally.games
    rate = tally.wins / games if games else 0.0
    low, high = wilson(tally.wins, games)
    least, bound, inclusive = WIN_TARGETS[pairing]
    lines = [(f"{strong} wins >= {least:.0%} against {weak}, 95% CI lower bound {'>=' if inclusive else '>'} "
              f"{bound:.0%}: {rate:.0%} (95% CI {low:.0%}-{high:.0%}, {games} games)",
              games > 0 and rate >= least and (low >= bound if inclusive else low > bound))]
    normal = tally.normal / games if games else 0.0
    low, high = wilson(tally.normal, games)
    lines.append((f"normal end in >= {NORMAL_TARGET:.0%} of {strong} v {weak} games: {normal:.0%} "
                  f"(95% CI {low:.0%}-{high:.0%})", games > 0 and normal >= NORMAL_TARGET))
    mean = tally.bot_seconds / max(tally.bot_moves, 1)
    if strong in MOVE_SECONDS:
        limit = MOVE_SECONDS[strong]
        lines.append((f"{strong} move < {limit:g} s on average: {mean:.3f} s", tally.bot_moves > 0 and mean < limit))
    else:
        level = LEVELS[strong]
        limit = (level.budget.seconds if level else None) or math.inf
        lines.append((f"{strong} moves within its {limit:g} s limit: longest {tally.longest:.2f} s, mean {mean:.3f} s",
                      tally.bot_moves > 0 and tally.longest <= OVERRUN * limit))
    return lines


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def main() -> int:
    started = time.monotonic()
    unknown = set((CHOSEN_PAIRINGS or "").split(",")) - {"-".join(pairing) for pairing in ALL_PAIRINGS} - {""}
    if unknown:
        # A misspelt pairing would otherwise play nothing and only report every pairing as not played.
        print(f"BENCH_BOT_PAIRINGS: unknown {', '.join(sorted(unknown))}; expected "
              f"{', '.join('-'.join(pairing) for pairing in ALL_PAIRINGS)}", file=sys.stderr)
        return 2
    games = sys.argv[1:] or game_names()
    results = run_games(games, started + DEADLINE_SECONDS)
    tallies = {}
    for key, played in results.items():
        tally = tallies[key] = Tally()
        for result in played:
            tally.add(result)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"{WORKERS} worker processes, {time.monotonic() - started:.0f} s, load average {load}")
    print(f"{'game':<22} {'pairing':<16} {'games':>5} {'win rate':>9} {'95% CI':>13} {'normal end':>10} "
          f"{'ms/move':>8} {'longest':>8}  endings")
    for (game, (strong, weak)), tally in tallies.items():
        low, high = wilson(tally.wins, tally.games)
        rate = tally.wins / tally.games if tally.games else 0.0
        per_move = 1000 * tally.bot_seconds / max(tally.bot_moves, 1)
        normal = tally.normal / tally.games if tally.games else 0.0
        endings = ", ".join(f"{name} {count}" for name, count in sorted(tally.endings.items()))
        print(f"{game:<22} {strong + ' v ' + weak:<16} {tally.games:>5} {rate:>8.0%} {low:>6.0%}-{high:<5.0%} "
              f"{normal:>10.0%} {per_move:>8.0f} {1000 * tally.longest:>8.0f}  {endings}")
    print()
    all_met = True
    for (game, (strong, weak)), played in results.items():
        for seed, result in enumerate(played):
            if result.end.startswith(ERROR):
                all_met = False
                print(f"{game}: {strong} v {weak}, seed {seed}: {result.end}")
    for (game, pairing), tally in tallies.items():
        for line, met in targets(pairing, tally):
            all_met &= met
            print(f"{game}: {line}, {verdict(met)}")
        if tally.games < MIN_SEEDS:
            all_met = False
            print(f"{game}: {' v '.join(pairing)}: {tally.games} seeds, fewer than the {MIN_SEEDS} the targets are "
                  "judged on, NOT met")
    for game in games:
        for pairing in ALL_PAIRINGS:
            if pairing not in PAIRINGS:
                all_met = False
                print(f"{game}: {' v '.join(pairing)}: not played in this run (BENCH_BOT_PAIRINGS), NOT met")
        if game in BOTH_ENDINGS:
            seen: dict[str, int] = {}
            for (name, _), tally in tallies.items():
                for end, count in tally.endings.items():
                    if name == game:
                        seen[end] = seen.get(end, 0) + count
            met = BOTH_ENDINGS[game] <= set(seen)
            all_met &= met
            counts = ", ".join(f"{end} {seen.get(end, 0)}" for end in sorted(BOTH_ENDINGS[game]))
            print(f"{game}: both normal endings seen in its games ({counts}), {verdict(met)}")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
