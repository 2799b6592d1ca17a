"""Every random point of the game as a chance node (spec section 10.3, ICE-RND), and what its outcome does.

Nothing hidden exists in the state before it becomes known: a snow tile's front
is drawn when someone takes the tile, an artifact's face when its tile stops
being fully covered, a building when it is uncovered. The candidates are always
what is still unplaced of that kind, so the distribution is the one of a
shuffled physical set.
"""
from __future__ import annotations

from domain.core import ChanceNode
from domain.ice_expedition.flow import Flow
from domain.ice_expedition.geometry import parse_slot, slot_key
from domain.ice_expedition.logbook import reveal_logbook


def rift_rotations(pattern: list[int]) -> list[str]:
    """The distinct ways a Rift tile can lie: its blocked edges turned 0-5 steps."""
    return sorted({"-".join(str(e) for e in sorted((edge + turn) % 6 for edge in pattern)) for turn in range(6)})


def back_ids(flow: Flow) -> list[str]:
    return [f"{back}-{i:02d}" for back, n in flow.data.tiles["snow_backs_on_board"].items() for i in range(1, n + 1)]


def _bag_item(flow: Flow, item_id: str) -> dict:
    return next(item for item in flow.state["bag"] if item["id"] == item_id)


def node_for(flow: Flow, entry: dict) -> ChanceNode:
    state = flow.state
    kind = entry["kind"]
    if kind == "backs":
        # ICE-RND-3: which snow tile back lies in each snow slot, in slot order (terrain is public).
        return ChanceNode("backs", tuple(back_ids(flow)), count=len(flow.geo.layers[max(flow.geo.layers)]),
                          label="snow tile backs, one per snow slot in slot order")
    if kind == "rift":
        return ChanceNode(f"rift:{entry['slot']}", tuple(rift_rotations(flow.data.board["rift_blocked_edges"])),
                          label="blocked edges of a Rift tile", details={"slot": entry["slot"]})
    if kind == "guilds":
        # ICE-RND-2: one guild per seat, in seat order.
        guilds = tuple(g["id"] for g in flow.data.guilds["guilds"])
        return ChanceNode("guilds", guilds, count=len(state["seats"]), label="guilds in seat order")
    if kind == "first_player":
        return ChanceNode("first_player", tuple(state["seats"]), label="first player")  # ICE-RND-1, ICE-SETUP-8
    if kind == "decrees":
        decrees = tuple(d["id"] for d in flow.data.cards["decrees"])
        return ChanceNode("decrees", decrees, count=3, label="revealed decrees")  # ICE-RND-5
    if kind == "requests":
        # ICE-RND-7: request cards drawn into one seat's view only.
        return ChanceNode(f"requests:{entry['seat']}", tuple(state["requests"]["deck"]), count=entry["count"],
                          visible_to=(entry["seat"],), label="request cards drawn", details={"seat": entry["seat"]})
    if kind == "reveal_artifact":
        layer = str(parse_slot(entry["slot"])[0])
        return ChanceNode(f"artifact:{entry['slot']}", tuple(state["artifacts_left"][layer]),
                          label="artifact face", details={"slot": entry["slot"]})
    if kind == "reveal_building":
        return ChanceNode(f"building:{entry['slot']}", tuple(state["buildings_left"]),
                          label="building revealed", details={"slot": entry["slot"]})
    if kind == "front":
        return ChanceNode(f"front:{entry['tile']}", tuple(state["fronts_left"]), visible_to=(entry["seat"],),
                          label="snow tile front", details={"tile": entry["tile"], "seat": entry["seat"]})
    if kind == "bag_draw":
        # ICE-RND-10 / ICE-GLD-5: the Alchemists draw from the discard bag.
        bag = tuple(sorted(item["id"] for item in state["bag"]))
        return ChanceNode(f"bag:{entry['seat']}", bag, count=entry["count"], visible_to=(entry["seat"],),
                          label="tiles drawn from the discard bag", details={"seat": entry["seat"]})
    if kind == "reveal_bag":
        item = _bag_item(flow, entry["item"])
        pool = state["fronts_left"] if item["kind"] == "snow" else state["artifacts_left"][str(item["layer"])]
        return ChanceNode(f"bag-face:{entry['item']}", tuple(pool), visible_to=(entry["seat"],),
                          label="face of a tile drawn from the bag", details={"tile": entry["item"]})
    if kind == "bag_snow":
        # ICE-RND-9 / ICE-LOG-9: the snowflake pool is empty, a snow tile comes out of the bag.
        snow = tuple(sorted(item["id"] for item in state["bag"] if item["kind"] == "snow"))
        return ChanceNode("bag_snow", snow, label="snow tile from the discard bag")
    if kind == "logbook":
        return ChanceNode("logbook", tuple(state["logbook"]["deck"]), label="logbook card")  # ICE-RND-8
    raise ValueError(f"unknown chance kind {kind}")


