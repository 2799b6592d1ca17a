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
from domain.ice_expedition.move_types import MOVES
from domain.ice_expedition.turn import controlled_leaders, front_effect, guild_active, turn_max

COSTS = {"move": "cost_move", "set_up_camp": "cost_set_up_camp", "recruit": "cost_recruit",
         "check_registry": "cost_check_registry", "plan": "cost_plan", "resend": "cost_resend"}
HAND_TILE_RULES: dict[str | None, str] = {
    "F-TERM": "ICE-SNOW-2", "F-TALI": "ICE-SNOW-9", "F-ROPE": "ICE-SNOW-6", "F-SURV": "ICE-SNOW-8",
}
# The rule number (ICE-SNOW-n) of each front effect played on its own.
PLAYED_ALONE_RULES: dict[str | None, int] = {"F-SPID": 1, "F-MANT": 3, "F-SMIL": 4, "F-SAIL": 5, "F-WRCK": 7,
                                             "F-CHAR": 10, "F-RUNE": 11, "F-WHIS": 12}


def refusal(flow: Flow, seat: str, command: dict, waiting: dict | None, moves: list[dict]) -> IllegalMove:
    kind = command["type"]
    rule = MOVES[kind].rule_id
    unknown = unoffered_field(command, moves, rule)
    if unknown is not None:
        return unknown
    if waiting is not None and kind not in {m["type"] for m in moves}:
        return IllegalMove("decision_pending", f"first decide {waiting['kind']}", rule_id="ICE-CMD-16", field="type")
    specific = _turn_reason(flow, seat, command) if waiting is None else _decision_reason(flow, command)
    if specific is not None:
        return specific
    return IllegalMove("illegal_move", f"{kind} is not allowed with these fields now", rule_id=rule, field="type")


def ep_refusal(flow: Flow, seat: str, cost: int) -> IllegalMove | None:
    """The rule an EP cost breaks, if any (ICE-EXP-4: the day's EP; ICE-EXP-2: the turn's maximum).

    The day's EP come first: Overwork lifts the turn's maximum, nothing brings EP back today.
    """
    ep = flow.player(seat)["ep"]
    if cost > ep:
        return IllegalMove("insufficient_ep", f"this costs {cost} EP and you have {ep} EP left today",
                           rule_id="ICE-EXP-4", field="type")
    spent, limit = flow.state["turn"]["spent"], turn_max(flow)
    if spent + cost > limit:
        return IllegalMove("turn_ep_maximum", f"this costs {cost} EP; a turn spends at most {limit} EP "
                           f"(1 more per Overwork) and this one has spent {spent}", rule_id="ICE-EXP-2", field="type")
    return None


def _turn_reason(flow: Flow, seat: str, command: dict) -> IllegalMove | None:
    kind = command["type"]
    params = flow.params
    player = flow.player(seat)
    if kind in COSTS:
        refused = ep_refusal(flow, seat, params[COSTS[kind]])
        if refused is not None:
            return refused
    if kind == "overwork":
        if player["rp"] < params["overwork_rp_cost"]:
            return IllegalMove("insufficient_rp", f"Overwork costs {params['overwork_rp_cost']} RP and you have "
                               f"{player['rp']}", rule_id="ICE-ACT-6", field="type")
        return IllegalMove("limit_used", f"Overwork at most {params['overwork_max_per_turn']} time(s) a turn",
                           rule_id="ICE-ACT-6", field="type")
    if kind == "plan" and player["plans_today"] >= params["plan_max_per_day"]:
        return IllegalMove("limit_used", "one Plan per day", rule_id="ICE-ACT-7", field="type")
    if kind == "check_registry" and not (flow.state["requests"]["deck"] or flow.state["requests"]["discard"]):
        return IllegalMove("deck_empty", "no request card is left to draw, not even in the discard pile",
                           rule_id="ICE-ACT-5", field="type")
    if kind == "end_turn":
        return IllegalMove("turn_not_done", "spend at least 1 EP first", rule_id="ICE-EXP-6", field="type")
    if kind == "set_up_camp":
        return _camp_reason(flow, seat, command)
    if kind == "recruit" and command.get("kind") == "archaeologist" and flow.state["reserve"]["archaeologists"] == 0:
        return IllegalMove("reserve_empty", "no archaeologist is left in the reserve", rule_id="ICE-ACT-4",
                           field="kind")
    if kind in ("move", "excavate"):
        leader = command.get("leader")
        if leader not in controlled_leaders(flow, seat):
            return IllegalMove("not_your_leader", "you do not control that leader on the board",
                               rule_id="ICE-EXP-11", field="leader")
        start = flow.state["leaders"][leader]
        if kind == "move":
            return _move_reason(flow, start, command)
        return _excavation_reason(flow, seat, start, command)
    if kind == "play_snow_tile":
        return _snow_tile_reason(flow, seat, command)
    if kind == "use_guild_ability":
        guild = player["guild"]
        rule = {"G-CRYO": "ICE-GLD-1", "G-INCA": "ICE-GLD-2", "G-NAVI": "ICE-GLD-3", "G-ICEW": "ICE-GLD-4",
                "G-ALCH": "ICE-GLD-5"}.get(guild, "ICE-ACT-11")
        return IllegalMove("ability_refused", "your guild's ability cannot be used like this now", rule_id=rule,
                           field="type")
    return None


