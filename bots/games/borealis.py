"""Borealis: play the card that adds most to the score sheet, take the card that would, and reorganise when
the camps are full.

Borealis always reaches its scoring, but uniform playouts mostly reorganise (a hand of four gives 16 sets of
discards, times three target locations, against a handful of observations), so they say little about a move,
and the search, widening by the playout's choices, tried the wrong few. The playout here rates an observation
by what it adds to the sheet at once (the species set it grows, BOR-SCORE-1; its flag step, BOR-SCORE-2; its
star, BOR-SCORE-3; the two scoring cards, BOR-SCORE-4; a goal it meets, BOR-GOAL-1), plus a little for each
scientist it sends to a camp (each brings a star back at the next Reorganise, BOR-REO-3); a Reorganise by the
stars it brings back, the cards its target location makes playable, and the weak cards it discards; a card
taken by what it could add to the sheet. A position is worth the sheet it would get if the expedition ended
now, plus a share of what the cards in hand could add.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

from bots.games import Scores, prefer
from bots.outcome import points_reward
from domain.borealis import board as boards
from domain.borealis.catalogue import Card, Catalogue, Space
from domain.borealis.goals import goal_available, requirement_met
from domain.borealis.scoring import SCORING_CARDS, Tableau, farewell_default
from domain.registry import get_rules

# Seven cards in one location end the game (BOR-END-1).
END_STACK = 7
# The scoring cards count at game end (BOR-SCORE-4), so what a card changes of them now is weighed by how near
# the end is (the tallest stack against the 7 that end the game, BOR-END-1), from this share up to all of it:
# Outer Lands falls by 14 the moment the middle catches up, and rises again with the next outer card.
SCORING_CARDS_EARLY = 0.25
# A goal met is its 5-star token (BOR-GOAL-1, claimed at once in the default auto mode, BOR-GOAL-6).
GOAL_STARS = 5.0
# A scientist sent to a camp is a star at the next Reorganise (BOR-REO-3), less the card it can no longer move.
CAMPED = 0.5
# What a blind draw is expected to add: a card of a species already in a location, now and then a flag step.
BLIND = 1.5
# A card in play is worth more than it adds at once: the sets it starts grow with every card of its species
# after it (§6.2), and seven cards in a location end the game (BOR-END-1). A Reorganise is a turn without one.
IN_PLAY = 2.0
# Each card a Reorganise's target location makes playable is worth this much, and each card discarded for a
# better draw (BOR-REO-1) this share of the gap to BLIND.
PLAYABLE = 0.75
DISCARD = 0.5
# A Reorganise with the camps empty only changes cards: a turn given away, after every observation.
PASS = -3.0
# A card in hand that no location's scientists can take now (BOR-OBS-1a) counts this share of its potential,
# and none when the seat can observe nothing at all: a hand that stays as it is passes again next turn.
BLOCKED = 0.25
# The share of a card's potential a hand is worth to a position: it is played only if scientists allow.
HAND = 0.5
# Paying a star to refresh the pool (BOR-OBS-4) pays only for a card far better than the pool's best.
REFRESH = -1.0


@cache
def _catalogue() -> Catalogue:
    rules: Any = get_rules("borealis")
    return rules.catalogue


class _Seat:
    """What the ratings of one seat's moves share, worked out once a playout step: its board and tracks, the
    species and vehicles in play, the scoring cards' points now, the goals it may still meet, and the worth of
    each card in hand."""

    def __init__(self, state: dict, seat: str, moves: list[dict]):
        catalogue = _catalogue()
        self.cards = catalogue.cards
        self.board = board = state["players"][seat]
        self.tracks = catalogue.boards[board["board"]]
        self.scoring = list(state["scoring_cards"])
        seats = len(state["seats"])
        self.goals = [catalogue.goals[goal["goal_id"]] for goal in state["goals"]
                      if goal_available(goal, seats) and goal["goal_id"] not in board["goals_met"]]
        # Nothing to observe: a hand kept as it is passes again next turn.
        self.stuck = state["step"] == "action" and not any(move["type"] == "observe" for move in moves)
        self.species = {location: [self.cards[card_id].species for card_id in board["stacks"][location]]
                        for location in boards.LOCATIONS}
        self.vehicles = [self.cards[card_id].vehicle for location in boards.LOCATIONS
                         for card_id in board["stacks"][location]]
        self.card_points = self.points_of_cards(self.species, self.vehicles, board["flags"],
                                                _scientist_counts(board["scientists"]))
        self._held: dict[str, float] = {}
        self.returned = boards.scientists_in_camps(board)
        self._reorganise: dict[str | None, tuple[float, dict[str, float]]] = {}
        self._playable: dict[str, list[str]] = {}

    def points_of_cards(self, species: dict[str, list[str]], vehicles: list[str], flags: dict[str, int],
                        scientists: dict[str, int]) -> int:
        """BOR-SCORE-4: the two scoring cards on this tableau."""
        if not self.scoring:
            return 0
        tableau = Tableau(species=species, vehicles=vehicles, extra_stars=0, flags=flags,
                          flag_stars={location: self.tracks[location][index].stars
                                      for location, index in flags.items()},
                          scientists=scientists, farewell=farewell_default(scientists))
        return sum(SCORING_CARDS[card_id](tableau) for card_id in self.scoring)

    def goals_met(self, board: dict, returned: int = 0) -> int:
        return sum(requirement_met(goal, board, self.cards, returned) for goal in self.goals)

    def potential(self, card: Card) -> float:
        """What ``card`` could add where it fits best, scientists aside (:func:`_potential`)."""
        return _potential(self.species, self.board["flags"], self.tracks, card)

    def held(self, card_id: str) -> float:
        """A card in hand: its potential, less when no location can take it now (BOR-OBS-1a)."""
        found = self._held.get(card_id)
        if found is None:
            card = self.cards[card_id]
            if boards.playable_locations(self.board, card):
                found = self.potential(card)
            else:
                found = 0.0 if self.stuck else BLOCKED * self.potential(card)
            self._held[card_id] = found
        return found

    def playable_after_return(self, target: str) -> list[str]:
        """The cards in hand that could be observed at ``target`` once the camps' scientists join it."""
        found = self._playable.get(target)
        if found is None:
            scientists = self.board["scientists"]
            here = Counter(scientists[target])
            for camp in boards.CAMPS:
                here.update(scientists[camp])
            found = self._playable[target] = [
                card_id for card_id in self.board["hand"]
                if here[self.cards[card_id].move_left_colour] >= 1 + (self.cards[card_id].move_left_colour
                                                                      == self.cards[card_id].move_right_colour)
                and here[self.cards[card_id].move_right_colour] >= 1]
        return found

    def reorganise_values(self, target: str | None) -> tuple[float, dict[str, float]]:
        """A Reorganise to ``target`` keeping the whole hand, and what discarding each card changes of it: a
        star per camped scientist (BOR-REO-3) or a pass, a goal the return meets (BOR-GOAL-1), the cards the
        target can then take; a discard is worth its gap to a blind draw, less the playable card it was."""
        found = self._reorganise.get(target)
        if found is None:
            base = float(self.returned) if self.returned else PASS
            playable = self.playable_after_return(target) if target is not None else []
            base += PLAYABLE * len(playable)
            if target is not None and self.goals:
                after = boards.copy_board(self.board)
                returned = boards.reorganise(after, target)
                base += GOAL_STARS * self.goals_met(after, returned)
            discard = {card_id: DISCARD * (BLIND - self.held(card_id)) - PLAYABLE * (card_id in playable)
                       for card_id in self.board["hand"]}
            found = self._reorganise[target] = (base, discard)
        return found


