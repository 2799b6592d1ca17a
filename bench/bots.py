"""The search bot's strength: win rates against random players and a weaker self, and normal endings.

Run from the project root: ``python -m bench.bots`` (or ``./run bench bots``). For each game, two players:
the bot at ``weak`` against a uniform random player, and the bot at ``medium`` against itself at ``weak``,
alternating seats, one seed per game. Printed per game and pairing: games played, the first seat's win rate
(a shared first place counts half) with its 95 % Wilson interval, the share of games reaching the game's
normal end, and the mean time per bot move. Targets: >= 90 % wins against random, > 50 % for the stronger
level, >= 80 % normal ends (Ice Expedition: both endings seen as well). Games are played until each pairing
has ``GAMES`` or the shared deadline passes, so the run stays within ten minutes.
"""
from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass, field

from bots import policy
from bots.endings import BOTH_ENDINGS, ending, is_normal
from bots.outcome import winners
from bots.play import play
from domain.registry import game_names, get_rules

GAMES = int(os.environ.get("BENCH_BOT_GAMES", "6"))
DEADLINE_SECONDS = float(os.environ.get("BENCH_BOT_SECONDS", "540"))
PAIRINGS = (("weak", "random"), ("medium", "weak"))


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    normal: int = 0
    endings: dict[str, int] = field(default_factory=dict)
    bot_moves: int = 0
    bot_seconds: float = 0.0


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


class Timed:
    """A policy that counts its moves and the time they took."""

    def __init__(self, inner, tally: Tally):
        self.inner, self.tally = inner, tally

    def choose(self, seat, events, legal_moves):
        started = time.perf_counter()
        move = self.inner.choose(seat, events, legal_moves)
        self.tally.bot_seconds += time.perf_counter() - started
        self.tally.bot_moves += 1
        return move


def play_one(game: str, strong: str, weak: str, seed: int, tally: Tally) -> None:
    rules = get_rules(game)
    strong_seat = "p1" if seed % 2 == 0 else "p2"
    weak_seat = "p2" if strong_seat == "p1" else "p1"
    policies = {strong_seat: Timed(policy(strong, seed), tally), weak_seat: policy(weak, seed + 1000)}
    match = play(rules, policies, seed).match
    sheet = rules.final_score(match.state)
    first = winners(sheet)
    tally.games += 1
    tally.wins += (1.0 / len(first)) if strong_seat in first else 0.0
    end = ending(match)
    tally.endings[end] = tally.endings.get(end, 0) + 1
    tally.normal += is_normal(game, end)


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def main() -> int:
    deadline = time.monotonic() + DEADLINE_SECONDS
    tallies = {(game, pairing): Tally() for game in game_names() for pairing in PAIRINGS}
    for seed in range(GAMES):
        for (game, (strong, weak)), tally in tallies.items():
            if time.monotonic() < deadline:
                play_one(game, strong, weak, seed, tally)
    all_met = True
    print(f"{'game':<22} {'pairing':<16} {'games':>5} {'win rate':>9} {'95% CI':>13} {'normal end':>10} "
          f"{'ms/move':>8}  endings")
    for (game, (strong, weak)), tally in tallies.items():
        low, high = wilson(tally.wins, tally.games)
        rate = tally.wins / tally.games if tally.games else 0.0
        per_move = 1000 * tally.bot_seconds / max(tally.bot_moves, 1)
        normal = tally.normal / tally.games if tally.games else 0.0
        endings = ", ".join(f"{name} {count}" for name, count in sorted(tally.endings.items()))
        print(f"{game:<22} {strong + ' v ' + weak:<16} {tally.games:>5} {rate:>8.0%} {low:>6.0%}-{high:<5.0%} "
              f"{normal:>10.0%} {per_move:>8.0f}  {endings}")
    print()
    for (game, (strong, weak)), tally in tallies.items():
        rate = tally.wins / tally.games if tally.games else 0.0
        target = 0.9 if weak == "random" else 0.5
        met = rate >= target if weak == "random" else rate > target
        all_met &= met
        low, high = wilson(tally.wins, tally.games)
        print(f"{game}: {strong} wins {'>=' if weak == 'random' else '>'} {target:.0%} against {weak}: "
              f"{rate:.0%} (95% CI {low:.0%}-{high:.0%}, {tally.games} games), {verdict(met)}")
        normal = tally.normal / tally.games if tally.games else 0.0
        low, high = wilson(tally.normal, tally.games)
        met = normal >= 0.8
        if game in BOTH_ENDINGS:
            met &= BOTH_ENDINGS[game] <= set(tally.endings)
        all_met &= met
        print(f"{game}: normal end in >= 80 % of {strong} v {weak} games"
              f"{' (both endings seen)' if game in BOTH_ENDINGS else ''}: {normal:.0%} "
              f"(95% CI {low:.0%}-{high:.0%}), {verdict(met)}")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