def resolve(flow: Flow, outcome: list[str]) -> None:
    """Fold a chance outcome into the state; the entry it answers is the first queued one."""
    state = flow.state
    entry = state["chance"].pop(0)
    kind = entry["kind"]
    if kind == "backs":
        for slot, back in zip(flow.geo.layers[max(flow.geo.layers)], outcome, strict=True):
            tile = state["tiles"][slot_key(slot)]
            tile["id"] = back
            tile["terrain"] = back.rsplit("-", 1)[0]
    elif kind == "rift":
        state["tiles"][entry["slot"]]["rift"] = [int(edge) for edge in outcome[0].split("-")]
    elif kind == "guilds":
        for seat, guild in zip(state["seats"], outcome, strict=True):
            flow.take_guild(seat, guild)
    elif kind == "first_player":
        state["first"] = outcome[0]
    elif kind == "decrees":
        state["decrees"] = list(outcome)
    elif kind == "requests":
        _requests_drawn(flow, entry, outcome)
    elif kind == "reveal_artifact":
        state["artifacts_left"][str(parse_slot(entry["slot"])[0])].remove(outcome[0])
        state["tiles"][entry["slot"]]["face"] = outcome[0]
    elif kind == "reveal_building":
        state["buildings_left"].remove(outcome[0])
        state["tiles"][entry["slot"]]["face"] = outcome[0]
    elif kind == "front":
        state["fronts_left"].remove(outcome[0])
        for tile in flow.player(entry["seat"])["hand"]:
            if tile["id"] == entry["tile"]:
                tile["front"] = outcome[0]
    elif kind == "bag_draw":
        _bag_drawn(flow, entry, outcome)
    elif kind == "reveal_bag":
        item = _bag_item(flow, entry["item"])
        if item["kind"] == "snow":
            state["fronts_left"].remove(outcome[0])
            item["front"] = outcome[0]
        else:
            state["artifacts_left"][str(item["layer"])].remove(outcome[0])
            item["face"] = outcome[0]
        item["known_by"] = [entry["seat"]]
    elif kind == "bag_snow":
        item = _bag_item(flow, outcome[0])
        state["bag"].remove(item)
        flow.snowflake_drawn(item, entry["then"])
    elif kind == "logbook":
        reveal_logbook(flow, outcome[0])


def _requests_drawn(flow: Flow, entry: dict, outcome: list[str]) -> None:
    requests = flow.state["requests"]
    player = flow.player(entry["seat"])
    for card in outcome:
        requests["deck"].remove(card)
    player["drawn" if entry["then"] == "keep" else "requests"].extend(outcome)
    if entry["left"] and not requests["deck"] and requests["discard"]:
        flow.push({"do": "draw_requests", "seat": entry["seat"], "n": entry["left"], "then": entry["then"]})
    elif entry["then"] == "keep":
        flow.push({"do": "wait", "kind": "keep_request", "seat": entry["seat"]})


def _bag_drawn(flow: Flow, entry: dict, outcome: list[str]) -> None:
    """ICE-GLD-5: the drawn tiles are shown to the Alchemist; unknown faces are drawn for them."""
    seat = entry["seat"]
    flow.player(seat)["alchemy_drawn"] = list(outcome)
    for item_id in outcome:
        item = _bag_item(flow, item_id)
        unknown = item["front"] is None if item["kind"] == "snow" else item["face"] is None
        if unknown:
            flow.chance({"kind": "reveal_bag", "seat": seat, "item": item_id})
        elif seat not in item["known_by"] and item["known_by"] != ["*"]:
            item["known_by"].append(seat)
    flow.push({"do": "wait", "kind": "alchemy_keep", "seat": seat})
