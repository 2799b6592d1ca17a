"""What each reader may see: the fronts of snow tiles on the board only the organiser, a hand, its requests
and its city only their holder (and the organiser); the rest of a player and the board is public."""
from __future__ import annotations

from domain.core import ORGANISER
from domain.ice_expedition.flow import Flow, waiting_step
from domain.ice_expedition.turn import front_effect

# A tile in a view: its kind, and of the rest only what is there (no camp, no Smilodon: left out).
TILE_KEYS = ("kind", "terrain", "rift", "face", "camp", "arch", "smilodon")


def view(rules, state: dict, reader: str | None) -> dict:
    """The board as far as it is known, and of each player what the table sees; the holder and the organiser
    also see the hand, the requests and the city."""
    everything = reader == ORGANISER
    shown_keys = TILE_KEYS + ("front",) if everything else TILE_KEYS
    tiles = {
        key: {k: tile[k] for k in shown_keys if tile[k] or k == "kind"} for key, tile in state["tiles"].items()
    }
    players = {}
    for seat, player in state["players"].items():
        own = everything or reader == seat
        shown = {key: player[key] for key in ("guild", "rp", "ep", "artifacts", "plans", "plans_today",
                                                "carried_ep", "day_over", "resend", "sent", "token")}
        shown["hand_count"] = len(player["hand"])
        shown["request_count"] = len(player["requests"])
        shown["city_count"] = len(player["city"])
        if own:
            shown["hand"] = [{"id": t["id"], "terrain": t["terrain"], "front": t["front"],
                              "effect": front_effect(Flow(rules, state), t)} for t in player["hand"]]
            shown["requests"] = [rules.data.requests[c] for c in player["requests"]]
            shown["drawn_requests"] = [rules.data.requests[c] for c in player["drawn"]]
            shown["city"] = list(player["city"])
            shown["alchemy_drawn"] = list(player["alchemy_drawn"])
        players[seat] = shown
    step = waiting_step(state)
    waiting = None
    if step is not None:
        waiting = {"kind": step["kind"], "seat": step["seat"]}
        if step["kind"] in ("relocate", "log_prismatic", "log_smilodon"):
            waiting.update({k: step[k] for k in ("slot", "tiles", "left") if k in step})
    return {
        "phase": state["phase"], "day": state["day"], "first_player": state["first"],
        "active": state["active"], "turn": state["turn"], "tiles": tiles, "leaders": state["leaders"],
        "reserve": state["reserve"], "snowflake_pool": len(state["snowflakes"]), "bag_count": len(state["bag"]),
        "decrees": state["decrees"], "logbook_revealed": state["logbook"]["revealed"],
        "request_deck": len(state["requests"]["deck"]), "request_discard": state["requests"]["discard"],
        "players": players, "waiting": waiting, "dig": state["dig"], "end_triggered": state["end_triggered"],
    }

def secrets(state: dict) -> dict[str, set[str]]:
    """Snow tile fronts only their holder knows, and request cards never shown to anyone else."""
    public = set(state["requests"]["public"])
    found: dict[str, set[str]] = {}
    for seat, player in state["players"].items():
        tokens = {t["front"] for t in player["hand"] if t["front"] and t["known_by"] == [seat]}
        tokens |= {c for c in player["requests"] + player["drawn"] if c not in public}
        found[seat] = tokens
    return found
