"""Game knowledge keeps the search off the moves that ruin a game, whatever a few playouts say of them."""
from __future__ import annotations

import random

import pytest

from bots.games import knowledge_for
from bots.search import Budget, Search
from domain.core import ORGANISER
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


def rollout_game(game: str, seed: int, policy_seats: set[str] | None = None) -> Match:
    """A two-player game played to its end by the game's rollout policy at ``policy_seats`` (every seat when
    None) and uniformly at the others, as a playout plays its world; the organiser draws uniformly."""
    rules = get_rules(game)
    rollout = knowledge_for(game).rollout
    assert rollout is not None
    rng = random.Random(seed)
    match, _ = create(rules, {}, ["Ann", "Bo"], "server", f"knowledge-{seed}")
    while not match.ended:
        actor = waiting_for(match)[0]
        moves = legal_moves(match, actor)
        if actor == ORGANISER:
            offer = moves[0]
            move = {"type": offer["type"], "outcome": rng.sample(offer["candidates"], offer["chance"]["count"])}
        elif policy_seats is None or actor in policy_seats:
            move = rollout(match.state, actor, moves, rng)
        else:
            move = rng.choice(moves)
        for event in submit(match, actor, move, f"knowledge-{seed}"):
            apply_event(match, event)
    return match


def test_the_borealis_playout_outscores_uniform_play():
    """Rating each observation by what it adds to the sheet, and passing only when nothing can be observed,
    the playout alone outscores a seat playing uniformly in nearly every game: uniform play mostly reorganises,
    since a hand of four offers 48 Reorganises against a handful of observations."""
    wins = 0
    for seed in range(10):
        seat = "p1" if seed % 2 == 0 else "p2"
        match = rollout_game("borealis", seed, {seat})
        totals = get_rules("borealis").final_score(match.state)["totals"]
        wins += totals[seat] > max(total for other, total in totals.items() if other != seat)
    assert wins >= 9


class NoExploring(random.Random):
    """Draws that never fall in the playout's uniform share (``bots.games.EXPLORE_SHARE``)."""

    def random(self) -> float:
        return 0.5


def test_the_borealis_playout_never_passes_while_it_may_observe_in_the_opening():
    """A Reorganise with the camps empty (BOR-REO-5) gives the turn away; in the first rounds, before the
    scoring cards weigh fully, an observation is always rated above it."""
    rules = get_rules("borealis")
    rollout = knowledge_for("borealis").rollout
    assert rollout is not None
    for seed in range(6):
        rng = random.Random(seed)
        match, _ = create(rules, {}, ["Ann", "Bo"], "server", f"knowledge-{seed}")
        while not match.ended and match.state["round"] <= 3:
            actor = waiting_for(match)[0]
            moves = legal_moves(match, actor)
            if actor == ORGANISER:
                offer = moves[0]
                move = {"type": offer["type"], "outcome": rng.sample(offer["candidates"], offer["chance"]["count"])}
            else:
                move = rollout(match.state, actor, moves, NoExploring())
                player = match.state["players"][actor]
                camps_empty = not any(player["scientists"][camp][colour] for camp in ("CAMP_L", "CAMP_R")
                                      for colour in player["scientists"][camp])
                if camps_empty and any(offered["type"] == "observe" for offered in moves):
                    assert move["type"] != "reorganise", (seed, match.state["round"], move)
            for event in submit(match, actor, move, f"knowledge-{seed}"):
                apply_event(match, event)


def test_the_ice_expedition_playout_uncovers_a_building_in_most_games():
    """Digging the tiles over the building nearest uncovered, top down, with the archaeologists along, the
    playout at both seats reaches the building ending (ICE-END-1) in most games; spread digs never did."""
    uncovered = sum(bool(rollout_game("ice-expedition", seed).state["end_triggered"]) for seed in range(8))
    assert uncovered >= 4
