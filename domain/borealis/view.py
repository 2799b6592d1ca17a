"""What each reader may see: every hand is hidden from all but its holder and the organiser."""
from __future__ import annotations

from domain.borealis.catalogue import Catalogue
from domain.borealis.turns import active_seat
from domain.core import ORGANISER


def view(state: dict, reader: str | None, catalogue: Catalogue) -> dict:
    """What ``reader`` may see: every board and the table, and only its own hand (the others' as counts)."""
    players = {}
    for seat, player in state["players"].items():
        sees_hand = reader in (seat, ORGANISER)
        players[seat] = {
            "board": player["board"],
            "hand": list(player["hand"]) if sees_hand else None,
            "hand_count": len(player["hand"]),
            "stacks": player["stacks"],
            "scientists": player["scientists"],
            "flags": player["flags"],
            "token_stars": player["token_stars"],
            "mulligan_done": player["mulligan"] is not None,
            "goals_met": player["goals_met"],
            "goals_claimed": player["goals_claimed"],
            "farewell_location": player["farewell"],
        }
    return {
        "phase": state["phase"],
        "round": state["round"],
        "first_player": state["first_player"],
        "turn_order": state["order"],
        "active_seat": active_seat(state),
        "step": state["step"] if state["phase"] == "play" else None,
        "end_triggered": state["end_triggered"],
        "pool": state["pool"],
        "discard_pile": state["discards"],
        "deck_count": len(state["deck"]),
        "reshuffles": state["reshuffles"],
        "scoring_cards": state["scoring_cards"],
        "goals": [
            {**goal, "title": catalogue.goals[goal["goal_id"]].title,
             "tokens_left": 0 if goal["removed"] else len(state["seats"]) - len(goal["claimed_by"])}
            for goal in state["goals"]
        ],
        "refreshed_this_round": state["refreshed"],
        "options": state["options"],
        "players": players,
    }

def secrets(state: dict) -> dict[str, set[str]]:
    """Hand cards whose face the table has not seen.

    A card once face up (in the pool or on the discard pile) is a token
    every reader already holds; which hand it is in now stays hidden (views
    show other hands as counts), but its id cannot be a secret token any more.
    """
    shown = set(state["shown"])
    return {seat: {card for card in player["hand"] if card not in shown} for seat, player in
            state["players"].items()}
