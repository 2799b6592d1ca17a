"""Decisions the game waits for (ICE-CMD-16): one seat, a closed list of choices.

Each waiting step has a kind; ``wait_moves`` lists its choices and
``resolve_wait`` applies one. A decision with at most one choice resolves by
itself, so a seat is only ever asked when it really has a choice.
"""
from __future__ import annotations

from domain.ice_expedition import dig
from domain.ice_expedition.flow import Flow


def wait_moves(flow: Flow, step: dict) -> list[dict]:
    state = flow.state
    seat = step["seat"]
    player = flow.player(seat)
    kind = step["kind"]
    if kind == "choose_guild":
        taken = {p["guild"] for p in state["players"].values()}
        return [{"type": "choose_guild", "guild": g["id"]} for g in flow.data.guilds["guilds"] if g["id"] not in taken]
    if kind == "keep_request":
        return [{"type": "keep_request", "card": card} for card in player["drawn"]]
    if kind == "discard_snow":
        # ICE-EXP-10: discard one of the held tiles first; the incoming one too with HAND_DISCARD_INCOMING.
        return [{"type": "discard_snow_tile", "tile": t["id"]} for t in player["hand"]
                if t["id"] != step["incoming"] or flow.params["hand_discard_incoming"]]
    if kind == "send":
        # ICE-ACT-9: up to 3 artifacts (4 after Resend), one at a time, or stop.
        moves = [{"type": "stop_sending"}]
        if player["sent"] < step["limit"]:
            moves += [{"type": "send_to_city", "artifact": art} for art in sorted(set(player["artifacts"]))]
        return moves
    if kind == "alchemy_keep":
        return [{"type": "keep_tile", "tile": item} for item in player["alchemy_drawn"]]
    if kind == "relocate":
        # ICE-SNOW-12: one explorer at a time (leaders first) leaves the fully covered tile.
        leaders = sorted(flow.board.leaders_on(step["slot"]))
        explorer = leaders[0] if leaders else "archaeologist"
        return [{"type": "relocate", "explorer": explorer, "to": k} for k in flow.board.walkable_from(step["slot"])]
    if kind in ("log_prismatic", "log_smilodon"):
        return [{"type": "choose_tile", "at": k} for k in step["tiles"]]
    if kind == "place_snowflake":
        return [{"type": "place_snowflake", "slot": k} for k in whistle_slots(flow)]
    if kind == "dig_place":
        return dig.place_moves(flow)
    if kind == "dig_icewalker":
        return dig.icewalker_moves(flow)
    if kind == "dig_camp":
        return dig.camp_moves(flow)
    raise ValueError(f"unknown decision {kind}")


def whistle_slots(flow: Flow) -> list[str]:
    """ICE-SNOW-12: where a snowflake tile may go now."""
    from domain.ice_expedition.geometry import slot_key

    tiles = flow.state["tiles"]

    def blocked(slot) -> bool:
        tile = tiles[slot_key(slot)]
        return tile["camp"] or tile["smilodon"] is not None

    return [slot_key(s) for s in flow.geo.whistle_slots(flow.board.present, blocked)]


def auto_resolve(flow: Flow, step: dict) -> bool:
    """Resolve a decision that offers no real choice; False when the seat must choose."""
    if step["kind"] == "dig_place" and dig.place_move_count(flow) > 1:
        return False
    moves = wait_moves(flow, step)
    if len(moves) > 1:
        return False
    resolve_wait(flow, step, moves[0] if moves else None)
    return True


