"""Game knowledge keeps the search off the moves that ruin a game, whatever a few playouts say of them."""
from __future__ import annotations

import random

import pytest

from bots.games import knowledge_for
from bots.search import Budget, Search
from domain.core.match import Match, apply_event, create, legal_moves, submit, waiting_for
from domain.registry import get_rules

GAME = "through-ice-and-snow"
WEAK = Budget(iterations=16, rollout_depth=10)


def voyage_type_decision(seed: int) -> tuple[Match, str]:
    """A two-player game of Through Ice and Snow, played at random up to the first choice of voyage type."""
    rng = random.Random(seed)
    match, _ = create(get_rules(GAME), {}, ["Ann", "Bo"], "server", f"knowledge-{seed}")
    while True:
        actor = waiting_for(match)[0]
        moves = legal_moves(match, actor)
        if moves[0]["type"] == "choose_voyage_type":
            return match, actor
        for event in submit(match, actor, rng.choice(moves), f"knowledge-{seed}"):
            apply_event(match, event)


@pytest.mark.parametrize("seed", range(4))
def test_a_fleet_short_of_fuel_sails_on_open_sea(seed):
    """With 4 fuel a ship and the whole voyage ahead, a coastal voyage (2 fuel a ship, TIS-VOY-5) would spend
    what the fleet cannot restock in time: the bot never chooses it, though the rules still offer it."""
    match, leader = voyage_type_decision(seed)
    for player in match.state["players"]:
        player["fuel"] = 4
    offered = legal_moves(match, leader)
    assert {"type": "choose_voyage_type", "voyage": "coastal"} in offered
    chosen = Search(knowledge_for(GAME), WEAK, random.Random(seed)).choose([match], leader, offered)
    assert chosen == {"type": "choose_voyage_type", "voyage": "open_sea"}


def test_the_moves_left_to_search_are_never_none():
    """Even when every offered move is one to avoid, the search still has a move to play."""
    match, leader = voyage_type_decision(0)
    coastal = [{"type": "choose_voyage_type", "voyage": "coastal"}]
    prune = knowledge_for(GAME).prune
    assert prune is not None
    assert prune(match.state, leader, coastal) == coastal
