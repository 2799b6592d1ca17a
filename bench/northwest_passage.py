"""How long ``legal_moves`` takes for Northwest Passage in mid-game positions.

Run from the project root: ``python -m bench.northwest_passage``. Four
seeded players who favour placing and drawing tiles and sailing away from
Greenland play rounds 1 to 6; every position of rounds 4 to 6 is timed (the
best of 5 runs each), and the position with the most legal moves is shown.
A second figure is a worst case built by hand: one tile of every type in
hand, ship and sled on open tiles in mid-board. The issue asks for < 50 ms.
"""
from __future__ import annotations

import random
import statistics
import time

from domain.core.match import apply_event, create, legal_moves, submit, waiting_for
from domain.northwest_passage import RULES
from domain.northwest_passage.apply import place_on_board

PREFERRED = ("place_tile", "move_ship", "draw_tile", "move_sled")
SEEDS = (1, 2, 3)


def pick(moves: list[dict], rng: random.Random) -> dict:
    for kind in PREFERRED:
        favoured = [move for move in moves if move["type"] == kind and move.get("to") != "G"]
        if favoured and rng.random() < 0.6:
            return rng.choice(favoured)
    return rng.choice(moves)


def timed(match, seat: str) -> tuple[float, int]:
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        moves = legal_moves(match, seat)
        best = min(best, time.perf_counter() - started)
    return best * 1000, len(moves)


def full_hand_position():
    """Every tile type in p1's reserve, the ship and the sled each on a lone tile in open water."""
    match, _ = create(RULES, {}, ["Ann", "Bo", "Cy", "Di"], "server", "bench-full-hand")
    while match.state["phase"] != "play" or RULES.chance_node(match.state) is not None:
        seat = waiting_for(match)[0]
        for event in submit(match, seat, legal_moves(match, seat)[-1], "bench-full-hand"):
            apply_event(match, event)
    state = match.state
    for tile, kind, x, y in (("S01#90", "S01", 5, 4), ("S02#90", "S02", 8, 6)):
        place_on_board(state, tile, kind, {"anchor_x": x, "anchor_y": y, "rotation": 0, "flip": False},
                       RULES.catalogue)
    seat = state["turn"]["seat"]
    player = state["players"][seat]
    player["ship"].update(at="S01#90", available=4, left_greenland=True)
    player["sled"].update(at="S02#90", available=3)
    large = sorted({tile.type: tile.id for tile in RULES.catalogue.large.values()
                    if tile.id in state["stock"]}.values())
    player["hand"] = large + [f"{kind}#90" for kind in RULES.catalogue.small]
    for tile in large:
        state["stock"].remove(tile)
    return match, seat


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
    match, seat = full_hand_position()
    took, count = timed(match, seat)
    print(f"worst case by hand: {len(match.state['players'][seat]['hand'])} tile types in hand, ship and sled "
          f"in open water: {count} moves in {took:.2f} ms")


if __name__ == "__main__":
    main()