def _potential(species: dict[str, list[str]], flags: dict[str, int], tracks: dict[str, tuple[Space, ...]],
               card: Card) -> float:
    """What ``card`` could add where it fits best, scientists aside: its set (§6.2), its flag step and its star."""
    best = 0
    for location in boards.LOCATIONS:
        track, flag = tracks[location], flags[location]
        step = track[flag + 1].stars - track[flag].stars \
            if flag < boards.LAST_SPACE and card.vehicle in track[flag + 1].vehicles else 0
        best = max(best, species[location].count(card.species) + step)
    return best + card.extra_stars


def _scientist_counts(scientists: dict[str, dict[str, int]]) -> dict[str, int]:
    return {space: sum(counts.values()) for space, counts in scientists.items()}


def _observe_gain(seat: _Seat, card: Card, location: str) -> float:
    """What observing ``card`` at ``location`` adds to the sheet now (BOR-OBS-1..3, BOR-SCORE-1..4), a goal it
    meets, and the scientists it sends to the camps."""
    board = seat.board
    stack = seat.species[location]
    gain = IN_PLAY + stack.count(card.species) + card.extra_stars  # k(k-1)/2 grows by k (§6.2)
    track = seat.tracks[location]
    flags = dict(board["flags"])
    before = flags[location]
    if before < boards.LAST_SPACE and card.vehicle in track[before + 1].vehicles:
        flags[location] = before + 1
        gain += track[before + 1].stars - track[before].stars
    left, right = boards.LEFT_OF[location], boards.RIGHT_OF[location]
    gain += CAMPED * ((left in boards.CAMPS) + (right in boards.CAMPS))
    if not seat.scoring and not seat.goals:
        return gain
    scientists = board["scientists"]
    moved = {**scientists, location: dict(scientists[location]), left: dict(scientists[left]),
             right: dict(scientists[right])}
    moved[location][card.move_left_colour] -= 1
    moved[left][card.move_left_colour] += 1
    moved[location][card.move_right_colour] -= 1
    moved[right][card.move_right_colour] += 1
    if seat.scoring:
        species = {**seat.species, location: [*stack, card.species]}
        change = seat.points_of_cards(species, [*seat.vehicles, card.vehicle], flags,
                                      _scientist_counts(moved)) - seat.card_points
        tallest = max(len(cards) for cards in species.values())
        gain += change * (SCORING_CARDS_EARLY + (1 - SCORING_CARDS_EARLY) * min(tallest, END_STACK) / END_STACK)
    if seat.goals:
        after = {**board, "stacks": {**board["stacks"], location: [*board["stacks"][location], card.card_id]},
                 "scientists": moved, "flags": flags}
        gain += GOAL_STARS * seat.goals_met(after)
    return gain


