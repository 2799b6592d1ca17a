"""The active player's turn: every action (ICE-ACT), snow tile (ICE-SNOW) and guild ability (ICE-GLD)
they may take now, and what each one does."""
from __future__ import annotations

from typing import Any

from domain.ice_expedition import dig
from domain.ice_expedition.decisions import whistle_slots
from domain.ice_expedition.flow import Flow


def turn_max(flow: Flow) -> int:
    """ICE-EXP-2: 2 EP a turn, 1 more per Overwork."""
    return flow.params["turn_ep_max"] + flow.params["overwork_turn_bonus"] * flow.state["turn"]["overwork"]


def affordable(flow: Flow, seat: str, cost: int) -> bool:
    """ICE-EXP-4: within the player's EP and the turn's maximum."""
    return cost <= flow.player(seat)["ep"] and flow.state["turn"]["spent"] + cost <= turn_max(flow)


def controlled_leaders(flow: Flow, seat: str) -> list[str]:
    """ICE-EXP-11: your own leader and any leader you control this turn (ICE-SNOW-10), on the board."""
    leaders = [seat, *flow.state["turn"]["controlled"]]
    return [leader for leader in leaders if flow.state["leaders"][leader] is not None]


def guild_active(flow: Flow, seat: str, guild: str) -> bool:
    """ICE-GLD: abilities work for their own guild and not in First Steps."""
    return flow.player(seat)["guild"] == guild and not flow.params["first_steps"]


def navigator_counts(flow: Flow, seat: str, start: str | None) -> list[int]:
    """ICE-GLD-3: 1-3 archaeologists may go along once per turn; none from off the board."""
    if start is None or not guild_active(flow, seat, "G-NAVI") or flow.state["turn"]["navi"]:
        return [0]
    return list(range(min(3, flow.board.tiles[start]["arch"]) + 1))


def front_effect(flow: Flow, tile: dict) -> str | None:
    return flow.data.fronts[tile["front"]]["effect"] if tile["front"] else None


def turn_moves(flow: Flow, seat: str) -> list[dict]:
    """Every command the active player may give now."""
    state = flow.state
    params = flow.params
    player = flow.player(seat)
    board = flow.board
    paid: list[dict] = []
    free: list[dict] = []  # ICE-EXP-3: free actions, any time during the turn, spending no EP
    if player["rp"] >= params["overwork_rp_cost"] and state["turn"]["overwork"] < params["overwork_max_per_turn"]:
        free.append({"type": "overwork"})  # ICE-ACT-6
    if affordable(flow, seat, params["cost_plan"]) and player["plans_today"] < params["plan_max_per_day"]:
        paid.append({"type": "plan"})  # ICE-ACT-7
    if affordable(flow, seat, params["cost_check_registry"]) and (
        state["requests"]["deck"] or state["requests"]["discard"]
    ):
        paid.append({"type": "check_registry"})  # ICE-ACT-5
    if affordable(flow, seat, params["cost_resend"]):
        paid.append({"type": "resend"})  # ICE-ACT-8
    if affordable(flow, seat, params["cost_move"]):
        for leader in controlled_leaders(flow, seat):  # ICE-ACT-1
            start = state["leaders"][leader]
            for end in board.walkable_from(start):
                for n in range(min(3, board.tiles[start]["arch"]) + 1):
                    paid.append({"type": "move", "leader": leader, "to": end, "archaeologists": n})
    own = state["leaders"][seat]
    if own is not None and state["reserve"]["camps"] > 0 and affordable(flow, seat, params["cost_set_up_camp"]):
        for target in [own, *board.walkable_from(own)]:  # ICE-ACT-3
            if not board.takes_a_camp(target):
                continue
            for n in navigator_counts(flow, seat, own) if target != own else [0]:
                paid.append({"type": "set_up_camp", "to": target, "archaeologists": n})
    if affordable(flow, seat, params["cost_recruit"]):
        camps = sorted(k for k, t in board.tiles.items() if t["camp"] and t["smilodon"] is None)
        for camp in camps:  # ICE-ACT-4
            if state["reserve"]["archaeologists"] > 0:
                paid.append({"type": "recruit", "kind": "archaeologist", "camp": camp, "archaeologists": 0})
            if camp != own:
                for n in navigator_counts(flow, seat, own):
                    paid.append({"type": "recruit", "kind": "leader", "camp": camp, "archaeologists": n})
    paid += excavation_moves(flow, seat)
    free += snow_moves(flow, seat)
    free += ability_moves(flow, seat)
    ends: list[dict] = []
    spent = state["turn"]["spent"]
    if spent >= params["turn_ep_min"] or player["ep"] == 0 or not [m for m in paid if m["type"] != "resend"]:
        ends.append({"type": "end_turn"})  # ICE-EXP-6
    if params["allow_voluntary_end_day"] and player["ep"] > 0:
        ends.append({"type": "end_day"})  # ICE-EXP-8
    return ends + paid + free