def resolve_wait(flow: Flow, step: dict, move: dict | None) -> None:
    state = flow.state
    seat = step["seat"]
    player = flow.player(seat)
    kind = step["kind"]
    if kind == "dig_place":
        assert move is not None, "dig_place always offers the spread"
        dig.apply_place_choice(flow, move)
        return
    if kind == "dig_icewalker":
        dig.apply_icewalker(flow, move)
        return
    if kind == "dig_camp":
        dig.apply_camp(flow, move)
        return
    if kind == "send" and move is not None and move["type"] == "send_to_city":
        _send(flow, seat, move["artifact"])
        if player["sent"] < step["limit"] and player["artifacts"]:
            return
    if kind == "relocate" and move is not None:
        _relocate(flow, step["slot"], move["explorer"], move["to"])
        if flow.board.explorers_on(step["slot"]):
            return
    if kind in ("log_prismatic", "log_smilodon") and move is not None:
        _log_choice(flow, step, move["at"])
        if step["tiles"] and step["left"] > 0:
            return
    state["script"].pop(0)
    if move is None:
        if kind == "place_snowflake":
            flow.return_snowflake(step["tile"])
        elif kind == "relocate":
            flow.board.return_pieces(step["slot"])
        return
    if kind == "choose_guild":
        flow.take_guild(seat, move["guild"])
    elif kind == "keep_request":
        _keep_request(flow, seat, move["card"])
    elif kind == "discard_snow":
        _discard_snow(flow, seat, move["tile"])
    elif kind == "alchemy_keep":
        _keep_tile(flow, seat, move["tile"])
    elif kind == "place_snowflake":
        flow.place_snowflake(step["tile"], move["slot"], seat)


def _send(flow: Flow, seat: str, artifact: str) -> None:
    """ICE-ACT-9: face down to the city; 1 RP per Anima point (prismatics by their Anima)."""
    player = flow.player(seat)
    player["artifacts"].remove(artifact)
    player["city"].append(artifact)
    player["sent"] += 1
    player["rp"] += flow.data.artifacts[artifact]["anima"]


def _keep_request(flow: Flow, seat: str, card: str) -> None:
    """ICE-ACT-5 / ICE-SETUP-7: keep one, the others face up on the request discard pile."""
    player = flow.player(seat)
    requests = flow.state["requests"]
    player["requests"].append(card)
    others = [c for c in player["drawn"] if c != card]
    requests["discard"].extend(others)
    requests["public"] = sorted(set(requests["public"]) | set(others))
    player["drawn"] = []


def _discard_snow(flow: Flow, seat: str, tile_id: str) -> None:
    """ICE-EXP-10: the discarded tile goes into the bag unrevealed."""
    player = flow.player(seat)
    tile = next(t for t in player["hand"] if t["id"] == tile_id)
    player["hand"].remove(tile)
    flow.state["bag"].append({"id": tile["id"], "kind": "snow", "layer": None, "terrain": tile["terrain"],
                              "face": None, "front": tile["front"], "known_by": tile["known_by"]})


def _keep_tile(flow: Flow, seat: str, item_id: str) -> None:
    """ICE-GLD-5: keep one drawn tile (snow to hand, artifact to the guild board), the rest go back."""
    player = flow.player(seat)
    bag = flow.state["bag"]
    item = next(i for i in bag if i["id"] == item_id)
    bag.remove(item)
    player["alchemy_drawn"] = []
    if item["kind"] == "snow":
        flow.gain_snow_tile(seat, item)
    else:
        player["artifacts"].append(item["face"])


def _relocate(flow: Flow, start: str, explorer: str, end: str) -> None:
    """ICE-SNOW-12: an explorer of a tile the snowflake fully covered moves to an adjacent tile."""
    tiles = flow.state["tiles"]
    if explorer == "archaeologist":
        tiles[start]["arch"] -= 1
        tiles[end]["arch"] += 1
    else:
        flow.state["leaders"][explorer] = end


def _log_choice(flow: Flow, step: dict, key: str) -> None:
    """ICE-LOG-4 / ICE-LOG-6: the first player picks, one tile at a time, who gets what is short."""
    state = flow.state
    step["tiles"].remove(key)
    step["left"] -= 1
    if step["kind"] == "log_prismatic":
        state["reserve"]["archaeologists"] -= 1
        state["tiles"][key]["arch"] += 1
    else:
        state["reserve"]["smilodons"] -= 1
        state["tiles"][key]["smilodon"] = "logbook"

