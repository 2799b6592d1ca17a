"""One player's board: three locations with card stacks and scientists, two camps, three tracks.

A player's board is a plain JSON dict inside the game state, so these
functions work on it in place; ``decide`` runs them on a copy to see what an
action would lead to (goal checks), ``apply`` runs them on the state itself.
"""
from __future__ import annotations

from domain.borealis.catalogue import Card, Space

LOCATIONS = ("LEFT", "MIDDLE", "RIGHT")
CAMPS = ("CAMP_L", "CAMP_R")
SPACES = ("CAMP_L", "LEFT", "MIDDLE", "RIGHT", "CAMP_R")
COLOURS = ("yellow", "pink", "blue")
LAST_SPACE = 7
SCIENTISTS_PER_COLOUR_PER_LOCATION = 1
STARTING_TOKEN_STARS = 2

# §2.9: the left and right neighbour of each location; camps have none (scientists leave them only by Reorganise).
LEFT_OF = {"LEFT": "CAMP_L", "MIDDLE": "LEFT", "RIGHT": "MIDDLE"}
RIGHT_OF = {"LEFT": "MIDDLE", "MIDDLE": "RIGHT", "RIGHT": "CAMP_R"}


def new_board(board_id: str | None) -> dict:
    """BOR-SETUP-7..10: the agreed side, one scientist of each colour per location, flags at the start, 2 stars.

    ``board_id`` is None until a side-II board has been drawn for the seat.
    """
    scientists = {space: dict.fromkeys(COLOURS, 0) for space in SPACES}
    for location in LOCATIONS:
        scientists[location] = dict.fromkeys(COLOURS, SCIENTISTS_PER_COLOUR_PER_LOCATION)  # BOR-SETUP-8
    return {
        "board": board_id,  # BOR-SETUP-7
        "hand": [],
        "stacks": {location: [] for location in LOCATIONS},
        "scientists": scientists,
        "flags": dict.fromkeys(LOCATIONS, 0),  # BOR-SETUP-9
        "token_stars": STARTING_TOKEN_STARS,  # BOR-SETUP-10
    }


def can_observe_at(board: dict, card: Card, location: str) -> bool:
    """BOR-OBS-1a: the location itself holds the card's two printed scientists, counted with multiplicity."""
    here = board["scientists"][location]
    if card.move_left_colour == card.move_right_colour:
        return here[card.move_left_colour] >= 2
    return here[card.move_left_colour] >= 1 and here[card.move_right_colour] >= 1


def playable_locations(board: dict, card: Card) -> list[str]:
    return [location for location in LOCATIONS if can_observe_at(board, card, location)]


def observe(board: dict, card: Card, location: str, track: tuple[Space, ...]) -> dict:
    """Steps 1-3 of Observe on ``board``; returns what happened, for the event and the log."""
    board["stacks"][location].append(card.card_id)  # BOR-OBS-1: the new card tops the stack
    scientists = board["scientists"]
    # BOR-OBS-2: both moves are compulsory, one step left and one step right.
    left_to, right_to = LEFT_OF[location], RIGHT_OF[location]
    scientists[location][card.move_left_colour] -= 1
    scientists[left_to][card.move_left_colour] += 1
    scientists[location][card.move_right_colour] -= 1
    scientists[right_to][card.move_right_colour] += 1
    # BOR-OBS-3: one space at most, only on this track, only when the next space shows the card's vehicle.
    before = board["flags"][location]
    if before < LAST_SPACE and card.vehicle in track[before + 1].vehicles:
        board["flags"][location] = before + 1
    return {
        "moved": [
            {"colour": card.move_left_colour, "from": location, "to": left_to},
            {"colour": card.move_right_colour, "from": location, "to": right_to},
        ],
        "flag": {"track": location, "from": before, "to": board["flags"][location]},
    }


def scientists_in_camps(board: dict) -> int:
    return sum(sum(board["scientists"][camp].values()) for camp in CAMPS)


def reorganise(board: dict, target: str | None) -> int:
    """BOR-REO-3 and BOR-REO-4: 1 star per camped scientist, then all of them go to one location.

    The count is taken before the scientists move; with empty camps nothing moves.
    """
    returned = scientists_in_camps(board)
    board["token_stars"] += returned  # BOR-REO-3
    if returned and target is not None:
        for camp in CAMPS:
            for colour, count in board["scientists"][camp].items():
                board["scientists"][target][colour] += count  # BOR-REO-4: all to the same single location
                board["scientists"][camp][colour] = 0
    return returned


def copy_board(board: dict) -> dict:
    """A copy deep enough for :func:`observe` and :func:`reorganise` to change freely."""
    return {
        **board,
        "hand": list(board["hand"]),
        "stacks": {location: list(stack) for location, stack in board["stacks"].items()},
        "scientists": {space: dict(counts) for space, counts in board["scientists"].items()},
        "flags": dict(board["flags"]),
    }
