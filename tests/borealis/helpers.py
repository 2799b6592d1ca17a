"""Driving a Borealis game in table mode, where the test chooses every card drawn."""
from __future__ import annotations

from domain.borealis import RULES
from domain.core import ORGANISER, TABLE
from domain.core.match import Match, apply_event, create, legal_moves, submit

SCORING = ["interspecies", "mating_season"]
GOALS = ["spotting_list", "comparing_notes", "bold_explorers"]  # animal, scientist, vehicle
POOL = ["animal-90", "animal-91", "animal-92", "animal-93"]
HANDS = {
    "p1": ["animal-00", "animal-02", "animal-03", "animal-04"],
    "p2": ["animal-10", "animal-11", "animal-12", "animal-13"],
    "p3": ["animal-20", "animal-21", "animal-22", "animal-23"],
    "p4": ["animal-30", "animal-31", "animal-32", "animal-33"],
}


def play(match: Match, actor: str, command: dict) -> list[dict]:
    """Submit and fold a command, as the service would."""
    events = submit(match, actor, command)
    for event in events:
        apply_event(match, event)
    return events


def resolve(match: Match, *outcome: str) -> list[dict]:
    return play(match, ORGANISER, {"type": "resolve_chance", "outcome": list(outcome)})


def pending_key(match: Match) -> str | None:
    node = RULES.chance_node(match.state)
    return node.key if node else None


def new_game(players: int = 2, options: dict | None = None, first: str = "p1", scoring=SCORING, goals=GOALS,
             pool=POOL, hands=None, mulligan: bool = True) -> Match:
    """A table-mode game set up with the given draws, every mulligan kept unless ``mulligan`` is false."""
    match, _ = create(RULES, {"first_player": first, **(options or {})}, [f"P{n}" for n in range(1, players + 1)],
                      TABLE, None)
    hands = hands or HANDS
    if pending_key(match) == "side_two_boards":
        resolve(match, *RULES.catalogue.boards_of_side("II")[:players])
    resolve(match, *scoring)
    for goal in goals:
        resolve(match, goal)
    resolve(match, *pool)
    for seat in match.state["order"]:
        resolve(match, *hands[seat])
    if mulligan:
        for seat in match.state["order"]:
            play(match, seat, {"type": "mulligan", "discard_card_ids": []})
    return match


def board(match: Match, seat: str) -> dict:
    return match.state["players"][seat]


def place_scientists(match: Match, seat: str, spaces: dict[str, tuple[int, int, int]]) -> None:
    """Set a constructed position, counts written {yellow, pink, blue} as in the spec's examples."""
    for space, (yellow, pink, blue) in spaces.items():
        board(match, seat)["scientists"][space] = {"yellow": yellow, "pink": pink, "blue": blue}


def scientists(match: Match, seat: str, space: str) -> tuple[int, int, int]:
    counts = board(match, seat)["scientists"][space]
    return counts["yellow"], counts["pink"], counts["blue"]


def moves_of(match: Match, seat: str, kind: str) -> list[dict]:
    return [move for move in legal_moves(match, seat) if move["type"] == kind]


def pass_turn(match: Match, seat: str, target: str = "LEFT") -> None:
    """A Reorganise without discards: a pass when the camps are empty (BOR-REO-5)."""
    command = {"type": "reorganise", "discard_card_ids": []}
    if any(sum(board(match, seat)["scientists"][camp].values()) for camp in ("CAMP_L", "CAMP_R")):
        command["target_location"] = target
    play(match, seat, command)
