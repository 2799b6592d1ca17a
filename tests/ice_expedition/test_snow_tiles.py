"""The twelve snow tile fronts (ICE-SNOW-1..12), played through ICE-ACT-10 / ICE-CMD-12."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves, submit
from tests.ice_expedition.helpers import CENTRE, act, give_front, moves_of, new_game, open_centre


def game(guilds=("G-ICEW", "G-INCA"), players=2, options=None):
    match = new_game(players, options, picks={"guilds": list(guilds)})
    open_centre(match)
    return match


def play(match, seat, **fields):
    return act(match, seat, {"type": "play_snow_tile", **fields})


def test_white_spiders_move_every_archaeologist_of_a_tile():
    """ICE-SNOW-1: all archaeologists of one tile to one adjacent tile; leaders stay; the tile ends in the bag
    face up (ICE-ACT-10)."""
    match = game()
    state = match.state
    tile = give_front(match, "p1", "F-SPID-1")
    state["tiles"]["3:1:1"]["arch"] = 3
    events = play(match, "p1", tile=tile, **{"from": "3:1:1", "to": "3:2:-1"})
    assert events[0]["data"]["effect"] == "F-SPID"
    assert state["tiles"]["3:2:-1"]["arch"] == 3 and state["tiles"]["3:1:1"]["arch"] == 0
    assert state["bag"][-1]["front"] == "F-SPID-1" and state["bag"][-1]["known_by"] == ["*"]


def test_termites_dig_a_snow_tile_for_free():
    """ICE-SNOW-2: the leader on a snow tile excavates it at cost 0; only with the tile played."""
    match = game()
    state = match.state
    state["leaders"]["p1"] = "4:3:-5"
    tile = give_front(match, "p1", "F-TERM-1")
    ep = state["players"]["p1"]["ep"]
    events = act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": tile})
    assert events[0]["data"]["effect"] == "F-TERM" and state["players"]["p1"]["ep"] == ep
    assert "4:3:-5" not in state["tiles"]


def test_manta_ray_moves_the_leader_anywhere_alone():
    """ICE-SNOW-3: the leader to any standable tile without a Smilodon, archaeologists stay behind."""
    match = game()
    state = match.state
    state["tiles"][CENTRE]["arch"] = 2
    tile = give_front(match, "p1", "F-MANT-1")
    targets = {m["to"] for m in moves_of(match, "p1", "play_snow_tile") if m["tile"] == tile}
    assert "4:-7:3" in targets and "3:1:1" in targets and "2:0:1" not in targets  # fully covered
    assert {m["archaeologists"] for m in moves_of(match, "p1", "play_snow_tile")} == {0}
    play(match, "p1", tile=tile, to="4:-7:3", archaeologists=0)
    assert state["leaders"]["p1"] == "4:-7:3" and state["tiles"][CENTRE]["arch"] == 2


def test_smilodon_guards_a_tile_until_the_placer_next_turn():
    """ICE-SNOW-4: a pawn makes its tile inviolable; it goes back when the placing player's next turn starts."""
    match = game()
    state = match.state
    tile = give_front(match, "p1", "F-SMIL-1")
    play(match, "p1", tile=tile, at="3:1:1")
    assert state["tiles"]["3:1:1"]["smilodon"] == "p1" and state["reserve"]["smilodons"] == 2
    assert not [m for m in moves_of(match, "p1", "move") if m["to"] == "3:1:1"]
    act(match, "p1", {"type": "plan"})
    act(match, "p1", {"type": "end_turn"})
    act(match, "p2", {"type": "plan"})
    assert state["tiles"]["3:1:1"]["smilodon"] == "p1"
    act(match, "p2", {"type": "end_turn"})
    assert state["tiles"]["3:1:1"]["smilodon"] is None and state["reserve"]["smilodons"] == 3


def test_sailboat_places_two_archaeologists_and_gains_rp():
    """ICE-SNOW-5: one on your leader's tile, one on another leader's tile, +1 RP."""
    match = game()
    state = match.state
    state["leaders"]["p2"] = "3:1:1"
    tile = give_front(match, "p1", "F-SAIL-1")
    play(match, "p1", tile=tile, leader="p2")
    assert state["tiles"][CENTRE]["arch"] == 1 and state["tiles"]["3:1:1"]["arch"] == 1
    assert state["players"]["p1"]["rp"] == 1


