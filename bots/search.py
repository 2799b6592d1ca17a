"""Information-set Monte Carlo tree search over determinised worlds (Cowling, Powley and Whitehouse, 2012).

Each iteration takes one world sampled from the searching seat's log, copies it, and walks the tree from
the root: at a seat's turn the moves legal *in this world* (less those the game's ``prune`` leaves out)
compete by UCB, where a move's exploration term counts the iterations in which it was available rather
than its parent's visits (moves legal in only some worlds are not starved). The first move not yet tried
is expanded, then the world is played out by the rollout policy until it ends or the rollout depth is
reached, where the game's evaluation (or 0.5) stands in for the result. Every seat maximises its own
reward (max^n), so the tree serves any number of seats.

Tree nodes are keyed by the moves played from the root, not by chance outcomes (an open-loop tree): the
searching seat cannot see many outcomes anyway, and keying on them would split the statistics thin.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

import orjson

from bots.determinise import FOLD_ERRORS
from bots.games import Knowledge
from bots.outcome import sheet_reward
from domain.core import TABLE
from domain.core.match import Match, apply_event, chance_event, legal_moves, waiting_for

EXPLORATION = 0.7


def move_key(move: dict) -> bytes:
    """One key per distinct move (sorted keys): the tree keys every move it meets, and orjson makes that a
    small share of an iteration where the standard library's encoder was a large one."""
    return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)


@dataclass(frozen=True)
class Budget:
    """How much search one move gets: ``iterations`` at most, and at most ``seconds`` if that is set."""

    iterations: int
    rollout_depth: int = 400
    seconds: float | None = None


@dataclass
class Edge:
    visits: int = 0
    reward: float = 0.0
    available: int = 0


@dataclass
class Node:
    edges: dict[bytes, Edge] = field(default_factory=dict)
    visits: int = 0


def table_world(match: Match) -> Match:
    """A copy whose chance nodes wait to be resolved, so the search draws them itself."""
    world = match.copy()
    world.created = {**world.created, "chance_mode": TABLE}
    return world


def _resolve_chance(world: Match, rng: random.Random) -> None:
    while not world.ended:
        node = world.rules.chance_node(world.state)
        if node is None:
            return
        apply_event(world, chance_event(node, rng.sample(node.candidates, node.count)))


def _play(world: Match, seat: str, move: dict) -> None:
    """Fold an offered move's events without the checks ``submit`` and ``decide`` make of untrusted commands."""
    stamp = world.rules.declared_events.stamp
    for event in world.rules.decide_offered(world.state, seat, move):
        apply_event(world, stamp({**event, "seat": event.get("seat") or seat}))


class Search:
    def __init__(self, knowledge: Knowledge, budget: Budget, rng: random.Random):
        self.knowledge = knowledge
        self.budget = budget
        self.rng = rng

    def choose(self, worlds: list[Match], seat: str, offered: list[dict]) -> dict:
        """The offered move the search visits most from ``seat``'s root, over the sampled ``worlds``."""
        keys = {move_key(move): move for move in offered}
        if len(keys) == 1:
            return offered[0]
        tree: dict[tuple[bytes, ...], Node] = {}
        deadline = None if self.budget.seconds is None else time.monotonic() + self.budget.seconds
        usable = list(worlds)
        for iteration in range(self.budget.iterations):
            if not usable or deadline is not None and iteration and time.monotonic() > deadline:
                break
            world = usable[iteration % len(usable)]
            try:
                self._iterate(table_world(world), tree)
            except FOLD_ERRORS:
                # A sampled world the rules cannot play on (seen in I C E Expedition: a leader on a tile the
                # world lacks, a snow tile played from a hand that lacks it) is left out of this search
                # rather than ending the bot's turn.
                usable.remove(world)
        root = tree.get(())
        if root is None:
            return self.rng.choice(offered)
        scored = [(edge.visits, edge.reward / max(edge.visits, 1), self.rng.random(), key)
                  for key, edge in root.edges.items() if key in keys]
        if not scored:
            return self.rng.choice(offered)
        return keys[max(scored)[3]]

    def _iterate(self, world: Match, tree: dict[tuple[bytes, ...], Node]) -> None:
        path: list[tuple[Edge, str]] = []
        key: tuple[bytes, ...] = ()
        in_tree = True
        depth = 0
        rng = self.rng
        while True:
            _resolve_chance(world, rng)
            if world.rules.is_over(world.state) or depth >= self.budget.rollout_depth:
                break
            awaited = waiting_for(world)
            if not awaited:
                break
            actor = awaited[0]
            moves = legal_moves(world, actor)
            if not moves:
                break
            if in_tree:
                if self.knowledge.prune is not None:
                    moves = self.knowledge.prune(world.state, actor, moves)
                node = tree.get(key)
                if node is None:
                    node = tree[key] = Node()
                edge_key, move = self._select(node, moves, actor, world)
                if node.edges[edge_key].visits == 0:
                    in_tree = False
                path.append((node.edges[edge_key], actor))
                key = (*key, edge_key)
            else:
                move = self._rollout_move(world, actor, moves)
                depth += 1
            _play(world, actor, move)
        rewards = self._rewards(world)
        for edge, actor in path:
            edge.visits += 1
            edge.reward += rewards.get(actor, 0.0)

    def _select(self, node: Node, moves: list[dict], actor: str, world: Match) -> tuple[bytes, dict]:
        """An untried move while the node may widen, else the best by UCB among those tried.

        With a rollout policy the node widens progressively: a new move only while the moves tried number
        at most the square root of the node's visits, and the policy chooses which, so a small budget goes
        to the moves the policy rates best rather than to one visit each of hundreds of moves.
        """
        keyed = [(move_key(move), move) for move in moves]
        untried = []
        for edge_key, _ in keyed:
            edge = node.edges.get(edge_key)
            if edge is None:
                edge = node.edges[edge_key] = Edge()
            edge.available += 1
            if edge.visits == 0:
                untried.append(edge_key)
        node.visits += 1
        by_key = dict(keyed)
        tried = len(by_key) - len(untried)
        policy = self.knowledge.rollout
        if untried and (policy is None or not tried or tried * tried <= node.visits):
            if policy is None:
                choice = self.rng.choice(untried)
            else:
                choice = move_key(policy(world.state, actor, [by_key[key] for key in untried], self.rng))
            return choice, by_key[choice]
        best_key = max((key for key in by_key if node.edges[key].visits),
                       key=lambda edge_key: (self._ucb(node.edges[edge_key]), self.rng.random()))
        return best_key, by_key[best_key]

    @staticmethod
    def _ucb(edge: Edge) -> float:
        return edge.reward / edge.visits + EXPLORATION * math.sqrt(math.log(edge.available) / edge.visits)

    def _rollout_move(self, world: Match, actor: str, moves: list[dict]) -> dict:
        if self.knowledge.rollout is not None:
            return self.knowledge.rollout(world.state, actor, moves, self.rng)
        return self.rng.choice(moves)

    def _rewards(self, world: Match) -> dict[str, float]:
        seats = world.seats
        if world.rules.is_over(world.state):
            return sheet_reward(world.rules.final_score(world.state), seats)
        if self.knowledge.evaluate is not None:
            return self.knowledge.evaluate(world.state, seats)
        return dict.fromkeys(seats, 0.5)
