"""Game knowledge keeps the search off the moves that ruin a game, whatever a few playouts say of them."""
from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bots.games import knowledge_for
from bots.play import organiser_draw
from bots.search import Budget, Search
from domain.core import ORGANISER
from domain.core.match import Match, apply_event, create, legal_moves, submit, waiting_for
from domain.northwest_passage.board import Board
from domain.registry import get_rules

GAME = "through-ice-and-snow"
WEAK = Budget(iterations=16, rollout_depth=10)


def first_decision(seed: int, wanted: str) -> tuple[Match, str]:
    """A two-player game of Through Ice and Snow, played at random up to the first time a seat is offered a
    move of type ``wanted`` (a voyage type to choose, an action to take), and that seat."""
    rng = random.Random(seed)
    match, _ = create(get_rules(GAME), {}, ["Ann", "Bo"], "server", f"knowledge-{seed}")
    while True:
        actor = waiting_for(match)[0]
        moves = legal_moves(match, actor)
        if any(move["type"] == wanted for move in moves):
            return match, actor
        for event in submit(match, actor, rng.choice(moves), f"knowledge-{seed}"):
            apply_event(match, event)


@pytest.mark.parametrize("seed", range(4))
def test_a_fleet_short_of_fuel_sails_on_open_sea(seed):
    """With 4 fuel a ship and the whole voyage ahead, a coastal voyage (2 fuel a ship, TIS-VOY-5) would spend
    what the fleet cannot restock in time: the bot never chooses it, though the rules still offer it."""
    match, leader = first_decision(seed, "choose_voyage_type")
    for player in match.state["players"]:
        player["fuel"] = 4
    offered = legal_moves(match, leader)
    assert {"type": "choose_voyage_type", "voyage": "coastal"} in offered
    chosen = Search(knowledge_for(GAME), WEAK, random.Random(seed)).choose([match], leader, offered)
    assert chosen == {"type": "choose_voyage_type", "voyage": "open_sea"}


def test_the_moves_left_to_search_are_never_none():
    """Even when every offered move is one to avoid, the search still has a move to play."""
    match, leader = first_decision(0, "choose_voyage_type")
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
            move = organiser_draw(moves, rng)
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
                move = organiser_draw(moves, rng)
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


def in_the_final_round(match: Match, fuel: int) -> None:
    """The fleet on the blue anchor Herschel (TIS-ACT-5) with every map section laid on side A and ``fuel`` a
    ship: one Action phase, then the final voyage (TIS-END-1)."""
    state = match.state
    state["sections"] = {"E": "A", "CE": "A", "CW": "A", "W": "A"}
    state["anchor"] = "B1"
    for player in state["players"]:
        player["fuel"] = fuel


@pytest.mark.parametrize("seed", range(4))
def test_in_the_final_round_a_fleet_without_fuel_restocks_it_first(seed):
    """Empty fuel tracks before the final voyage lose everyone the game there (TIS-LOSE-3), whatever prestige
    or food the last Action phase brings: while a fuel restock is offered, it is all the search considers."""
    match, seat = first_decision(seed, "take_action")
    in_the_final_round(match, fuel=0)
    me = match.state["players"][match.state["seats"].index(seat)]
    me["food"], me["health"] = 1, 1
    me["wood"] = max(me["wood"], 1)
    offered = legal_moves(match, seat)
    restocking = [move for move in offered if move.get("space") in ("experiment", "visit-inuit")]
    assert restocking
    prune = knowledge_for(GAME).prune
    assert prune is not None
    assert prune(match.state, seat, offered) == restocking


def test_the_evaluation_sees_no_end_for_a_fleet_out_of_fuel_before_the_final_voyage():
    """With no Action phase left, the final voyage's fuel (1 a ship, TIS-END-1) is there or the game is lost:
    the evaluation gives such a fleet next to no chance, and a fleet that has the fuel a good one."""
    evaluate = knowledge_for(GAME).evaluate
    assert evaluate is not None
    match, _ = first_decision(0, "take_action")
    in_the_final_round(match, fuel=0)
    match.state["step"] = "cleanup"
    empty = evaluate(match.state, match.state["seats"])
    in_the_final_round(match, fuel=2)
    fuelled = evaluate(match.state, match.state["seats"])
    assert max(empty.values()) < 0.05 < min(fuelled.values())
    assert all(fuelled[seat] > 5 * empty[seat] for seat in fuelled)


def test_the_leader_sails_the_way_the_map_sections_lie():
    """From St. Patrick the fleet can reach the blue anchor Herschel in one voyage (W1 to B1) or go round by
    Mackenzie (W1, W2, B2): a voyage more of dynamite and fuel (TIS-VOY-3, TIS-VOY-5). From Banks the route to
    Herschel lies only on side A of the West section (GAP-1), so the leader placing it lays side A. The
    playouts take the shorter way in all but their uniform moves, and the search never looks at a way longer
    by more than a voyage (from Bathurst through Prince of Wales, every section on side A: its way on needs a
    second dynamite)."""
    knowledge = knowledge_for(GAME)
    assert knowledge.prune is not None and knowledge.rollout is not None
    match, seat = first_decision(1, "take_action")
    state = match.state
    rng = random.Random(1)

    def chosen(moves: list[dict], field: str) -> list[str]:
        return [knowledge.rollout(state, seat, moves, rng)[field] for _ in range(200)]

    state["sections"] = {"E": "A", "CE": "A", "CW": "A", "W": "A"}
    state["anchor"] = "W1"
    ways = [{"type": "choose_destination", "anchor": anchor} for anchor in ("B1", "W2")]
    assert chosen(ways, "anchor").count("B1") > 180
    state["sections"] = {"E": "A", "CE": "A", "CW": "A"}
    state["anchor"], state["destination"] = "D3", "Z1"
    sides = [{"type": "place_map_section", "section": "W", "side": side} for side in ("A", "B")]
    assert chosen(sides, "side").count("A") > 180
    state["sections"] = {"E": "A", "CE": "A", "CW": "A", "W": "A"}
    state["anchor"] = "C3"
    ways = [{"type": "choose_destination", "anchor": anchor} for anchor in ("Y2", "C2")]
    assert knowledge.prune(state, seat, ways) == ways[:1]


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