def excavation_moves(flow: Flow, seat: str) -> list[dict]:
    """ICE-ACT-2 / ICE-EXC-1 / ICE-EXC-2, with the CryoArchitects (ICE-GLD-1), Termites (ICE-SNOW-2) and
    Talismans (ICE-SNOW-9)."""
    moves = []
    board = flow.board
    for leader in controlled_leaders(flow, seat):
        key = flow.state["leaders"][leader]
        if dig.eligibility_problem(flow, key):
            continue
        tile = board.tiles[key]
        if affordable(flow, seat, dig.dig_cost(flow, key, False)):
            moves.append({"type": "excavate", "leader": leader, "cryo": False, "tile": None})
        if (tile["camp"] and guild_active(flow, seat, "G-CRYO") and not flow.state["turn"]["cryo"]
                and affordable(flow, seat, dig.dig_cost(flow, key, True))):
            moves.append({"type": "excavate", "leader": leader, "cryo": True, "tile": None})
        for held in flow.player(seat)["hand"]:
            effect = front_effect(flow, held)
            if effect == "F-TERM" and tile["kind"] == "snow":
                moves.append({"type": "excavate", "leader": leader, "cryo": False, "tile": held["id"]})
            if effect == "F-TALI" and tile["kind"] == "artifact" and tile["face"]:
                kind = flow.data.artifacts[tile["face"]]["type"]
                if kind is not None and kind == flow.data.fronts[held["front"]].get("artifact_type"):
                    moves.append({"type": "excavate", "leader": leader, "cryo": False, "tile": held["id"]})
    return moves


def snow_moves(flow: Flow, seat: str) -> list[dict]:
    """ICE-ACT-10: snow tiles played on their own (Termites and Talismans go with an excavation,
    Ropes and Survivors with a placement)."""
    state = flow.state
    board = flow.board
    player = flow.player(seat)
    others = [s for s in state["seats"] if s != seat]
    moves: list[dict[str, Any]] = []
    for held in player["hand"]:
        tile_id = held["id"]
        effect = front_effect(flow, held)
        if effect == "F-SPID":  # ICE-SNOW-1
            for start in sorted(k for k, t in board.tiles.items() if t["arch"] > 0):
                moves += [{"type": "play_snow_tile", "tile": tile_id, "from": start, "to": end}
                          for end in board.walkable_from(start)]
        elif effect == "F-MANT" and state["leaders"][seat] is not None:  # ICE-SNOW-3
            start = state["leaders"][seat]
            for end in (k for k in board.enterable_keys() if k != start):
                moves += [{"type": "play_snow_tile", "tile": tile_id, "to": end, "archaeologists": n}
                          for n in navigator_counts(flow, seat, start)]
        elif effect == "F-SMIL" and state["reserve"]["smilodons"] > 0:  # ICE-SNOW-4
            moves += [{"type": "play_snow_tile", "tile": tile_id, "at": k} for k in board.enterable_keys()
                      if board.tiles[k]["kind"] != "building"]
        elif effect == "F-SAIL":  # ICE-SNOW-5
            targets = [s for s in others if state["leaders"][s] is not None and board.enterable(state["leaders"][s])]
            moves += [{"type": "play_snow_tile", "tile": tile_id, "leader": s} for s in targets or [None]]
        elif effect == "F-WRCK":  # ICE-SNOW-7
            moves += [{"type": "play_snow_tile", "tile": tile_id, "player": s} for s in others]
        elif effect == "F-CHAR" and player["rp"] >= flow.params["charisma_rp_cost"]:  # ICE-SNOW-10
            moves += [{"type": "play_snow_tile", "tile": tile_id, "leader": s} for s in others
                      if state["leaders"][s] is not None and s not in state["turn"]["controlled"]]
        elif effect == "F-RUNE":  # ICE-SNOW-11
            moves += [{"type": "play_snow_tile", "tile": tile_id, "at": k} for k in rune_targets(flow)]
        elif effect == "F-WHIS":  # ICE-SNOW-12
            slots: list[str | None] = list(whistle_slots(flow)) or [None]
            moves += [{"type": "play_snow_tile", "tile": tile_id, "slot": k} for k in slots]
    return moves


