"""The five guild abilities (ICE-GLD-1..5, ICE-ACT-11 / ICE-CMD-13)."""
from __future__ import annotations

from domain.core.match import legal_moves
from tests.ice_expedition.helpers import CENTRE, act, moves_of, new_game, open_centre


def game(guild, options=None):
    match = new_game(2, options, picks={"guilds": [guild, "G-INCA" if guild != "G-INCA" else "G-CRYO"]})
    open_centre(match)
    return match


def test_cryoarchitects_count_one_more_archaeologist_on_a_camp():
    """ICE-GLD-1 (C8): leader alone on a camp costs 3, with the ability 2; the camp still moves below."""
    match = game("G-CRYO")
    state = match.state
    state["tiles"][CENTRE]["camp"] = True
    state["reserve"]["camps"] -= 1
    assert {m["cryo"] for m in moves_of(match, "p1", "excavate")} == {True}  # 3 EP is over the turn's 2
    act(match, "p1", {"type": "overwork"})
    assert {m["cryo"] for m in moves_of(match, "p1", "excavate")} == {False, True}
    events = act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": True, "tile": None})
    assert events[0]["data"]["cost"] == 2
    act(match, "p1", {"type": "place_explorers", "shares": [1, 0, 0], "leaders": {"p1": "2:-1:0"}})
    act(match, "p1", {"type": "move_camp", "to": "2:0:1"})
    assert state["tiles"]["2:0:1"]["camp"]


def test_cryoarchitects_are_off_in_first_steps():
    """ICE-GLD: abilities are ignored in the First Steps game."""
    match = game("G-CRYO", {"first_steps": True})
    match.state["tiles"][CENTRE]["camp"] = True
    assert {m["cryo"] for m in moves_of(match, "p1", "excavate")} <= {False}


def test_incandescents_activation_token():
    """ICE-GLD-2 / ICE-DAY-4: once a day on a visible non-prismatic artifact, the token takes its type; it
    is removed at the end of the day; never on a prismatic."""
    match = game("G-INCA")
    state = match.state
    act(match, "p1", {"type": "use_guild_ability"})
    assert state["players"]["p1"]["token"] == {"type": "harmony", "spent": False}
    assert not moves_of(match, "p1", "use_guild_ability")
    act(match, "p1", {"type": "end_day"})
    act(match, "p2", {"type": "end_day"})
    assert state["players"]["p1"]["token"] is None
    state["tiles"][CENTRE]["face"] = "AS-pri-1"
    state["leaders"]["p1"] = CENTRE
    state["active"] = "p1"
    assert not moves_of(match, "p1", "use_guild_ability")


def test_navigators_bring_archaeologists_on_a_recruit():
    """ICE-GLD-3 (AMB-14): a leader move by Recruit takes 1-3 archaeologists along, once per turn."""
    match = game("G-NAVI")
    state = match.state
    state["tiles"][CENTRE]["arch"] = 3
    state["tiles"]["4:-7:3"]["camp"] = True
    counts = {m["archaeologists"] for m in moves_of(match, "p1", "recruit") if m["kind"] == "leader"}
    assert counts == {0, 1, 2, 3}
    act(match, "p1", {"type": "recruit", "kind": "leader", "camp": "4:-7:3", "archaeologists": 2})
    assert state["tiles"]["4:-7:3"]["arch"] == 2 and state["leaders"]["p1"] == "4:-7:3"
    state["tiles"]["3:1:1"]["camp"] = True
    counts = {m["archaeologists"] for m in moves_of(match, "p1", "recruit") if m["kind"] == "leader"}
    assert counts == {0}


def test_icewalkers_place_their_leader_freely():
    """ICE-GLD-4 (P6): own leader + 3 archaeologists: archaeologists 1, 1, 1, then the leader anywhere below."""
    match = game("G-ICEW")
    state = match.state
    state["tiles"][CENTRE]["arch"] = 3
    act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    assert {"type": "use_guild_ability"} in legal_moves(match, "p1")
    act(match, "p1", {"type": "use_guild_ability"})  # the only even spread left (1, 1, 1) applies by itself
    assert {m["to"] for m in moves_of(match, "p1", "place_leader")} == {"2:-1:0", "2:0:1", "2:1:-1"}
    act(match, "p1", {"type": "place_leader", "to": "2:1:-1"})
    assert state["leaders"]["p1"] == "2:1:-1"
    assert [state["tiles"][k]["arch"] for k in ("2:-1:0", "2:0:1", "2:1:-1")] == [1, 1, 1]


def test_alchemists_draw_from_the_bag_and_keep_one():
    """ICE-GLD-5 / ICE-RND-10 / AMB-27: choose how many (1-3) to draw, keep one, the rest go back; a kept
    artifact goes to the guild board."""
    match = game("G-ALCH")
    state = match.state
    assert not moves_of(match, "p1", "use_guild_ability")  # empty bag
    state["bag"] = [
        {"id": f"A@3:9:{n}", "kind": "artifact", "layer": 3, "terrain": None, "face": None, "front": None,
         "known_by": []} for n in range(4)]
    assert [m["count"] for m in moves_of(match, "p1", "use_guild_ability")] == [1, 2, 3]
    act(match, "p1", {"type": "use_guild_ability", "count": 3})
    kept = moves_of(match, "p1", "keep_tile")[1]["tile"]
    face = next(i["face"] for i in state["bag"] if i["id"] == kept)
    act(match, "p1", {"type": "keep_tile", "tile": kept})
    assert state["players"]["p1"]["artifacts"] == [face] and len(state["bag"]) == 3
    assert not moves_of(match, "p1", "use_guild_ability")  # once a day
