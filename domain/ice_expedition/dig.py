"""An excavation from payment to the last collapse (ICE-EXC-3), with its placement choices.

The dig in progress lives in ``state["dig"]``; its choices are waiting steps
for the excavator (``dig_place``, ``dig_icewalker``, ``dig_camp``).
"""
from __future__ import annotations

from functools import cache
from itertools import product

from domain.ice_expedition.costs import excavation_cost
from domain.ice_expedition.flow import Flow
from domain.ice_expedition.geometry import even_shares, free_shares, parse_slot, slot_key


def dig_cost(flow: Flow, key: str, cryo: bool) -> int:
    """ICE-EXC-2 for the tile at ``key`` as it stands."""
    board = flow.board
    tile = board.tiles[key]
    return excavation_cost(
        flow.params,
        covered_by_one=board.cover_count(key) == 1,
        camp=tile["camp"],
        nunatak=tile.get("terrain") == "T-NUN",
        archaeologists=tile["arch"],
        leaders=len(board.leaders_on(key)),
        cryo=cryo,
    )


def eligibility_problem(flow: Flow, key: str) -> tuple[str, str] | None:
    """ICE-EXC-1: why the tile at ``key`` cannot be excavated, as (rule, reason), or None."""
    tile = flow.board.tiles[key]
    if tile["kind"] == "building":
        return "ICE-EXC-1", "buildings are never excavated"
    if tile["smilodon"] is not None:
        return "ICE-SNOW-4", "a tile with a Smilodon cannot be excavated"
    if flow.board.cover_count(key) > 1:
        return "ICE-EXC-1", "the tile is covered by more than one tile"
    return None


def start(flow: Flow, seat: str, leader: str, cost: int, played: str | None, cryo: bool) -> None:
    """ICE-EXC-3 steps 1-3: pay, let a single cover collapse, take the tile."""
    state = flow.state
    board = flow.board
    key = state["leaders"][leader]
    flow.player(seat)["ep"] -= cost
    state["turn"]["spent"] += cost
    if cryo:
        state["turn"]["cryo"] = True  # ICE-GLD-1: once per turn
    slot = parse_slot(key)
    covers = [slot_key(s) for s in flow.geo.above[slot] if s in board.present]
    if len(covers) == 1:
        board.discard_to_bag(covers[0])  # ICE-EXC-3 step 2: the single cover collapses
    tile = board.tiles.pop(key)
    board.present.discard(slot)
    explorers = board.leaders_on(key)
    for other in explorers:
        state["leaders"][other] = None
    state["dig"] = {"slot": key, "seat": seat, "arch": tile["arch"], "leaders": explorers, "camp": tile["camp"],
                    "rope": False, "survivors": 0, "icewalker": None}
    flow.push({"do": "wait", "kind": "dig_place", "seat": seat}, {"do": "dig_end"})
    if played is not None:
        flow.state["in_play"][played] = _take_from_hand(flow, seat, played)
        flow.push({"do": "bag_played", "tile": played})
    if tile["kind"] == "snow":
        flow.gain_snow_tile(seat, tile)  # ICE-EXC-3 step 3: snow tile to the excavator's hand
    else:
        flow.player(seat)["artifacts"].append(tile["face"])  # ... artifact to the excavator's guild board
    board.queue_reveals()


def _take_from_hand(flow: Flow, seat: str, tile_id: str) -> dict:
    hand = flow.player(seat)["hand"]
    tile = next(t for t in hand if t["id"] == tile_id)
    hand.remove(tile)
    return tile


def destinations(flow: Flow) -> list[str]:
    """ICE-EXC-4 / ICE-SNOW-8: the tiles below, plus the board edge's places when Survivors are used."""
    dig = flow.state["dig"]
    slot = parse_slot(dig["slot"])
    found = [slot_key(s) for s in flow.geo.tiles_below(flow.board.present, slot)]
    if dig["survivors"]:
        found += [f"edge-{n}" for n in range(1, flow.geo.edge_destinations(slot) + 1)]
    return found


def place_moves(flow: Flow) -> list[dict]:
    """ICE-EXC-4: every even spread (any spread with the Rope, ICE-SNOW-6), with each leader's place."""
    moves, places, spreads = _place_choices(flow)
    if not places:
        return moves + [{"type": "place_explorers", "shares": [], "leaders": {}}]
    leaders = flow.state["dig"]["leaders"]
    for shares, choice in spreads:
        placed = {leader: places[i] for leader, i in zip(leaders, choice, strict=True)}
        moves.append({"type": "place_explorers", "shares": list(shares), "leaders": placed})
    return moves


def place_move_count(flow: Flow) -> int:
    """How many moves :func:`place_moves` offers, without making them: a dig waiting for its placement is
    asked after every event folded whether it still needs the excavator's choice."""
    moves, places, spreads = _place_choices(flow)
    return len(moves) + (len(spreads) if places else 1)


