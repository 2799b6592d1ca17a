"""Borealis component data, loaded from the data files beside this module.

The spec marks the card list, the track vehicles and stars, the goal texts and
the species-set table as FOUND or ASSUMED rather than printed rules, so they
live in ``data/*.json`` (each checked against its JSON Schema) and a corrected
value never needs a code change.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from domain.core.data import load_data
from domain.core.errors import DataError

DATA = Path(__file__).parent / "data"
FILES = ("cards", "boards", "goals", "scoring_cards", "species_sets")
MAX_PLAYERS = 4


@dataclass(frozen=True)
class Card:
    card_id: str
    species: str
    vehicle: str
    extra_stars: int
    move_left_colour: str
    move_right_colour: str


@dataclass(frozen=True)
class Space:
    vehicles: tuple[str, ...]
    stars: int


@dataclass(frozen=True)
class Goal:
    goal_id: str
    type: str
    title: str
    test: str
    threshold: int


@dataclass(frozen=True)
class ScoringCard:
    card_id: str
    name: str
    rule_id: str


@dataclass(frozen=True)
class Catalogue:
    cards: dict[str, Card]
    boards: dict[str, dict[str, tuple[Space, ...]]]
    board_sides: dict[str, str]
    goals: dict[str, Goal]
    scoring_cards: dict[str, ScoringCard]
    set_points: tuple[int, ...]
    versions: dict[str, str]

    def boards_of_side(self, side: str) -> list[str]:
        return [board_id for board_id, board_side in self.board_sides.items() if board_side == side]

    def goals_of_type(self, kind: str) -> list[str]:
        return [goal.goal_id for goal in self.goals.values() if goal.type == kind]

    def species_set_points(self, count: int) -> int:
        """BOR-SCORE-1 table (§6.2); past its end the printed values follow k(k-1)/2 (ASSUMED).

        No stack should pass 7 cards, but BOR-END-2 asks the engine to score any size.
        """
        if count < len(self.set_points):
            return self.set_points[count]
        return count * (count - 1) // 2


def _check_enough(folder: Path, loaded: dict) -> None:
    """What setup draws from must exist: side I, a side-II board per seat, a goal of each type."""
    sides = [raw["side"] for raw in loaded["boards"][0]["boards"]]
    if sides.count("I") != 1 or sides.count("II") < MAX_PLAYERS:
        raise DataError(str(folder / "boards.json"), "boards", f"one side I board and {MAX_PLAYERS} side II boards")
    types = {raw["type"] for raw in loaded["goals"][0]["goals"]}
    if types != {"animal", "scientist", "vehicle"}:
        raise DataError(str(folder / "goals.json"), "goals", "at least one goal of each type")


def load_catalogue(folder: Path = DATA) -> Catalogue:
    loaded = {name: load_data(folder, name) for name in FILES}
    cards = {
        raw["card_id"]: Card(
            raw["card_id"], raw["species"], raw["vehicle"], raw["extra_stars"],
            raw["move_left_colour"], raw["move_right_colour"],
        )
        for raw in loaded["cards"][0]["cards"]
    }
    if len(cards) != len(loaded["cards"][0]["cards"]):
        raise DataError(str(folder / "cards.json"), "cards", "card ids must be unique")
    _check_enough(folder, loaded)
    boards = {
        raw["board_id"]: {
            location: tuple(Space(tuple(vehicles), stars) for vehicles, stars in track)
            for location, track in raw["tracks"].items()
        }
        for raw in loaded["boards"][0]["boards"]
    }
    sides = {raw["board_id"]: raw["side"] for raw in loaded["boards"][0]["boards"]}
    goals = {raw["goal_id"]: Goal(**raw) for raw in loaded["goals"][0]["goals"]}
    scoring = {
        raw["card_id"]: ScoringCard(raw["card_id"], raw["name"], raw["rule_id"])
        for raw in loaded["scoring_cards"][0]["scoring_cards"]
    }
    return Catalogue(
        cards=cards,
        boards=boards,
        board_sides=sides,
        goals=goals,
        scoring_cards=scoring,
        set_points=tuple(loaded["species_sets"][0]["points_by_count"]),
        versions={name: version for name, (_, version) in loaded.items()},
    )
