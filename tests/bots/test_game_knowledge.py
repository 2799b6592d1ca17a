"""Game knowledge keeps the search off the moves that ruin a game, whatever a few playouts say of them."""
from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bots.games import knowledge_for
from bots.search import Budget, Search
from domain.core.match import Match, apply_event, create, legal_moves, submit, waiting_for
from domain.northwest_passage.board import Board
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


NWP = "northwest-passage"


def northwest_passage_game(seed: int, until: Callable[[Match], bool], limit: int = 2000) -> Match:
    """A two-player game of Northwest Passage, every seat playing the rollout policy, up to the first position
    ``until`` accepts (the organiser's draws made at random)."""
    rng = random.Random(seed)
    rollout = knowledge_for(NWP).rollout
    assert rollout is not None
    match, _ = create(get_rules(NWP), {}, ["Ann", "Bo"], "server", f"knowledge-{seed}")
    for _ in range(limit):
        if match.ended or until(match):
            return match
        actor = waiting_for(match)[0]
        moves = legal_moves(match, actor)
        move = rollout(match.state, actor, moves, rng)
        for event in submit(match, actor, move, f"knowledge-{seed}"):
            apply_event(match, event)
    raise AssertionError("the position was never reached")


def ship_sailed_out(match: Match) -> bool:
    """One ship has left Greenland while the other is still there."""
    ships = [player["ship"] for player in match.state["players"].values()]
    return sorted(ship["at"] == "G" for ship in ships) == [False, True]


@pytest.mark.parametrize("seed", range(4))
def test_a_ship_sailing_west_in_good_time_is_worth_more_than_one_kept_home(seed):
    """Leaving Greenland exposes the ship to the abandonment penalty (NWP-SCORE-7), but with the whole game to
    come back the voyage's arrival fame (NWP-SCORE-3, NWP-SCORE-4) outweighs the risk: the evaluation ranks the
    seat whose ship is out ahead of the seat still in port."""
    match = northwest_passage_game(seed, ship_sailed_out)
    seats = match.seats
    out = next(seat for seat in seats if match.state["players"][seat]["ship"]["at"] != "G")
    home = next(seat for seat in seats if seat != out)
    evaluate = knowledge_for(NWP).evaluate
    assert evaluate is not None
    rewards = evaluate(match.state, seats)
    assert rewards[out] > rewards[home]


@pytest.mark.parametrize("seed", range(3))
def test_the_rollout_only_lays_tiles_its_ship_can_sail_onto(seed):
    """Every tile the rollout lays from its ship (NWP-ACT-3) shares a border with sea with the ship's tile or
    port (NWP-GEO-6, NWP-GEO-7): a tile with land there would wall off the lane the ship is to sail."""
    rng = random.Random(seed)
    rollout = knowledge_for(NWP).rollout
    assert rollout is not None
    rules = get_rules(NWP)
    match, _ = create(rules, {}, ["Ann", "Bo"], "server", f"knowledge-{seed}")
    laid = 0
    while not match.ended and match.state["round"] <= 3:
        actor = waiting_for(match)[0]
        move = rollout(match.state, actor, legal_moves(match, actor), rng)
        at = match.state["players"][actor]["ship"]["at"] if move["type"] == "place_tile" else None
        for event in submit(match, actor, move, f"knowledge-{seed}"):
            apply_event(match, event)
        if at is not None and move["pay_from"] == "ship":
            board = Board(match.state, rules.catalogue)
            border = board.borders(at)[move["tile_id"]]
            assert "S" in board.values(border), move
            laid += 1
    assert laid >= 3


def ship_far_west(match: Match) -> bool:
    """A ship out west that has not yet reached the Northwest."""
    return any(player["ship"]["at"] not in ("G", "N") and not player["reached_northwest"]
               and min(cell[0] for cell in match.state["tiles"][player["ship"]["at"]]["cells"]) <= 5
               for player in match.state["players"].values())


def sails_east(state: dict, seat: str, move: dict) -> bool:
    """Whether ``move`` sails the seat's ship to a tile reaching further east than the one it is on."""
    if move["type"] != "move_ship" or move["to"] in ("G", "N"):
        return move == {"type": "move_ship", "to": "G"}
    east = max(cell[0] for cell in state["tiles"][state["players"][seat]["ship"]["at"]]["cells"])
    return max(cell[0] for cell in state["tiles"][move["to"]]["cells"]) > east


@pytest.mark.parametrize("seed", range(3))
def test_a_ship_short_of_time_turns_for_home(seed):
    """Early on a ship out west sails on towards the Northwest; put into the last round, where it can no longer
    reach the Northwest and be back in Greenland, it turns east for home rather than be abandoned
    (NWP-SCORE-7)."""
    match = northwest_passage_game(seed, ship_far_west)
    state = match.state
    seat = next(seat for seat, player in state["players"].items()
                if player["ship"]["at"] not in ("G", "N") and not player["reached_northwest"])
    state["turn"] = {"seat": seat, "actions": 0}
    state["passed"] = []
    ship = state["players"][seat]["ship"]
    ship["available"], ship["resting"] = ship["available"] + ship["resting"], 0
    rollout = knowledge_for(NWP).rollout
    assert rollout is not None

    def eastwards() -> int:
        moves = get_rules(NWP).legal_moves(state, seat)
        return sum(sails_east(state, seat, rollout(state, seat, moves, random.Random(draw))) for draw in range(20))

    assert state["round"] < 5
    assert eastwards() <= 2
    state["round"] = 10
    assert eastwards() >= 15