def _place_choices(flow: Flow) -> tuple[list[dict], list[str], tuple[Placement, ...]]:
    """The snow tile and guild moves of a placement, its places, and the spreads over them."""
    dig = flow.state["dig"]
    seat = dig["seat"]
    moves: list[dict] = []
    for tile in flow.player(seat)["hand"]:
        effect = flow.data.fronts[tile["front"]]["effect"] if tile["front"] else None
        if effect == "F-ROPE" and not dig["rope"] or effect == "F-SURV" and not dig["survivors"]:
            moves.append({"type": "play_snow_tile", "tile": tile["id"]})
    own = flow.player(seat)
    if (own["guild"] == "G-ICEW" and not flow.state["turn"]["icewalk"] and seat in dig["leaders"]
            and not flow.params["first_steps"]):
        moves.append({"type": "use_guild_ability"})  # ICE-GLD-4
    places = destinations(flow)
    if not places:
        return moves, places, ()
    count = dig["arch"] + len(dig["leaders"])
    return moves, places, placements(count, len(places), len(dig["leaders"]), bool(dig["rope"]))


Placement = tuple[tuple[int, ...], tuple[int, ...]]


@cache
def placements(count: int, places: int, leaders: int, rope: bool) -> tuple[Placement, ...]:
    """ICE-EXC-4 / ICE-SNOW-6: every spread of ``count`` explorers over ``places`` with every way the leaders
    among them may be placed within it, as (shares, the place of each leader): the same few numbers come up
    in every game, and a dig waiting for its placement is asked again after every event."""
    spreads = (free_shares if rope else even_shares)(count, places)
    return tuple(
        (shares, choice)
        for shares in spreads
        for choice in product(range(places), repeat=leaders)
        if all(choice.count(i) <= shares[i] for i in range(places))
    )


def apply_place_choice(flow: Flow, move: dict) -> None:
    """The excavator's choice at ``dig_place``: a Rope or Survivors tile, the Icewalkers, or the spread."""
    state = flow.state
    dig = state["dig"]
    seat = dig["seat"]
    if move["type"] == "play_snow_tile":
        tile = _take_from_hand(flow, seat, move["tile"])
        effect = flow.data.fronts[tile["front"]]["effect"]
        if effect == "F-ROPE":
            dig["rope"] = True  # ICE-SNOW-6
        else:
            extra = min(flow.params["survivors_archaeologists"], state["reserve"]["archaeologists"])
            state["reserve"]["archaeologists"] -= extra  # ICE-SNOW-8
            dig["arch"] += extra
            dig["survivors"] = max(1, extra)
        state["in_play"][tile["id"]] = tile
        flow.step_bag_played({"tile": tile["id"]})
        return
    if move["type"] == "use_guild_ability":
        state["turn"]["icewalk"] = True
        dig["leaders"].remove(seat)
        dig["icewalker"] = seat
        return
    state["script"].pop(0)
    places = destinations(flow)
    reserve = state["reserve"]
    for index, place in enumerate(places):
        leaders = [leader for leader, at in move["leaders"].items() if at == place]
        arch = move["shares"][index] - len(leaders)
        below = flow.board.tiles.get(place)
        if below is None or below["smilodon"] is not None:
            reserve["archaeologists"] += arch  # ICE-EXC-4: a Smilodon tile or the edge sends them home
            continue
        below["arch"] += arch
        for leader in leaders:
            state["leaders"][leader] = place
    if not places:
        reserve["archaeologists"] += dig["arch"]
    dig["arch"], dig["leaders"] = 0, []
    follow = []
    if dig["icewalker"]:
        follow.append({"do": "wait", "kind": "dig_icewalker", "seat": seat})
    if dig["camp"]:
        follow.append({"do": "wait", "kind": "dig_camp", "seat": seat})
    flow.push(*follow)


def icewalker_moves(flow: Flow) -> list[dict]:
    """ICE-GLD-4: the Icewalkers' leader goes on any tile below, evenness ignored."""
    places = [p for p in destinations(flow) if not p.startswith("edge")]
    return [{"type": "place_leader", "to": place} for place in places]


def apply_icewalker(flow: Flow, move: dict | None) -> None:
    state = flow.state
    state["script"].pop(0)
    seat = state["dig"]["icewalker"]
    if move is None:
        return
    tile = flow.board.tiles[move["to"]]
    state["leaders"][seat] = move["to"] if tile["smilodon"] is None else None


def camp_moves(flow: Flow) -> list[dict]:
    """ICE-EXC-3 step 6: the camp moves to a tile below that could take a camp (ICE-ACT-3): no camp, no
    Smilodon, no building. Below a deep artifact lie only buildings, so its camp goes back to the reserve."""
    places = [p for p in destinations(flow) if not p.startswith("edge")]
    return [{"type": "move_camp", "to": p} for p in places if flow.board.takes_a_camp(p)]


def apply_camp(flow: Flow, move: dict | None) -> None:
    flow.state["script"].pop(0)
    flow.state["dig"]["camp"] = False
    if move is None:
        flow.state["reserve"]["camps"] += 1  # FAQ: no valid tile, the camp returns to the reserve
    else:
        flow.board.tiles[move["to"]]["camp"] = True


def finish(flow: Flow, step: dict) -> None:
    """ICE-EXC-3 steps 7-8: collapse until nothing more falls, then the end trigger."""
    flow.state["dig"] = None
    flow.after_board_change()
