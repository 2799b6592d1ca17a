"""How long ``legal_moves`` takes for Northwest Passage in mid-game positions.

Run from the project root: ``python -m bench.northwest_passage``. Four
seeded players who favour placing and drawing tiles and sailing away from
Greenland play rounds 1 to 6; every position of rounds 4 to 6 is timed (the
best of 5 runs each), and the position with the most legal moves is shown.
The issue asks for < 50 ms.
"""
from __future__ import annotations

import random
import statistics
import time

from domain.core.match import apply_event, create, legal_moves, submit, waiting_for
from domain.northwest_passage import RULES

PREFERRED = ("place_tile", "draw_tile", "move_ship", "move_sled")
SEEDS = (1, 2, 3)


def pick(moves: list[dict], rng: random.Random) -> dict:
    for kind in PREFERRED:
        favoured = [move for move in moves if move["type"] == kind and move.get("to") != "G"]
        if favoured and rng.random() < 0.7:
            return rng.choice(favoured)
    return rng.choice(moves)


def timed(match, seat: str) -> tuple[float, int]:
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        moves = legal_moves(match, seat)
        best = min(best, time.perf_counter() - started)
    return best * 1000, len(moves)


def main() -> None:
    samples: list[tuple[float, int, int]] = []
    for seed in SEEDS:
        rng = random.Random(seed)
        match, _ = create(RULES, {}, ["Ann", "Bo", "Cy", "Di"], "server", f"bench-{seed}")
        while not match.ended and match.state["round"] <= 6:
            seat = waiting_for(match)[0]
            if match.state["round"] >= 4:
                took, count = timed(match, seat)
                samples.append((took, count, len(match.state["tiles"])))
            for event in submit(match, seat, pick(legal_moves(match, seat), rng), f"bench-{seed}"):
                apply_event(match, event)
    times = [sample[0] for sample in samples]
    biggest = max(samples, key=lambda sample: sample[1])
    print(f"northwest-passage legal_moves over {len(samples)} mid-game positions (rounds 4-6, 4 players):")
    print(f"  median {statistics.median(times):.2f} ms, max {max(times):.2f} ms (target < 50 ms)")
    print(f"  largest position: {biggest[1]} moves, {biggest[2]} tiles on the board, {biggest[0]:.2f} ms")


if __name__ == "__main__":
    main()
