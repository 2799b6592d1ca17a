"""The sample opening of section 7.7, played command by command with the exact EP of the spec."""
from __future__ import annotations

from domain.core.match import legal_moves
from tests.ice_expedition.helpers import act, clear_board, new_game, set_terrain

ENC = "4:0:1"


def opening_game():
    match = new_game(2, {"first_steps": True})
    clear_board(match)
    for key, tile in match.state["tiles"].items():
        if tile["kind"] == "snow":
            set_terrain(match, key, "T-CLR")
    set_terrain(match, ENC, "T-ENC")
    tile = match.state["tiles"][ENC]
    tile["camp"], tile["arch"] = True, 1
    match.state["reserve"]["camps"] -= 1
    match.state["reserve"]["archaeologists"] -= 1
    return match


def test_sample_opening_of_section_7_7():
    """ICE-ACT-4, ICE-EXC-2, ICE-EXC-3, ICE-EXC-4, ICE-ACT-1, ICE-ACT-7, ICE-PREP-3, ICE-EXC-6 and ICE-ACT-9 in one
    opening."""
    match = opening_game()
    state = match.state
    p1 = state["players"]["p1"]
    assert state["active"] == "p1" and p1["ep"] == 5 and p1["rp"] == 0  # First Steps: no starting RP
    # D1 T1: Recruit own leader onto (0,1) (1); Recruit an archaeologist onto (0,1) (1).
    act(match, "p1", {"type": "recruit", "kind": "leader", "camp": ENC, "archaeologists": 0})
    act(match, "p1", {"type": "recruit", "kind": "archaeologist", "camp": ENC, "archaeologists": 0})
    assert p1["ep"] == 3 and state["tiles"][ENC]["arch"] == 2 and state["leaders"]["p1"] == ENC
    act(match, "p1", {"type": "end_turn"})
    act(match, "p2", {"type": "end_day"})
    # D1 T2: Excavate (0,1): gross 3 + 1 (camp) = 4; 4 - 3 = 1.
    dug = state["tiles"][ENC]["id"]
    events = act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    assert events[0]["data"]["cost"] == 1 and p1["ep"] == 2
    assert [t["id"] for t in p1["hand"]] == [dug]  # ICE-EXC-3: the snow tile goes to the hand
    place = [m for m in legal_moves(match, "p1") if m["type"] == "place_explorers"]
    assert {tuple(m["shares"]) for m in place} == {(1, 1, 1)}
    act(match, "p1", {"type": "place_explorers", "shares": [1, 1, 1], "leaders": {"p1": "3:0:0"}})
    act(match, "p1", {"type": "move_camp", "to": "3:1:1"})
    assert state["leaders"]["p1"] == "3:0:0"
    assert state["tiles"]["3:1:1"]["arch"] == 1 and state["tiles"]["3:-1:2"]["arch"] == 1
    assert state["tiles"]["3:1:1"]["camp"]
    act(match, "p1", {"type": "move", "leader": "p1", "to": "4:1:-1", "archaeologists": 0})
    assert p1["ep"] == 1
    act(match, "p1", {"type": "end_turn"})
    # D1 T3: Plan (1); the day ends with nothing to send.
    act(match, "p1", {"type": "plan"})
    act(match, "p1", {"type": "end_turn"})
    assert state["day"] == 2 and state["first"] == "p2"  # ICE-PREP-1
    assert p1["ep"] == 6  # ICE-PREP-3: 5 + 1 (plan)
    act(match, "p2", {"type": "end_day"})
    # D2 T1: Excavate (1,-1): 3 - 1 = 2; the leader lands on (0,0), now covered by exactly one tile.
    events = act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    assert events[0]["data"]["cost"] == 2
    act(match, "p1", {"type": "place_explorers", "shares": _one_on(match, "3:0:0"),
                      "leaders": {"p1": "3:0:0"}})
    assert state["leaders"]["p1"] == "3:0:0" and p1["ep"] == 4
    act(match, "p1", {"type": "end_turn"})
    # D2 T2: Move to (1,1) (1); Recruit an archaeologist onto the camp at (1,1) (1).
    act(match, "p1", {"type": "move", "leader": "p1", "to": "3:1:1", "archaeologists": 0})
    act(match, "p1", {"type": "recruit", "kind": "archaeologist", "camp": "3:1:1", "archaeologists": 0})
    assert state["tiles"]["3:1:1"]["arch"] == 2 and p1["ep"] == 2
    act(match, "p1", {"type": "end_turn"})
    # D2 T3: Move to (0,0) with the 2 archaeologists (1); Excavate (0,0): 3 + 1 = 4; 4 - 3 = 1.
    act(match, "p1", {"type": "move", "leader": "p1", "to": "3:0:0", "archaeologists": 2})
    events = act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    assert events[0]["data"]["cost"] == 1 and p1["ep"] == 0
    assert "4:-1:0" not in state["tiles"]  # the single cover collapsed
    assert len(p1["artifacts"]) == 1
    middle = ["2:-1:0", "2:0:1", "2:1:-1"]
    leader_to = {"p1": "2:0:1"}
    act(match, "p1", {"type": "place_explorers", "shares": [1, 1, 1], "leaders": leader_to})
    assert [state["tiles"][k]["arch"] for k in middle] == [1, 0, 1]
    act(match, "p1", {"type": "end_turn"})
    artifact = p1["artifacts"][0]
    act(match, "p1", {"type": "send_to_city", "artifact": artifact})
    assert p1["city"] == [artifact] and p1["rp"] == 1


def _one_on(match, key):
    """The share vector putting the single explorer on ``key``."""
    for move in legal_moves(match, "p1"):
        if move["type"] == "place_explorers" and move["leaders"] == {"p1": key}:
            return move["shares"]
    raise AssertionError(f"no placement on {key}")
