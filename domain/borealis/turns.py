"""Turn order: play goes round from the first player, the same one every round (BOR-TURN-1, BOR-TURN-3)."""
from __future__ import annotations


def choose_first_player(state: dict, seat: str) -> None:
    """BOR-SETUP-2; seat order is fixed, play goes round from the first player (BOR-TURN-1)."""
    seats = state["seats"]
    start = seats.index(seat)
    state["first_player"] = seat
    state["order"] = seats[start:] + seats[:start]


def active_seat(state: dict) -> str | None:
    if state["phase"] != "play":
        return None
    return state["order"][state["turn"]]
