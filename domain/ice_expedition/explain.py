"""Why a command was refused, naming the rule that says no.

The rules accept exactly the moves ``legal_moves`` offers; this module only
turns a refusal into the most specific rule ID it can find, so a client sees
which rule forbids the move.
"""
from __future__ import annotations

from domain.core import IllegalMove
from domain.core.commands import unoffered_field
from domain.ice_expedition import dig
from domain.ice_expedition.flow import Flow
from domain.ice_expedition.turn import affordable, controlled_leaders, front_effect

# The rule behind each command when no more specific reason is found.
RULE_OF = {
    "choose_guild": "ICE-CMD-1", "keep_request": "ICE-CMD-2", "move": "ICE-ACT-1", "excavate": "ICE-EXC-1",
    "set_up_camp": "ICE-ACT-3", "recruit": "ICE-ACT-4", "check_registry": "ICE-ACT-5", "overwork": "ICE-ACT-6",
    "plan": "ICE-ACT-7", "resend": "ICE-ACT-8", "send_to_city": "ICE-ACT-9", "stop_sending": "ICE-ACT-9",
    "play_snow_tile": "ICE-ACT-10", "use_guild_ability": "ICE-ACT-11", "discard_snow_tile": "ICE-EXP-10",
    "end_turn": "ICE-EXP-6", "end_day": "ICE-EXP-8", "keep_tile": "ICE-GLD-5", "relocate": "ICE-SNOW-12",
    "choose_tile": "ICE-LOG-4", "place_snowflake": "ICE-SNOW-12", "place_explorers": "ICE-EXC-4",
    "place_leader": "ICE-GLD-4", "move_camp": "ICE-EXC-3",
}
COSTS = {"move": "cost_move", "set_up_camp": "cost_set_up_camp", "recruit": "cost_recruit",
         "check_registry": "cost_check_registry", "plan": "cost_plan", "resend": "cost_resend"}
HAND_TILE_RULES = {"F-TERM": "ICE-SNOW-2", "F-TALI": "ICE-SNOW-9", "F-ROPE": "ICE-SNOW-6", "F-SURV": "ICE-SNOW-8"}


def refusal(flow: Flow, seat: str, command: dict, waiting: dict | None, moves: list[dict]) -> IllegalMove:
    kind = command["type"]
    rule = RULE_OF[kind]
    unknown = unoffered_field(command, moves, rule)
    if unknown is not None:
        return unknown
    if waiting is not None and kind not in {m["type"] for m in moves}:
        return IllegalMove("decision_pending", f"first decide {waiting['kind']}", rule_id="ICE-CMD-16", field="type")
    if waiting is None:
        specific = _turn_reason(flow, seat, command)
        if specific is not None:
            return specific
    return IllegalMove("illegal_move", f"{kind} is not allowed with these fields now", rule_id=rule, field=kind)


def _turn_reason(flow: Flow, seat: str, command: dict) -> IllegalMove | None:
    kind = command["type"]
    params = flow.params
    player = flow.player(seat)
    if kind in COSTS and not affordable(flow, seat, params[COSTS[kind]]):
        return IllegalMove("insufficient_ep", "not enough EP left for this turn or this day", rule_id="ICE-EXP-4")
    if kind == "overwork":
        return IllegalMove("overwork_refused", "Overwork costs 1 RP, once per turn", rule_id="ICE-ACT-6")
    if kind == "plan" and player["plans_today"] >= params["plan_max_per_day"]:
        return IllegalMove("limit_used", "one Plan per day", rule_id="ICE-ACT-7")
    if kind == "end_turn":
        return IllegalMove("turn_not_done", "spend at least 1 EP first", rule_id="ICE-EXP-6")
    if kind in ("move", "excavate"):
        leader = command.get("leader")
        if leader not in controlled_leaders(flow, seat):
            return IllegalMove("not_your_leader", "you do not control that leader on the board",
                               rule_id="ICE-EXP-11", field="leader")
        start = flow.state["leaders"][leader]
        if kind == "move":
            return _move_reason(flow, start, command)
        problem = dig.eligibility_problem(flow, start)
        if problem is not None:
            return IllegalMove("not_excavatable", problem[1], rule_id=problem[0], field="leader")
        if not command.get("tile") and not affordable(flow, seat, dig.dig_cost(flow, start, bool(command.get("cryo")))):
            return IllegalMove("insufficient_ep", "the excavation costs more EP than you may spend",
                               rule_id="ICE-EXC-2")
        if command.get("cryo"):
            return IllegalMove("ability_refused", "the CryoArchitects dig camps, once per turn", rule_id="ICE-GLD-1",
                               field="cryo")
    if kind == "play_snow_tile":
        held = next((t for t in player["hand"] if t["id"] == command.get("tile")), None)
        if held is None:
            return IllegalMove("not_in_hand", "that snow tile is not in your hand", rule_id="ICE-ACT-10", field="tile")
        effect = front_effect(flow, held)
        if effect in HAND_TILE_RULES:
            return IllegalMove("played_with_an_action", f"{effect} is played as part of an excavation",
                               rule_id=HAND_TILE_RULES[effect], field="tile")
        number = {"F-SPID": 1, "F-MANT": 3, "F-SMIL": 4, "F-SAIL": 5, "F-WRCK": 7, "F-CHAR": 10, "F-RUNE": 11,
                  "F-WHIS": 12}[effect]
        return IllegalMove("illegal_target", f"{effect} cannot be played with these choices",
                           rule_id=f"ICE-SNOW-{number}")
    if kind == "use_guild_ability":
        guild = player["guild"]
        rule = {"G-CRYO": "ICE-GLD-1", "G-INCA": "ICE-GLD-2", "G-NAVI": "ICE-GLD-3", "G-ICEW": "ICE-GLD-4",
                "G-ALCH": "ICE-GLD-5"}.get(guild, "ICE-ACT-11")
        return IllegalMove("ability_refused", "your guild's ability cannot be used like this now", rule_id=rule)
    return None


def _move_reason(flow: Flow, start: str, command: dict) -> IllegalMove:
    board = flow.board
    end = command.get("to")
    if not isinstance(end, str) or end not in board.tiles or end not in board.adjacent(start):
        return IllegalMove("not_adjacent", "a leader moves to an adjacent tile", rule_id="ICE-GEO-3", field="to")
    if not board.standable(end):
        return IllegalMove("fully_covered", "explorers stand only on tiles not fully covered", rule_id="ICE-GEO-4",
                           field="to")
    if board.tiles[end]["smilodon"] is not None:
        return IllegalMove("smilodon", "a tile with a Smilodon is inviolable", rule_id="ICE-SNOW-4", field="to")
    if board.step_blocked(start, end):
        return IllegalMove("rift", "no explorer crosses a Rift edge", rule_id="ICE-GEO-7", field="to")
    return IllegalMove("too_many_archaeologists", "0-3 archaeologists from the leader's tile go along",
                       rule_id="ICE-ACT-1", field="archaeologists")
