"""Logbook events (ICE-LOG): the stand-in primitives a logbook card is made of, as steps of the day's script."""
from __future__ import annotations

from domain.ice_expedition.flow import Flow


def logbook_steps(flow: Flow, card: dict) -> list[dict]:
    """The steps of one revealed card, every player-by-player part clockwise from the first player."""
    first = flow.state["first"]
    steps: list[dict] = []
    for event in card["events"]:
        primitive = event["primitive"]
        n = event.get("n", 1)
        if primitive == "ICE-LOG-E1":
            steps.append({"do": "log_prismatics"})
        elif primitive == "ICE-LOG-E2":
            steps.append({"do": "log_smilodon"})
        elif primitive == "ICE-LOG-E3":
            # ICE-LOG-8: draws go one player at a time clockwise from the first player.
            for seat in flow.seats_from(first):
                if event.get("what", "request") == "request":
                    steps.append({"do": "draw_requests", "seat": seat, "n": n, "then": "hand"})
                else:
                    steps += [{"do": "draw_snowflake", "then": "hand", "seat": seat}] * n
        elif primitive == "ICE-LOG-E4":
            # ICE-LOG-E4: snowfall, placed by the first player as with the Storm Whistle.
            steps += [{"do": "draw_snowflake", "then": "ask", "seat": first}] * n
        elif primitive == "ICE-LOG-E5":
            # ICE-LOG-2: placements go one player at a time clockwise from the first player.
            steps += [{"do": "log_recruit", "seat": seat, "n": n} for seat in flow.seats_from(first)]
        # ICE-LOG-E6: a card without an event adds no step.
    return steps


def step_logbook(flow: Flow, step: dict) -> None:
    """ICE-PREP-2 / ICE-LOG-1: reveal the next logbook card (fixed order, or drawn: ICE-RND-8)."""
    logbook = flow.state["logbook"]
    if not logbook["deck"]:
        return
    if flow.params["logbook_order"] == "shuffled":
        flow.chance({"kind": "logbook"})
        return
    reveal_logbook(flow, logbook["deck"][0])


def reveal_logbook(flow: Flow, card_id: str) -> None:
    logbook = flow.state["logbook"]
    logbook["deck"].remove(card_id)
    logbook["revealed"].append(card_id)
    card = next(card for card in flow.data.cards["logbook"] if card["id"] == card_id)
    flow.push(*logbook_steps(flow, card))


def step_log_prismatics(flow: Flow, step: dict) -> None:
    """ICE-LOG-E1: an archaeologist from the reserve on every visible prismatic artifact tile.

    ICE-LOG-3: none when the reserve is empty; ICE-LOG-4: when it is short, the first
    player picks the tiles one at a time; ICE-LOG-5: Smilodon tiles take nobody.
    """
    state = flow.state
    prismatic = sorted(
        key for key, tile in state["tiles"].items()
        if tile["kind"] == "artifact" and tile["face"] is not None
        and flow.data.artifacts[tile["face"]]["type"] is None and flow.board.enterable(key)
    )
    reserve = state["reserve"]
    if len(prismatic) <= reserve["archaeologists"]:
        for key in prismatic:
            state["tiles"][key]["arch"] += 1
        reserve["archaeologists"] -= len(prismatic)
    elif reserve["archaeologists"] > 0:
        flow.push({"do": "wait", "kind": "log_prismatic", "seat": state["first"], "tiles": prismatic,
                   "left": reserve["archaeologists"]})


def step_log_smilodon(flow: Flow, step: dict) -> None:
    """ICE-LOG-E2 / ICE-LOG-6: a Smilodon on the tile with most explorers; one on each tied tile if the
    pawns suffice, else the first player picks; they leave at the end of the day (ICE-DAY-4)."""
    state = flow.state
    leaders: dict[str, int] = {}  # explorers_on, for every tile at once
    for at in state["leaders"].values():
        leaders[at] = leaders.get(at, 0) + 1
    counts = {key: tile["arch"] + leaders.get(key, 0) for key, tile in state["tiles"].items()
              if tile["smilodon"] is None}
    most = max(counts.values(), default=0)
    if most == 0:
        return
    tied = sorted(key for key, n in counts.items() if n == most)
    pawns = state["reserve"]["smilodons"]
    if len(tied) <= pawns:
        for key in tied:
            state["tiles"][key]["smilodon"] = "logbook"
        state["reserve"]["smilodons"] -= len(tied)
    elif pawns > 0:
        flow.push({"do": "wait", "kind": "log_smilodon", "seat": state["first"], "tiles": tied, "left": pawns})


def step_log_recruit(flow: Flow, step: dict) -> None:
    """ICE-LOG-E5: N archaeologists from the reserve onto the player's leader's tile (ICE-LOG-3: while
    the reserve lasts). ICE-LOG-9: a leader off the board means exchanging a reserve archaeologist
    with one on the board, which leaves every count as it was."""
    state = flow.state
    at = state["leaders"][step["seat"]]
    if at is None or not flow.board.enterable(at):
        return
    placed = min(step["n"], state["reserve"]["archaeologists"])
    state["tiles"][at]["arch"] += placed
    state["reserve"]["archaeologists"] -= placed

