"""Crew transfers, ship and sled movement, ports and ice, tokens (NWP-ACT-5 to NWP-ACT-9, NWP-GEO-5 to -9)."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves
from tests.northwest_passage.helpers import event_of, play, put, started, vessel


def moves_of(match, kind, seat="p1"):
    return [move for move in legal_moves(match, seat) if move["type"] == kind]


def test_crew_move_to_the_sled_keep_their_row_and_the_sled_appears_with_the_ship():
    """NWP-ACT-5 / NWP-CMD-6 / NWP-COMP-20 / NWP-COMP-22 (A17): the ship pays, the sled starts in Greenland."""
    match = started(2)
    assert len(moves_of(match, "transfer_crew")) == 7 * 2 - 1
    play(match, "p1", {"type": "transfer_crew", "direction": "to_sled", "from_available": 3, "from_resting": 1})
    ship, sled = match.state["players"]["p1"]["ship"], match.state["players"]["p1"]["sled"]
    assert (ship["available"], ship["resting"]) == (3, 0)
    assert (sled["at"], sled["available"], sled["resting"]) == ("G", 3, 1)
    assert not sled["returned"]


def test_a_transfer_names_no_vessel_to_pay():
    """NWP-ACT-5 (A7): the vessel the crew leave pays, so a ``pay_from`` would mean nothing and is refused."""
    match = started(2)
    transfer = {"type": "transfer_crew", "direction": "to_sled", "from_available": 3, "from_resting": 1}
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {**transfer, "pay_from": "ship"})
    assert (error.value.code, error.value.field) == ("unknown_field", "pay_from")
    play(match, "p1", transfer)


def test_crew_return_to_the_ship_only_on_the_same_tile_and_the_empty_sled_leaves_the_board():
    """NWP-ACT-5 / NWP-COMP-22: sled to ship needs one tile; with every crewman aboard the ship the sled is removed."""
    match = started(2)
    put(match, "S02#1", 11, 4)
    put(match, "S02#2", 10, 4)
    vessel(match, "p1", "ship", "S02#1", 4)
    vessel(match, "p1", "sled", "S02#2", 3)
    assert not moves_of(match, "transfer_crew")
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "transfer_crew", "direction": "to_ship", "from_available": 2, "from_resting": 1})
    assert error.value.rule_id == "NWP-ACT-5"
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "transfer_crew", "direction": "to_sled", "from_available": 1, "from_resting": 0})
    assert error.value.rule_id == "NWP-ACT-5"
    play(match, "p1", {"type": "move_sled", "to": "S02#1"})
    play(match, "p1", {"type": "transfer_crew", "direction": "to_ship", "from_available": 0, "from_resting": 3})
    ship, sled = match.state["players"]["p1"]["ship"], match.state["players"]["p1"]["sled"]
    assert (ship["available"], ship["resting"]) == (4, 3)
    assert sled["at"] is None


def test_a_transfer_moves_at_least_one_crewman_that_is_there():
    """NWP-ACT-5: n1 + n2 >= 1, and no more than the rows hold after paying."""
    match = started(2)
    for counts in ((0, 0), (7, 0), (0, 2), (-1, 2)):
        with pytest.raises(IllegalMove) as error:
            play(match, "p1", {"type": "transfer_crew", "direction": "to_sled", "from_available": counts[0],
                               "from_resting": counts[1]})
        assert error.value.rule_id == "NWP-ACT-5"


def test_the_ship_sails_only_by_sea():
    """NWP-ACT-6 / NWP-CMD-7 / NWP-GEO-6 / NWP-GEO-7: a sea point on the shared border; land coasts block."""
    match = started(2)
    put(match, "S03#1", 11, 3, rotation=90)
    put(match, "S01#1", 11, 5)
    assert [move["to"] for move in moves_of(match, "move_ship")] == ["S01#1"]
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "move_ship", "to": "S03#1"})
    assert error.value.rule_id == "NWP-ACT-6"
    events = play(match, "p1", {"type": "move_ship", "to": "S01#1"})
    assert event_of(events, "vessel_moved") == {"vessel": "ship", "from": "G", "to": "S01#1", "cost": 1,
                                                "pay_from": "ship"}
    assert match.state["players"]["p1"]["ship"]["at"] == "S01#1"


def test_tiles_touching_only_at_a_corner_are_not_adjacent():
    """NWP-GEO-5 / NWP-GEO-8: positions are tiles; a shared corner gives no route."""
    match = started(2)
    put(match, "S01#1", 5, 5)
    put(match, "S01#2", 6, 6)
    vessel(match, "p1", "ship", "S01#1", 7)
    assert moves_of(match, "move_ship") == []


def test_v9_ice_stops_ships_and_carries_sleds():
    """NWP-COMP-8 / NWP-GEO-9 (V9): round 4 on T3 freezes rows 0-5; no ship enters Greenland from there, a sled can."""
    match = started(2)
    put(match, "S01#1", 11, 4)
    vessel(match, "p1", "sled", "S01#1", 2)
    vessel(match, "p1", "ship", "S01#1", 5)
    assert moves_of(match, "move_sled") == []
    match.state["sun"] = 3
    assert [move["to"] for move in moves_of(match, "move_sled")] == ["G"]
    assert moves_of(match, "move_ship") == []
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "move_ship", "to": "G"})
    assert error.value.rule_id == "NWP-ACT-6" and error.value.code == "frozen_in"


def test_a_frozen_in_ship_still_pays_for_other_actions():
    """NWP-ACT-6 (A16): only movement is forbidden."""
    match = started(2)
    put(match, "S01#1", 5, 1)
    vessel(match, "p1", "ship", "S01#1", 7)
    match.state["sun"] = 1
    assert moves_of(match, "move_ship") == []
    play(match, "p1", {"type": "draw_tile", "source": "S01", "pay_from": "ship"})


def test_the_sled_needs_land_or_ice_on_both_sides():
    """NWP-ACT-7 / NWP-CMD-8 / NWP-GEO-6: unfrozen sea cannot be crossed; two frozen tiles can."""
    match = started(2)
    put(match, "S02#1", 5, 3)
    put(match, "S01#1", 6, 3)
    put(match, "S01#2", 7, 3)
    vessel(match, "p1", "sled", "S01#1", 3)
    assert [move["to"] for move in moves_of(match, "move_sled")] == []
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "move_sled", "to": "S01#2"})
    assert error.value.rule_id == "NWP-ACT-7"
    match.state["sun"] = 2
    assert [move["to"] for move in moves_of(match, "move_sled")] == ["S01#2", "S02#1"]
    play(match, "p1", {"type": "move_sled", "to": "S01#2"})
    assert match.state["players"]["p1"]["sled"]["available"] == 2


def test_a_sled_moves_over_a_shared_land_point():
    """NWP-GEO-6: one land point on the shared border is a land route, even along a coast."""
    match = started(2)
    put(match, "S05#1", 5, 5)
    put(match, "S01#1", 6, 5)
    put(match, "S05#2", 5, 4, rotation=270)
    vessel(match, "p1", "sled", "S05#1", 1)
    assert [move["to"] for move in moves_of(match, "move_sled")] == ["S05#2"]


@pytest.mark.parametrize(("tile", "x", "kind", "fame", "cost"), [
    ("L01#2", 0, "explore", 3, 3),
    ("L08#2", 4, "explore", 2, 3),
    ("L02#2", 2, "discover", 6, 2),
    ("L05#2", 8, "discover", 2, 2),
])
def test_v5_token_fame_by_zone(tile, x, kind, fame, cost):
    """NWP-ACT-8 / NWP-ACT-9 / NWP-CMD-9 / NWP-CMD-10 / NWP-COMP-2 / NWP-SCORE-1 (V5): multiplier x 1 or x 2."""
    match = started(2)
    put(match, tile, x, 5)
    vessel(match, "p1", "ship", tile, 7)
    [token_id] = [t for t in match.state["tokens"] if t.startswith(tile)]
    assert {"type": kind, "token_id": token_id, "pay_from": "ship"} in legal_moves(match, "p1")
    events = play(match, "p1", {"type": kind, "token_id": token_id, "pay_from": "ship"})
    claimed = event_of(events, "token_claimed")
    assert (claimed["fame"], claimed["cost"]) == (fame, cost)
    player = match.state["players"]["p1"]
    assert player["fame_by"]["NWP-SCORE-1"] == fame
    assert player["tokens"][match.state["tokens"][token_id]["kind"]] == 1
    assert match.state["tokens"][token_id]["owner"] == "p1"


def test_a_token_is_claimed_from_its_own_tile_with_the_right_action():
    """NWP-ACT-8 / NWP-ACT-9: the paying vessel stands on the token's tile; Inuit are discovered, not explored."""
    match = started(2)
    put(match, "L02#2", 2, 5)
    put(match, "S02#1", 2, 4)
    vessel(match, "p1", "sled", "S02#1", 7)
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "discover", "token_id": "L02#2:inuit", "pay_from": "sled"})
    assert error.value.rule_id == "NWP-ACT-9"
    vessel(match, "p1", "sled", "L02#2", 7)
    with pytest.raises(IllegalMove) as error:
        play(match, "p1", {"type": "explore", "token_id": "L02#2:inuit", "pay_from": "sled"})
    assert error.value.rule_id == "NWP-ACT-8"
    play(match, "p1", {"type": "discover", "token_id": "L02#2:inuit", "pay_from": "sled"})