def rune_targets(flow: Flow) -> list[str]:
    """ICE-SNOW-11 (AMB-22): not fully covered (default) or uncovered tiles, with no camp, not buildings."""
    board = flow.board
    uncovered_only = flow.params["rune_targets"] == "uncovered"
    return [
        k for k, t in sorted(board.tiles.items())
        if t["kind"] != "building" and not t["camp"]
        and (board.cover_count(k) == 0 if uncovered_only else board.standable(k))
    ]


def ability_moves(flow: Flow, seat: str) -> list[dict]:
    """ICE-GLD-2 Incandescents and ICE-GLD-5 Alchemists, once a day each."""
    state = flow.state
    player = flow.player(seat)
    own = state["leaders"][seat]
    if guild_active(flow, seat, "G-INCA") and player["token"] is None and own is not None:
        face = flow.board.tiles[own]["face"]
        if flow.board.tiles[own]["kind"] == "artifact" and face and flow.data.artifacts[face]["type"]:
            return [{"type": "use_guild_ability"}]
    if guild_active(flow, seat, "G-ALCH") and not player["alchemy_used"] and state["bag"]:
        top = min(flow.params["alchemists_draw_max"], len(state["bag"]))
        return [{"type": "use_guild_ability", "count": k} for k in range(1, top + 1)]
    return []


def pay(flow: Flow, seat: str, cost: int) -> None:
    flow.player(seat)["ep"] -= cost
    flow.state["turn"]["spent"] += cost


def move_archaeologists(flow: Flow, start: str | None, end: str, count: int) -> None:
    if start is None or count == 0:
        return
    tiles = flow.state["tiles"]
    tiles[start]["arch"] -= count
    tiles[end]["arch"] += count