def _reorganise_gain(seat: _Seat, move: dict) -> float:
    """BOR-REO-1..4: a star per camped scientist (a pass with the camps empty), a goal met by the return, the
    cards made playable at the target, and each discard by how much worse it is than a blind draw."""
    target = move.get("target_location")
    base, discard = seat.reorganise_values(target)
    return base + sum(discard[card_id] for card_id in move["discard_card_ids"])


def _score(state: dict, seat: _Seat, move: dict) -> float:
    kind = move["type"]
    cards = seat.cards
    if kind == "observe":
        return _observe_gain(seat, cards[move["card_id"]], move["location"])
    if kind == "reorganise":
        return _reorganise_gain(seat, move)
    if kind == "take_card":
        return seat.potential(cards[state["pool"][move["pool_slot"]]])
    if kind == "draw_blind":
        return BLIND
    if kind == "refresh_pool":
        return REFRESH
    if kind == "mulligan":
        return sum(BLIND - seat.held(card_id) for card_id in move["discard_card_ids"])
    if kind == "choose_farewell_location":
        return float(sum(seat.board["scientists"][move["location"]].values()))
    return 0.0


def rollout(state: dict, seat: str, moves: list[dict], rng: random.Random) -> dict:
    if len(moves) == 1:
        return moves[0]
    mine = _Seat(state, seat, moves)
    return prefer(moves, lambda move: _score(state, mine, move), rng)


def evaluate(state: dict, seats: list[str]) -> Scores:
    """The sheet the game would score now, plus a share of what each card in hand could add: a playout cut
    short leaves the cards taken unplayed, and the card a seat took would count for nothing."""
    totals = get_rules("borealis").final_score(state)["totals"]
    catalogue = _catalogue()
    cards = catalogue.cards
    points = {}
    for seat in seats:
        board = state["players"][seat]
        species = {location: [cards[card_id].species for card_id in board["stacks"][location]]
                   for location in boards.LOCATIONS}
        tracks = catalogue.boards[board["board"]]
        hand = sum(_potential(species, board["flags"], tracks, cards[card_id]) for card_id in board["hand"])
        points[seat] = float(totals.get(seat, 0)) + HAND * hand
    return points_reward(points)