def _excavation_reason(flow: Flow, seat: str, start: str, command: dict) -> IllegalMove | None:
    """ICE-EXC-1 eligibility, then the snow tile or the CryoArchitects' bonus asked for, then the EP."""
    problem = dig.eligibility_problem(flow, start)
    if problem is not None:
        return IllegalMove("not_excavatable", problem[1], rule_id=problem[0], field="leader")
    cryo = command.get("cryo") is True
    cryo_open = (flow.board.tiles[start]["camp"] and guild_active(flow, seat, "G-CRYO")
                 and not flow.state["turn"]["cryo"] and not command.get("tile"))
    if cryo and not cryo_open:
        return IllegalMove("ability_refused", "the CryoArchitects dig a tile with a camp, once per turn, paying EP",
                           rule_id="ICE-GLD-1", field="cryo")
    if command.get("tile"):
        held = next((t for t in flow.player(seat)["hand"] if t["id"] == command["tile"]), None)
        if held is None:
            return IllegalMove("not_in_hand", "that snow tile is not in your hand", rule_id="ICE-ACT-10", field="tile")
        effect = front_effect(flow, held)
        rule = HAND_TILE_RULES.get(effect, "ICE-ACT-10")
        return IllegalMove("illegal_target", f"{effect} does not excavate this tile", rule_id=rule, field="tile")
    return ep_refusal(flow, seat, dig.dig_cost(flow, start, cryo))


def _camp_reason(flow: Flow, seat: str, command: dict) -> IllegalMove | None:
    """ICE-ACT-3: a camp from the reserve on a tile that takes one; the leader's tile or an adjacent one."""
    if flow.state["reserve"]["camps"] == 0:
        return IllegalMove("reserve_empty", "no camp is left in the reserve", rule_id="ICE-ACT-3", field="type")
    board = flow.board
    target = command.get("to")
    own = flow.state["leaders"][seat]
    if own is None:
        return IllegalMove("leader_off_board", "your leader is not on the board", rule_id="ICE-ACT-3", field="type")
    if not isinstance(target, str) or target not in board.tiles:
        return IllegalMove("illegal_target", "no tile lies there", rule_id="ICE-ACT-3", field="to")
    if board.tiles[target]["smilodon"] is not None:
        return IllegalMove("smilodon", "a tile with a Smilodon is inviolable", rule_id="ICE-SNOW-4", field="to")
    if not board.takes_a_camp(target):
        return IllegalMove("illegal_target", "a camp never goes on a building or on a tile with a camp",
                           rule_id="ICE-ACT-3", field="to")
    if target != own and target not in board.walkable_from(own):
        return IllegalMove("not_adjacent", "the camp goes on your leader's tile or one your leader can step to",
                           rule_id="ICE-ACT-3", field="to")
    return IllegalMove("illegal_archaeologists", "archaeologists go along only with the Navigators, 1-3 once a "
                       "turn, when the leader changes tile", rule_id="ICE-GLD-3", field="archaeologists")


def _decision_reason(flow: Flow, command: dict) -> IllegalMove | None:
    """ICE-EXC-3 step 6: the camp of a dug tile goes on a tile below that takes a camp (ICE-ACT-3)."""
    if command["type"] != "move_camp":
        return None
    target = command.get("to")
    if target not in dig.destinations(flow) or target not in flow.board.tiles:
        return IllegalMove("illegal_target", "the camp goes on one of the tiles below", rule_id="ICE-EXC-3",
                           field="to")
    if flow.board.tiles[target]["smilodon"] is not None:
        return IllegalMove("smilodon", "a tile with a Smilodon is inviolable", rule_id="ICE-SNOW-4", field="to")
    return IllegalMove("illegal_target", "a camp never goes on a building or on a tile with a camp",
                       rule_id="ICE-ACT-3", field="to")


def _snow_tile_reason(flow: Flow, seat: str, command: dict) -> IllegalMove:
    player = flow.player(seat)
    held = next((t for t in player["hand"] if t["id"] == command.get("tile")), None)
    if held is None:
        return IllegalMove("not_in_hand", "that snow tile is not in your hand", rule_id="ICE-ACT-10", field="tile")
    effect = front_effect(flow, held)
    if effect in HAND_TILE_RULES:
        return IllegalMove("played_with_an_action", f"{effect} is played as part of an excavation",
                           rule_id=HAND_TILE_RULES[effect], field="tile")
    if effect == "F-CHAR" and player["rp"] < flow.params["charisma_rp_cost"]:
        return IllegalMove("insufficient_rp", f"the Charisma Stone costs {flow.params['charisma_rp_cost']} RP and "
                           f"you have {player['rp']}", rule_id="ICE-SNOW-10", field="tile")
    number = PLAYED_ALONE_RULES[effect]
    return IllegalMove("illegal_target", f"{effect} cannot be played with these choices",
                       rule_id=f"ICE-SNOW-{number}", field="tile")


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
