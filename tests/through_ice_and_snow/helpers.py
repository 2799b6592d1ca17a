"""Driving games in tests: a table-mode match fed chosen draws, and a plausible player for whole games."""
from __future__ import annotations

import random

from domain.core import ORGANISER, TABLE
from domain.core.match import Match, apply_event, create, legal_moves, submit, waiting_for
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.catalogue import CAT

NAMES = ["Laia", "Fernando", "Rosa", "Linus"]


def do(match: Match, seat: str, command: dict) -> list[dict]:
    """Submit and fold a command (or a chance outcome from the organiser)."""
    events = submit(match, seat, command)
    for event in events:
        apply_event(match, event)
    return events


def draw(match: Match, *outcome: str) -> None:
    do(match, ORGANISER, {"type": "resolve_chance", "outcome": list(outcome)})


def draw_any(match: Match) -> None:
    """Resolve the pending chance node with the first candidates (a stacked deck)."""
    node = RULES.chance_node(match.state)
    draw(match, *node.candidates[: node.count])


def table_game(players: int = 4, investors: list[str] | None = None, options: dict | None = None,
               removed: list[str] | None = None) -> Match:
    """A table-mode game after setup: investors and cartography dealt in data order, the first of each kept.

    ``investors`` fixes the investor each seat keeps (default: the first dealt); ``removed`` the event cards
    returned to the box for extra event cards (default: the first of each deck).
    """
    match, _ = create(RULES, options or {}, NAMES[:players], TABLE, None)
    while match.state["step"] in ("module_setup", "extra_events") and RULES.chance_node(match.state) is not None:
        node = RULES.chance_node(match.state)
        draw(match, *[card for card in (removed or []) if card in node.candidates][: node.count]
             or node.candidates[: node.count])
    if not match.state["deal_investors"]:  # a single-player scenario
        return match
    wanted = investors or []
    for index in range(players):
        deck = match.state["decks"]["investor"]
        first = wanted[index] if index < len(wanted) else deck[0]
        draw(match, first, next(card for card in deck if card != first and card not in wanted))
    for _ in range(players):
        draw_any(match)
    for index, seat in enumerate(match.seats):
        player = match.state["players"][index]
        do(match, seat, {"type": "choose_investor", "card": player["investor_dealt"][0]})
        do(match, seat, {"type": "choose_cartography", "card": player["carto_dealt"][0]})
    while RULES.chance_node(match.state) is not None:
        draw_any(match)
    return match


PRIORITY = ["experiment", "visit_inuit", "explore", "build_cabin", "discover_species", "hunt", "ship_upgrade",
            "laboratory_research", "document_construction", "trace_map", "vow_of_silence", "hire_inuk", "event",
            "resource_exchange", "resource_collection", "improve_sled", "lead", "recycle_wood", "ice_fishing"]


def sensible_move(match: Match, seat: str, rng: random.Random) -> dict:
    """A move a cautious player might make: keep fuel and dynamite up, score when cheap, fish when hungry."""
    moves = legal_moves(match, seat)
    kind = moves[0]["type"]
    player = match.state["players"][match.seats.index(seat)]
    if kind == "choose_voyage_type":
        coastal = [move for move in moves if move["voyage"] == "coastal"]
        total = sum(other["fuel"] for other in match.state["players"])
        return coastal[0] if coastal and total >= 7 * match.state["n"] else moves[-1]
    if kind == "choose_discard":
        return max(moves, key=lambda move: (move["resource"] != "dynamite", player.get(move["resource"], 0)))
    if kind == "lower_food_for_cabin":
        keep = 3 * sum(player["crew"].values())
        return moves[max(0, min(len(moves) - 1, player["food"] - keep))]
    if kind in ("collect_resource",):
        return next((move for move in moves if move["resource"] == "dynamite"), moves[0])
    if kind not in ("take_action", "pass"):
        return rng.choice(moves)

    def rank(move: dict) -> tuple:
        if move["type"] == "pass":
            return (len(PRIORITY) + 1, 0)
        action = "event" if move["space"] == "event" else CAT.spaces[move["space"]]["action"]
        if action == "ice_fishing" and player["food"] > 4 * sum(player["crew"].values()):
            return (len(PRIORITY) + 2, 0)
        if action == "resource_exchange" and (move["deposit"] == "dynamite" or player["dynamite"] > 2):
            return (len(PRIORITY) + 2, 0)
        if action in ("experiment", "visit_inuit") and player["fuel"] > 8 and player["dynamite"] > 2:
            return (len(PRIORITY) - 1, 0)
        size = sum(move["crew"].values()) + (move["lead"] is not None)
        return (PRIORITY.index(action), size, rng.random())

    return min(moves, key=rank)


def play_sensibly(match: Match, seed: int = 0, max_steps: int = 5000) -> list[dict]:
    """Play a table-mode game to its end with ``sensible_move``, stacked draws in data order."""
    rng = random.Random(seed)
    events: list[dict] = []
    for _ in range(max_steps):
        if match.ended:
            break
        awaited = waiting_for(match)
        if awaited == [ORGANISER]:
            node = RULES.chance_node(match.state)
            events += do(match, ORGANISER, {"type": "resolve_chance",
                                            "outcome": rng.sample(list(node.candidates), node.count)})
            continue
        seat = awaited[0]
        events += do(match, seat, sensible_move(match, seat, rng))
    return events


def turn(match: Match) -> str:
    return waiting_for(match)[0]


def player(match: Match, seat: str) -> dict:
    return match.state["players"][match.seats.index(seat)]


def sail(match: Match, anchor: str | None = None, voyage: str = "open_sea", side: str = "A",
         draws: dict | None = None, until: str = "action", decision: str | None = None,
         chance: str | None = None) -> None:
    """Play the Voyage phase with chosen decisions and draws (chance key -> outcome), up to step ``until``
    or until the pending decision of kind ``decision`` or the chance node ``chance`` is reached. Other decisions
    take the first legal move.
    """
    draws = draws or {}
    wanted = {"choose_destination": ("anchor", anchor), "place_map_section": ("side", side),
              "choose_voyage_type": ("voyage", voyage)}
    while not match.ended and not (match.state["step"] == until and not match.state["pending"]
                                   and match.state["chance"] is None):
        pending = match.state["pending"]
        if decision and pending and pending[0]["kind"] == decision:
            return
        node = RULES.chance_node(match.state)
        if node is not None and node.key == chance:
            return
        if node is not None:
            draw(match, *draws.get(node.key, node.candidates[: node.count]))
            continue
        seat = turn(match)
        moves = legal_moves(match, seat)
        key, value = wanted.get(moves[0]["type"], (None, None))
        chosen = next((move for move in moves if value is not None and move.get(key) == value), moves[0])
        do(match, seat, chosen)


def act(match: Match, space: str, lead: str | None = None, crew: dict | None = None, **extra) -> list[dict]:
    """The seat whose turn it is takes an action."""
    return do(match, turn(match), {"type": "take_action", "space": space, "lead": lead, "crew": crew or {}, **extra})


def pass_all(match: Match) -> None:
    """Everyone passes until the Action phase is over."""
    while match.state["step"] == "action" and not match.state["pending"]:
        do(match, turn(match), {"type": "pass"})


def bare_state(players: int = 2) -> Match:
    """A game after setup with its first decision set aside, for calling rule functions on the state directly."""
    match = table_game(players)
    match.state["pending"] = []
    match.state["step"] = "action"
    match.state["turn"] = match.state["leader"] = match.state["helm"]
    return match