def apply_turn_move(flow: Flow, seat: str, move: dict) -> None:
    """What an accepted turn command does."""
    state = flow.state
    params = flow.params
    player = flow.player(seat)
    kind = move["type"]
    if kind == "end_turn":
        # ICE-EXP-7: a turn ending on 0 EP ends the day after the Send step.
        if player["ep"] == 0:
            flow.end_day_for(seat)
        else:
            flow.push({"do": "next_turn"})
    elif kind == "end_day":
        player["ep"] = 0  # ICE-EXP-8: remaining EP are lost
        flow.end_day_for(seat)
    elif kind == "overwork":
        player["rp"] -= params["overwork_rp_cost"]
        state["turn"]["overwork"] += 1
    elif kind == "plan":
        pay(flow, seat, params["cost_plan"])
        player["plans"] += 1
        player["plans_today"] += 1
    elif kind == "check_registry":
        pay(flow, seat, params["cost_check_registry"])
        flow.push({"do": "draw_requests", "seat": seat, "n": params["registry_draw"], "then": "keep"})
    elif kind == "resend":
        pay(flow, seat, params["cost_resend"])
        player["resend"] = True
        player["ep"] = 0
        flow.end_day_for(seat)
    elif kind == "move":
        pay(flow, seat, params["cost_move"])
        start = state["leaders"][move["leader"]]
        move_archaeologists(flow, start, move["to"], move["archaeologists"])
        state["leaders"][move["leader"]] = move["to"]
    elif kind == "set_up_camp":
        pay(flow, seat, params["cost_set_up_camp"])
        state["reserve"]["camps"] -= 1
        state["tiles"][move["to"]]["camp"] = True
        leader_moves(flow, seat, move["to"], move["archaeologists"])
    elif kind == "recruit":
        pay(flow, seat, params["cost_recruit"])
        if move["kind"] == "archaeologist":
            state["reserve"]["archaeologists"] -= 1
            state["tiles"][move["camp"]]["arch"] += 1
        else:
            leader_moves(flow, seat, move["camp"], move["archaeologists"])
    elif kind == "excavate":
        cost = 0 if move["tile"] else dig.dig_cost(flow, state["leaders"][move["leader"]], move["cryo"])
        dig.start(flow, seat, move["leader"], cost, move["tile"], move["cryo"])
    elif kind == "play_snow_tile":
        play_snow_tile(flow, seat, move)
    elif kind == "use_guild_ability":
        if "count" in move:
            player["alchemy_used"] = True
            flow.chance({"kind": "bag_draw", "seat": seat, "count": move["count"]})
        else:
            face = state["tiles"][state["leaders"][seat]]["face"]
            player["token"] = {"type": flow.data.artifacts[face]["type"], "spent": False}


def leader_moves(flow: Flow, seat: str, end: str, archaeologists: int) -> None:
    """A leader move by Recruit, Set up camp or a snow tile; Navigators may bring archaeologists."""
    start = flow.state["leaders"][seat]
    if archaeologists:
        flow.state["turn"]["navi"] = True
        move_archaeologists(flow, start, end, archaeologists)
    flow.state["leaders"][seat] = end


def play_snow_tile(flow: Flow, seat: str, move: dict) -> None:
    """ICE-ACT-10: reveal, resolve, then into the discard bag."""
    state = flow.state
    board = flow.board
    player = flow.player(seat)
    held = next(t for t in player["hand"] if t["id"] == move["tile"])
    player["hand"].remove(held)
    state["in_play"][held["id"]] = held
    effect = front_effect(flow, held)
    flow.push({"do": "bag_played", "tile": held["id"]})
    if effect == "F-SPID":
        move_archaeologists(flow, move["from"], move["to"], state["tiles"][move["from"]]["arch"])
    elif effect == "F-MANT":
        leader_moves(flow, seat, move["to"], move["archaeologists"])
    elif effect == "F-SMIL":
        state["reserve"]["smilodons"] -= 1
        state["tiles"][move["at"]]["smilodon"] = seat
    elif effect == "F-SAIL":
        places = [state["leaders"][seat], state["leaders"][move["leader"]] if move["leader"] else None]
        for place in places:
            if place is not None and board.enterable(place) and state["reserve"]["archaeologists"] > 0:
                state["reserve"]["archaeologists"] -= 1
                state["tiles"][place]["arch"] += 1
        player["rp"] += flow.params["sailboat_rp"]
    elif effect == "F-WRCK":
        flow.gain_ep(seat, flow.params["wreck_ep"])
        player["rp"] += flow.params["wreck_rp"]
        other = flow.player(move["player"])
        if other["day_over"]:
            other["carried_ep"] += flow.params["wreck_ep"]  # ICE-EXP-9: carried into the next day
        else:
            flow.gain_ep(move["player"], flow.params["wreck_ep"])
    elif effect == "F-CHAR":
        player["rp"] -= flow.params["charisma_rp_cost"]
        state["turn"]["controlled"].append(move["leader"])
    elif effect == "F-RUNE":
        board.discard_to_bag(move["at"])
        flow.after_board_change()
    elif effect == "F-WHIS" and move["slot"] is not None:
        flow.push({"do": "draw_snowflake", "then": "place", "slot": move["slot"], "seat": seat})