def test_rope_ignores_evenness():
    """ICE-SNOW-6: during the excavation's placement, any distribution over the tiles below."""
    match = game()
    state = match.state
    state["tiles"][CENTRE]["arch"] = 2
    tile = give_front(match, "p1", "F-ROPE-1")
    act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    assert {"type": "play_snow_tile", "tile": tile} in legal_moves(match, "p1")
    act(match, "p1", {"type": "play_snow_tile", "tile": tile})
    act(match, "p1", {"type": "place_explorers", "shares": [3, 0, 0], "leaders": {"p1": "2:-1:0"}})
    assert state["tiles"]["2:-1:0"]["arch"] == 2 and state["leaders"]["p1"] == "2:-1:0"


def test_wreck_gives_ep_now_or_next_day():
    """ICE-SNOW-7 / ICE-EXP-5 / ICE-EXP-9: +1 EP (cap 7) and +1 RP; the other player gains 1 EP, carried to
    the next day when their day is over."""
    match = game()
    state = match.state
    p1, p2 = state["players"]["p1"], state["players"]["p2"]
    p1["ep"] = 7
    p2["day_over"], p2["ep"] = True, 0
    tile = give_front(match, "p1", "F-WRCK-1")
    play(match, "p1", tile=tile, player="p2")
    assert p1["ep"] == 7 and p1["rp"] == 1 and p2["carried_ep"] == 1 and p2["ep"] == 0


def test_survivors_use_the_board_edge():
    """ICE-SNOW-8 (P5): 2 more archaeologists, the missing below-slots count as places whose explorers go
    home."""
    match = game()
    state = match.state
    edge = "4:-7:3"  # one tile below, two edge places
    state["leaders"]["p1"] = edge
    state["tiles"][edge]["arch"] = 1
    tile = give_front(match, "p1", "F-SURV-1")
    act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    reserve = state["reserve"]["archaeologists"]
    act(match, "p1", {"type": "play_snow_tile", "tile": tile})
    assert state["reserve"]["archaeologists"] == reserve - 2
    moves = moves_of(match, "p1", "place_explorers")
    assert {tuple(m["shares"]) for m in moves} == {(2, 1, 1), (1, 2, 1), (1, 1, 2)}
    below = "3:-6:3"
    act(match, "p1", {"type": "place_explorers", "shares": [2, 1, 1], "leaders": {"p1": below}})
    assert state["tiles"][below]["arch"] == 1 and state["leaders"]["p1"] == below
    assert state["reserve"]["archaeologists"] == reserve


def test_talisman_digs_its_own_type_for_free():
    """ICE-SNOW-9 (C9): the Talisman of the tile's type excavates it at cost 0, even covered by one tile."""
    match = game()
    state = match.state
    state["tiles"]["4:0:1"] = dict(state["tiles"]["4:2:0"], id="T-CLR-98")
    wrong = give_front(match, "p1", "F-TALI-feat")
    tile = give_front(match, "p1", "F-TALI-harmony")
    talismans = [m["tile"] for m in moves_of(match, "p1", "excavate") if m["tile"]]
    assert talismans == [tile] and wrong not in talismans
    act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": tile})
    assert "4:0:1" not in state["tiles"] and state["players"]["p1"]["artifacts"] == ["AS-har-S1-1a"]


def test_charisma_stone_controls_another_leader():
    """ICE-SNOW-10 / ICE-EXP-11: pay 1 RP, move and excavate with another leader this turn."""
    match = game(guilds=("G-INCA", "G-ICEW"))
    state = match.state
    state["leaders"]["p2"] = "3:1:1"
    tile = give_front(match, "p1", "F-CHAR-1")
    play(match, "p1", tile=tile, leader="p2")
    assert state["players"]["p1"]["rp"] == 2
    act(match, "p1", {"type": "move", "leader": "p2", "to": "3:2:-1", "archaeologists": 0})
    assert state["leaders"]["p2"] == "3:2:-1"
    act(match, "p1", {"type": "end_turn"})
    assert state["turn"]["controlled"] == []


def test_charisma_stone_without_rp_is_refused_for_its_rp():
    """ICE-SNOW-10: the stone costs 1 RP; with none it is refused for the RP, naming the tile."""
    match = game(guilds=("G-ICEW", "G-INCA"))
    match.state["leaders"]["p2"] = "3:1:1"
    tile = give_front(match, "p1", "F-CHAR-1")
    assert match.state["players"]["p1"]["rp"] == 0
    with pytest.raises(IllegalMove) as refused:
        submit(match, "p1", {"type": "play_snow_tile", "tile": tile, "leader": "p2"})
    assert (refused.value.code, refused.value.rule_id, refused.value.field) == ("insufficient_rp", "ICE-SNOW-10",
                                                                                 "tile")


