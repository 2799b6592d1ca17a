"""Whole games played by eager random players: nothing is ever lost, nothing floats, collapse is settled."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core import ORGANISER, SERVER, TABLE
from domain.core.match import apply_event, create, legal_moves, submit, waiting_for
from domain.ice_expedition import RULES
from domain.ice_expedition.geometry import parse_slot
from tests.conformance.harness import play_random_game

ENDINGS = {"end_turn", "end_day", "resend", "stop_sending"}


def check_invariants(state: dict) -> None:
    """Explorers are never lost (ICE-EXC-6): every archaeologist is on the board, in the reserve or being
    placed; every leader is on a present tile or with its owner. Whenever no excavation is half done, no tile
    floats and collapse is at a fixed point (ICE-GEO-6)."""
    tiles = state["tiles"]
    params = state["params"]
    dig = state["dig"]
    arch = sum(t["arch"] for t in tiles.values()) + state["reserve"]["archaeologists"] + (dig["arch"] if dig else 0)
    assert arch == params["archaeologists"]
    camps = sum(1 for t in tiles.values() if t["camp"]) + state["reserve"]["camps"] + (1 if dig and dig["camp"] else 0)
    assert camps == params["camps"]
    assert sum(1 for t in tiles.values() if t["smilodon"]) + state["reserve"]["smilodons"] == params["smilodon_pawns"]
    assert all(at is None or at in tiles for at in state["leaders"].values())
    present = {parse_slot(k) for k in tiles}
    relocating = any(step.get("kind") == "relocate" for step in state["script"])
    if dig is None and not relocating:  # ICE-EXC-3: the collapse check is step 7 of an excavation
        assert not [s for s in present if RULES.geo.unsupported(present, s)]
        assert RULES.geo.collapse_waves(present, lambda s: tiles[f"{s[0]}:{s[1]}:{s[2]}"]["kind"] == "building") == []
        for key, tile in tiles.items():
            if tile["arch"] or key in state["leaders"].values():
                assert not RULES.geo.fully_covered(present, parse_slot(key)), key


@settings(max_examples=6, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([2, 3, 4, 5]))
def test_eager_random_games_keep_every_invariant(seed, players):
    rng = random.Random(seed)
    secret = f"property-{seed}"
    match, _ = create(RULES, {}, [f"P{n}" for n in range(players)], SERVER, secret)
    steps = 0
    while not match.ended:
        seat = rng.choice(waiting_for(match))
        assert seat != ORGANISER
        moves = legal_moves(match, seat)
        eager = [m for m in moves if m["type"] not in ENDINGS]
        move = rng.choice(eager if eager and rng.random() < 0.9 else moves)
        for event in submit(match, seat, move, secret):
            apply_event(match, event)
        check_invariants(match.state)
        steps += 1
        assert steps < 20000
    assert RULES.final_score(match.state)["totals"]


@pytest.mark.parametrize(
    "options",
    [
        {"first_steps": True},
        {"guild_allocation": "choice", "logbook_order": "shuffled"},
        {"excavate_cap_stage": "net", "excavate_base_cost": 4, "overwork_max_per_turn": 2},
        {"leader_counts_for_cost": False, "camp_and_nunatak_stack": False, "hand_discard_incoming": True},
        {"rune_targets": "uncovered", "shape_combinations": "pairs", "allow_voluntary_end_day": False},
    ],
)
def test_every_option_plays_to_the_end_and_conforms(options):
    """Each alternative reading (AMB-2, AMB-3, AMB-4, AMB-13, AMB-22, AMB-24) and variant keeps the game
    conformant: random legal play ends, replays equal, nothing leaks."""
    report = play_random_game(RULES, 3, TABLE, 11, options=options)
    assert report.match.ended
    assert report.match.created["options"] | options == report.match.created["options"]