def test_explosive_rune_discards_a_tile_unrevealed():
    """ICE-SNOW-11 (AMB-22): a not fully covered tile without a camp goes into the bag, its pieces home;
    with the option only uncovered tiles qualify."""
    match = game()
    state = match.state
    state["tiles"]["3:1:1"]["arch"] = 2
    state["reserve"]["archaeologists"] -= 2
    tile = give_front(match, "p1", "F-RUNE-1")
    targets = {m["at"] for m in moves_of(match, "p1", "play_snow_tile") if m["tile"] == tile}
    assert "3:1:1" in targets and "2:0:1" not in targets
    play(match, "p1", tile=tile, at="3:1:1")
    assert "3:1:1" not in state["tiles"] and state["reserve"]["archaeologists"] == 50
    strict = game(options={"rune_targets": "uncovered"})
    tile = give_front(strict, "p1", "F-RUNE-1")
    targets = {m["at"] for m in moves_of(strict, "p1", "play_snow_tile") if m["tile"] == tile}
    assert CENTRE in targets and "3:1:1" not in targets


def test_storm_whistle_places_a_snowflake_and_moves_covered_explorers():
    """ICE-SNOW-12 / ICE-RND-9 / ICE-RND-4: snowflakes come from the pool in order; a tile they fully cover
    sends its explorers to an adjacent tile chosen by the whistle player; the FAQ forbids going higher
    than the snow layer (no such slot exists)."""
    match = game()
    state = match.state
    state["tiles"][CENTRE]["arch"] = 2
    state["reserve"]["archaeologists"] -= 2
    for number, slot in enumerate(("4:-1:0", "4:0:1", "4:1:-1"), start=1):
        tile = give_front(match, "p1", f"F-WHIS-{number}")
        slots = {m["slot"] for m in moves_of(match, "p1", "play_snow_tile") if m["tile"] == tile}
        assert slot in slots and all(s.startswith(("2:", "3:", "4:")) for s in slots)
        play(match, "p1", tile=tile, slot=slot)
        assert state["tiles"][slot]["id"] == f"SNF-0{number}"
    assert len(state["snowflakes"]) == 7
    assert state["script"][0]["kind"] == "relocate" and state["script"][0]["slot"] == CENTRE
    choices = moves_of(match, "p1", "relocate")
    assert len(choices) > 1 and {m["explorer"] for m in choices} == {"p1"}  # leaders first, one at a time
    first, second = choices[0]["to"], choices[1]["to"]
    act(match, "p1", {"type": "relocate", "explorer": "p1", "to": first})
    assert {m["explorer"] for m in moves_of(match, "p1", "relocate")} == {"archaeologist"}
    act(match, "p1", {"type": "relocate", "explorer": "archaeologist", "to": first})
    act(match, "p1", {"type": "relocate", "explorer": "archaeologist", "to": second})
    assert state["leaders"]["p1"] == first
    assert state["tiles"][first]["arch"] == 1 and state["tiles"][second]["arch"] == 1
    assert state["tiles"][CENTRE]["arch"] == 0 and state["script"] == []


def test_storm_whistle_falls_back_on_the_bag():
    """ICE-SNOW-12 / ICE-LOG-9 / ICE-RND-10: with the pool empty a snow tile comes out of the discard bag
    (artifacts stay in); with no snow tile there the effect fizzles."""
    match = game()
    state = match.state
    state["snowflakes"] = []
    state["bag"] = [{"id": "A@x", "kind": "artifact", "layer": 3, "terrain": None, "face": None, "front": None,
                     "known_by": []},
                    {"id": "T-NUN-05", "kind": "snow", "layer": None, "terrain": "T-NUN", "face": None, "front": None,
                     "known_by": []}]
    tile = give_front(match, "p1", "F-WHIS-1")
    play(match, "p1", tile=tile, slot="4:0:1")
    assert state["tiles"]["4:0:1"]["terrain"] == "T-NUN" and [i["id"] for i in state["bag"]] == ["A@x", tile]
    state["bag"] = state["bag"][:1]
    other = give_front(match, "p1", "F-WHIS-2")
    play(match, "p1", tile=other, slot="4:1:-1")
    assert "4:1:-1" not in state["tiles"]
