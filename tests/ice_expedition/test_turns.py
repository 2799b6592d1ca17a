"""Setup, days, turns, EP and the paid actions (ICE-SETUP, ICE-DAY, ICE-PREP, ICE-EXP, ICE-ACT, ICE-CMD)."""
from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.core.match import legal_moves, submit
from domain.ice_expedition import RULES
from tests.ice_expedition.helpers import act, clear_board, moves_of, new_game

CENTRE = "3:0:0"


def refused(match, seat, command):
    with pytest.raises(IllegalMove) as error:
        submit(match, seat, command)
    return error.value


def surface_game(players=2, options=None, picks=None):
    """A game whose snow tiles around surface (0,0) are gone, p1's leader standing on it."""
    match = new_game(players, options, picks)
    clear_board(match)
    state = match.state
    for key in ("4:-1:0", "4:0:1", "4:1:-1"):
        state["tiles"].pop(key)
    state["tiles"][CENTRE]["face"] = state["artifacts_left"]["3"].pop(0)
    state["leaders"]["p1"] = CENTRE
    return match


def test_setup_builds_the_board_and_the_hands():
    """ICE-SETUP-1, ICE-SETUP-2, ICE-SETUP-3, ICE-SETUP-5, ICE-SETUP-8, ICE-SETUP-9, ICE-RND-1, ICE-RND-3 and
    ICE-RND-4: slots filled, Encampments and Tunnels manned, leaders off the board, snowflakes aside, reserves
    full minus what setup placed, first player drawn."""
    match = new_game(3)
    state = match.state
    assert len(state["tiles"]) == 12 + 19 + 27 + 37 + 48
    snow = [t for t in state["tiles"].values() if t["kind"] == "snow"]
    camps = [t for t in snow if t["camp"]]
    assert len(camps) == 3 and all(t["terrain"] == "T-ENC" and t["arch"] == 1 for t in camps)
    assert sum(t["arch"] for t in snow if t["terrain"] == "T-TUN") == 8
    assert all(t["rift"] and len(t["rift"]) == 2 for t in snow if t["terrain"] == "T-RIF")
    assert state["reserve"] == {"archaeologists": 50 - 11, "camps": 2, "smilodons": 3}
    assert set(state["leaders"].values()) == {None}
    assert len(state["snowflakes"]) == 10 and state["bag"] == []
    assert state["first"] == "p1" and state["active"] == "p1" and state["day"] == 1
    assert all(t["face"] is None for t in state["tiles"].values())  # nothing is known yet


def test_guilds_and_starting_rp():
    """ICE-SETUP-4 / ICE-RND-2: guilds dealt in seat order with their starting RP; none in First Steps;
    ICE-CMD-1: chosen in seat order with the guild-choice option."""
    match = new_game(2, picks={"guilds": ["G-INCA", "G-ICEW"]})
    assert [(p["guild"], p["rp"]) for p in match.state["players"].values()] == [("G-INCA", 3), ("G-ICEW", 0)]
    first_steps = new_game(2, {"first_steps": True}, picks={"guilds": ["G-INCA", "G-ALCH"]})
    assert [p["rp"] for p in first_steps.state["players"].values()] == [0, 0]
    assert first_steps.state["decrees"] == ["D-A1", "D-PR", "D-A2"]  # ICE-SETUP-6 First Steps
    chosen = new_game(2, {"guild_allocation": "choice"})
    assert [p["guild"] for p in chosen.state["players"].values()] == ["G-CRYO", "G-INCA"]


def test_each_player_keeps_one_of_three_requests():
    """ICE-SETUP-7 / ICE-CMD-2 / ICE-RND-7: draw 3, keep 1, the other 2 face up on the discard pile."""
    from domain.core import TABLE
    from domain.core.match import create
    from tests.ice_expedition.helpers import settle

    match, _ = create(RULES, {}, ["A", "B"], TABLE, None)
    settle(match)
    assert RULES.to_act(match.state) == ["p1"]
    assert moves_of(match, "p1", "keep_request") == [
        {"type": "keep_request", "card": c} for c in ("R01", "R02", "R03")]
    act(match, "p1", {"type": "keep_request", "card": "R02"})
    assert match.state["players"]["p1"]["requests"] == ["R02"]
    assert match.state["requests"]["discard"] == ["R01", "R03"]


def test_turn_spends_one_or_two_ep_and_overwork_allows_three():
    """ICE-EXP-2 / ICE-EXP-4 / ICE-ACT-6 / ICE-CMD-8: at most 2 EP a turn, 3 after Overwork (1 RP)."""
    match = surface_game(picks={"guilds": ["G-INCA", "G-ICEW"]})
    state = match.state
    act(match, "p1", {"type": "plan"})
    act(match, "p1", {"type": "check_registry"})
    act(match, "p1", {"type": "keep_request", "card": state["players"]["p1"]["drawn"][0]})
    assert state["turn"]["spent"] == 2
    error = refused(match, "p1", {"type": "resend"})
    assert (error.code, error.rule_id, error.field) == ("turn_ep_maximum", "ICE-EXP-2", "type")
    act(match, "p1", {"type": "overwork"})
    assert state["players"]["p1"]["rp"] == 2
    assert {"type": "resend"} in legal_moves(match, "p1")
    assert refused(match, "p1", {"type": "overwork"}).rule_id == "ICE-ACT-6"  # once per turn


def covered_centre(ep: int):
    """p1 (Incandescents, 3 RP) alone on surface (0,0) covered by exactly one snow tile: the dig costs 3 (C12)."""
    match = surface_game(picks={"guilds": ["G-INCA", "G-ICEW"]})
    state = match.state
    state["tiles"]["4:-1:0"] = dict(state["tiles"]["4:-2:2"], id="T-CLR-99", arch=0, camp=False)
    state["players"]["p1"]["ep"] = ep
    return match


def test_an_unaffordable_dig_names_the_limit_it_breaks():
    """ICE-EXP-2 / ICE-EXP-4 / ICE-EXC-2: with 6 EP a 3-EP dig is refused by the turn's 2-EP maximum, not by
    the EP, and Overwork lifts it; with 2 EP the same dig is refused by the EP, Overwork or not."""
    dig = {"type": "excavate", "leader": "p1", "cryo": False, "tile": None}
    match = covered_centre(6)
    error = refused(match, "p1", dig)
    assert (error.code, error.rule_id, error.field) == ("turn_ep_maximum", "ICE-EXP-2", "type")
    assert match.state["players"]["p1"]["ep"] == 6
    act(match, "p1", {"type": "overwork"})
    assert act(match, "p1", dig)[0]["data"]["cost"] == 3
    assert match.state["players"]["p1"]["ep"] == 3
    match = covered_centre(2)
    act(match, "p1", {"type": "overwork"})
    error = refused(match, "p1", dig)
    assert (error.code, error.rule_id, error.field) == ("insufficient_ep", "ICE-EXP-4", "type")


def test_every_paid_action_names_the_limit_it_breaks():
    """ICE-EXP-4 / ICE-EXP-2: a 1-EP action at 0 EP is short of EP; after 2 EP spent it breaks the turn's
    maximum; ICE-ACT-6: Overwork without RP is short of RP, a second one breaks its limit."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    state = match.state
    move = moves_of(match, "p1", "move")[0]
    state["players"]["p1"]["ep"] = 0
    for command in ({"type": "plan"}, {"type": "check_registry"}, {"type": "resend"}, move):
        assert (refused(match, "p1", command).code, refused(match, "p1", command).rule_id) == \
            ("insufficient_ep", "ICE-EXP-4")
    error = refused(match, "p1", {"type": "overwork"})
    assert (error.code, error.rule_id, error.field) == ("insufficient_rp", "ICE-ACT-6", "type")
    state["players"]["p1"].update(ep=5, rp=2)
    act(match, "p1", {"type": "plan"})
    act(match, "p1", {"type": "check_registry"})
    act(match, "p1", {"type": "keep_request", "card": state["players"]["p1"]["drawn"][0]})
    assert moves_of(match, "p1", "move") == []
    leader_move = {"type": "move", "leader": "p1", "to": "3:1:1", "archaeologists": 0}
    assert refused(match, "p1", leader_move).rule_id == "ICE-EXP-2"
    act(match, "p1", {"type": "overwork"})
    error = refused(match, "p1", {"type": "overwork"})
    assert (error.code, error.rule_id) == ("limit_used", "ICE-ACT-6")
    act(match, "p1", leader_move)


def test_a_field_a_move_does_not_have_is_refused_by_name():
    """The rules accept exactly the moves they offer; one with a field added is refused naming that field."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    move = moves_of(match, "p1", "move")[0]
    error = refused(match, "p1", {**move, "camp": True})
    assert (error.code, error.field) == ("unknown_field", "camp")
    act(match, "p1", move)


def test_overwork_twice_with_the_option():
    """AMB-4 option OVERWORK_MAX_PER_TURN = 2."""
    match = surface_game(options={"overwork_max_per_turn": 2}, picks={"guilds": ["G-INCA", "G-ICEW"]})
    act(match, "p1", {"type": "overwork"})
    act(match, "p1", {"type": "overwork"})
    assert match.state["players"]["p1"]["rp"] == 1


def test_end_turn_needs_one_ep_spent():
    """ICE-EXP-6 / ICE-CMD-17: no End turn before spending; ICE-EXP-3: free actions do not count."""
    match = surface_game(picks={"guilds": ["G-INCA", "G-ICEW"]})
    assert refused(match, "p1", {"type": "end_turn"}).rule_id == "ICE-EXP-6"
    act(match, "p1", {"type": "overwork"})
    assert refused(match, "p1", {"type": "end_turn"}).rule_id == "ICE-EXP-6"
    act(match, "p1", {"type": "plan"})
    act(match, "p1", {"type": "end_turn"})
    assert match.state["active"] == "p2"  # ICE-EXP-1: clockwise


def test_days_end_and_the_next_day_begins():
    """ICE-DAY-1, ICE-DAY-2, ICE-DAY-3, ICE-DAY-4, ICE-PREP-1, ICE-PREP-2, ICE-PREP-3, ICE-EXP-8, ICE-CMD-18 and
    ICE-LOG-1: a voluntary End day loses the EP, the day ends once every player ended theirs, the marker
    passes, a logbook card is revealed (none on day 1), EP are refreshed with the plan token."""
    match = surface_game(picks={"guilds": ["G-INCA", "G-ICEW"]})
    state = match.state
    assert state["logbook"]["revealed"] == []
    act(match, "p1", {"type": "plan"})
    act(match, "p1", {"type": "end_day"})
    assert state["players"]["p1"]["day_over"] and state["players"]["p1"]["ep"] == 0
    assert state["active"] == "p2"
    act(match, "p2", {"type": "end_day"})
    assert state["day"] == 2 and state["first"] == "p2" and state["active"] == "p2"
    assert state["logbook"]["revealed"] == ["L-1"]
    assert state["players"]["p1"]["ep"] == 6 and state["players"]["p2"]["ep"] == 5


def test_running_out_of_ep_sends_then_ends_the_day():
    """ICE-EXP-7 / ICE-EXP-9 / ICE-ACT-9 / ICE-CMD-11: at 0 EP the turn's end is the Send step, then no
    more turns that day."""
    match = surface_game(picks={"guilds": ["G-INCA", "G-ICEW"]})
    state = match.state
    p1 = state["players"]["p1"]
    p1["artifacts"] = ["AD-fea-S1-2a", "AS-fea-S2-1a", "AS-pri-1", "AM-har-S1-2a"]
    p1["ep"] = 1
    act(match, "p1", {"type": "plan"})
    act(match, "p1", {"type": "end_turn"})
    assert RULES.to_act(state) == ["p1"] and state["script"][0]["kind"] == "send"
    for art in ("AD-fea-S1-2a", "AS-fea-S2-1a", "AS-pri-1"):
        act(match, "p1", {"type": "send_to_city", "artifact": art})
    assert p1["rp"] == 3 + 2 + 1 + 1  # S1: Anima-2, Anima-1, prismatic Anima-1 = 4 RP
    assert p1["day_over"] and state["active"] == "p2"  # S3: a 4th artifact the same day is not offered
    assert p1["artifacts"] == ["AM-har-S1-2a"]


def test_resend_allows_a_fourth_artifact_and_ends_the_day():
    """ICE-ACT-8 / ICE-CMD-10: Resend (1 EP) ends the turn and day at once, Send step limit 4 (S2: 4 x
    Anima-2 = 8 RP)."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    state = match.state
    p1 = state["players"]["p1"]
    arts = ["AD-fea-S1-2a", "AD-fea-S2-2a", "AD-fea-S3-2a", "AD-nob-S1-2a", "AD-nob-S2-2a"]
    p1["artifacts"] = list(arts)
    act(match, "p1", {"type": "resend"})
    assert p1["ep"] == 0
    for art in arts[:4]:
        act(match, "p1", {"type": "send_to_city", "artifact": art})
    assert p1["rp"] == 8 and p1["day_over"]


def test_sending_nothing_is_legal():
    """ICE-ACT-9 (S4): 0 artifacts sent, 0 RP."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    match.state["players"]["p1"]["artifacts"] = ["AS-fea-S1-1a"]
    act(match, "p1", {"type": "end_day"})
    act(match, "p1", {"type": "stop_sending"})
    assert match.state["players"]["p1"]["rp"] == 0 and match.state["players"]["p1"]["city"] == []


def test_move_takes_up_to_three_archaeologists():
    """ICE-ACT-1 / ICE-CMD-3 / ICE-GEO-4: 0-3 archaeologists from the leader's tile; not onto a fully
    covered tile; not across a Rift edge (ICE-GEO-7); not onto a Smilodon (ICE-SNOW-4)."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    state = match.state
    state["tiles"][CENTRE]["arch"] = 4
    counts = {m["archaeologists"] for m in moves_of(match, "p1", "move") if m["to"] == "3:1:1"}
    assert counts == {0, 1, 2, 3}
    assert refused(match, "p1", {"type": "move", "leader": "p1", "to": "3:1:1", "archaeologists": 4}).rule_id \
        == "ICE-ACT-1"
    assert refused(match, "p1", {"type": "move", "leader": "p1", "to": "2:0:1", "archaeologists": 0}).rule_id \
        == "ICE-GEO-4"
    assert refused(match, "p1", {"type": "move", "leader": "p1", "to": "3:3:3", "archaeologists": 0}).rule_id \
        == "ICE-GEO-3"
    state["tiles"]["3:1:1"]["smilodon"] = "p2"
    assert refused(match, "p1", {"type": "move", "leader": "p1", "to": "3:1:1", "archaeologists": 0}).rule_id \
        == "ICE-SNOW-4"
    state["tiles"][CENTRE]["rift"] = [1, 4]
    assert refused(match, "p1", {"type": "move", "leader": "p1", "to": "3:-1:-1", "archaeologists": 0}).rule_id \
        == "ICE-GEO-7"
    act(match, "p1", {"type": "move", "leader": "p1", "to": "3:2:-1", "archaeologists": 3})
    assert state["tiles"]["3:2:-1"]["arch"] == 3 and state["tiles"][CENTRE]["arch"] == 1


def test_set_up_camp():
    """ICE-ACT-3 / ICE-CMD-5: a camp from the reserve on the leader's tile or an adjacent one (the leader
    goes along); never on a tile with a camp (FAQ)."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    state = match.state
    act(match, "p1", {"type": "set_up_camp", "to": "3:1:1", "archaeologists": 0})
    assert state["tiles"]["3:1:1"]["camp"] and state["leaders"]["p1"] == "3:1:1"
    assert state["reserve"]["camps"] == 4
    assert not [m for m in moves_of(match, "p1", "set_up_camp") if m["to"] == "3:1:1"]
    error = refused(match, "p1", {"type": "set_up_camp", "to": "3:1:1", "archaeologists": 0})
    assert (error.code, error.rule_id, error.field) == ("illegal_target", "ICE-ACT-3", "to")
    state["reserve"]["camps"] = 0
    error = refused(match, "p1", {"type": "set_up_camp", "to": "3:1:1", "archaeologists": 0})
    assert (error.code, error.rule_id) == ("reserve_empty", "ICE-ACT-3")


def test_recruit():
    """ICE-ACT-4 / ICE-CMD-6: an archaeologist from the reserve, or the leader, onto a camp; not with an
    empty reserve (FAQ)."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    state = match.state
    state["tiles"]["3:1:1"]["camp"] = True
    act(match, "p1", {"type": "recruit", "kind": "archaeologist", "camp": "3:1:1", "archaeologists": 0})
    assert state["tiles"]["3:1:1"]["arch"] == 1
    state["reserve"]["archaeologists"] = 0
    error = refused(match, "p1", {"type": "recruit", "kind": "archaeologist", "camp": "3:1:1", "archaeologists": 0})
    assert (error.code, error.rule_id, error.field) == ("reserve_empty", "ICE-ACT-4", "kind")
    act(match, "p1", {"type": "recruit", "kind": "leader", "camp": "3:1:1", "archaeologists": 0})
    assert state["leaders"]["p1"] == "3:1:1"


def test_check_the_registry_reshuffles_an_empty_deck():
    """ICE-ACT-5 / ICE-CMD-7 / ICE-RND-6: an empty deck is rebuilt from the discard pile, also mid-draw."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    requests = match.state["requests"]
    requests["discard"] = [c for c in requests["deck"] if c not in ("R49", "R50")]
    requests["deck"] = ["R49", "R50"]
    act(match, "p1", {"type": "check_registry"})
    drawn = match.state["players"]["p1"]["drawn"]
    assert drawn[:2] == ["R49", "R50"] and len(drawn) == 3
    act(match, "p1", {"type": "keep_request", "card": "R50"})
    assert "R50" in match.state["players"]["p1"]["requests"]
    requests["deck"], requests["discard"] = [], []
    error = refused(match, "p1", {"type": "check_registry"})
    assert (error.code, error.rule_id) == ("deck_empty", "ICE-ACT-5")


def test_plan_once_a_day():
    """ICE-ACT-7 / ICE-CMD-9: one plan token a day, +1 EP the next day."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    act(match, "p1", {"type": "plan"})
    assert refused(match, "p1", {"type": "plan"}).rule_id == "ICE-ACT-7"


def test_excavation_refusals():
    """ICE-EXC-1 / ICE-CMD-4 / ICE-ACT-2: covered by 2 tiles (C10) or a Smilodon: no excavation."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    state = match.state
    state["leaders"]["p1"] = "3:1:1"
    error = refused(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    assert error.rule_id == "ICE-EXC-1"
    state["leaders"]["p1"] = CENTRE
    state["tiles"][CENTRE]["smilodon"] = "p2"
    error = refused(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    assert error.rule_id == "ICE-SNOW-4"


def test_excavation_placement_with_a_smilodon_below():
    """ICE-EXC-4 (P4) / ICE-EXC-5: 5 explorers spread 2, 2, 1; the share on a Smilodon tile goes home;
    the artifact goes to the guild board (ICE-EXC-3)."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    state = match.state
    state["tiles"][CENTRE]["arch"] = 4
    smilodon = "2:0:1"
    state["tiles"][smilodon]["smilodon"] = "logbook"
    face = state["tiles"][CENTRE]["face"]
    act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    assert state["players"]["p1"]["artifacts"] == [face]
    below = ["2:-1:0", "2:0:1", "2:1:-1"]
    moves = moves_of(match, "p1", "place_explorers")
    assert {tuple(m["shares"]) for m in moves} == {(2, 2, 1), (2, 1, 2), (1, 2, 2)}
    reserve = state["reserve"]["archaeologists"]
    act(match, "p1", {"type": "place_explorers", "shares": [2, 2, 1], "leaders": {"p1": "2:-1:0"}})
    assert [state["tiles"][k]["arch"] for k in below] == [1, 0, 1]
    assert state["reserve"]["archaeologists"] == reserve + 2
    assert state["leaders"]["p1"] == "2:-1:0"


def test_a_dug_camp_never_moves_onto_a_building():
    """ICE-EXC-3 step 6 / ICE-ACT-3: the camp of a dug tile goes only where Set up camp could put one; below
    a deep artifact lie only buildings, so its camp goes back to the reserve (FAQ: no valid tile)."""
    from domain.ice_expedition.geometry import parse_slot, slot_key

    match = new_game(2, picks={"guilds": ["G-ICEW", "G-INCA"]})
    clear_board(match)
    state = match.state
    deep = (1, 0, 0)
    for slot in RULES.geo.above[deep]:
        state["tiles"].pop(slot_key(slot))
    key = slot_key(deep)
    state["tiles"][key].update(face=state["artifacts_left"]["1"].pop(0), camp=True, arch=1)
    state["reserve"]["camps"] -= 1
    state["leaders"]["p1"] = key
    camps = state["reserve"]["camps"]
    below = [slot_key(s) for s in RULES.geo.tiles_below(set(map(parse_slot, state["tiles"])), deep)]
    assert len(below) == 3 and {state["tiles"][k]["kind"] for k in below} == {"building"}
    act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    act(match, "p1", moves_of(match, "p1", "place_explorers")[0])
    assert not moves_of(match, "p1", "move_camp")
    assert state["reserve"]["camps"] == camps + 1
    assert not any(state["tiles"][k]["camp"] for k in below)


def test_excavation_discards_a_single_cover_unrevealed():
    """ICE-EXC-3 step 2 and ICE-EXC-6: the one covering tile is discarded into the bag unrevealed; the
    collapse check runs after the placement."""
    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    state = match.state
    state["tiles"]["4:-1:0"] = dict(state["tiles"]["4:-2:2"], id="T-CLR-99", arch=1)
    state["leaders"]["p1"] = CENTRE
    state["players"]["p1"]["ep"] = 5
    state["tiles"][CENTRE]["arch"] = 1
    events = act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    assert events[0]["data"]["cost"] == 2  # C12 with an archaeologist along: 3 + 1 - 2
    assert "4:-1:0" not in state["tiles"]
    assert [item["id"] for item in state["bag"]][:1] == ["T-CLR-99"]
    assert state["bag"][0]["front"] is None  # discarded unrevealed


def test_hand_limit_discards_first():
    """ICE-EXP-10 / ICE-CMD-15: a 5th snow tile makes the player discard one of the 4 held first, into the
    bag unrevealed; HAND_DISCARD_INCOMING also offers the new one (AMB-24)."""
    for incoming_allowed, expected in ((False, 4), (True, 5)):
        match = new_game(2, {"hand_discard_incoming": incoming_allowed}, picks={"guilds": ["G-ICEW", "G-INCA"]})
        state = match.state
        key = "4:0:1"
        state["leaders"]["p1"] = key
        state["tiles"][key]["arch"] = 3
        hand = state["players"]["p1"]["hand"]
        for n in range(4):
            hand.append({"id": f"H{n}", "terrain": "T-CLR", "front": state["fronts_left"].pop(), "known_by": ["p1"]})
        act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
        assert state["script"][0]["kind"] == "discard_snow"
        assert hand[-1]["front"] is None  # the new tile is not seen before the discard
        assert len(moves_of(match, "p1", "discard_snow_tile")) == expected
        act(match, "p1", {"type": "discard_snow_tile", "tile": "H0"})
        assert len(hand) == 4 and state["bag"][-1]["id"] == "H0"
        assert hand[-1]["front"] is not None


def test_leader_counts_for_cost_option_in_play():
    """AMB-2 option: without leaders counting, C5 costs 3 instead of 2."""
    for option, cost in ((True, 2), (False, 3)):
        match = new_game(2, {"leader_counts_for_cost": option}, picks={"guilds": ["G-INCA", "G-ICEW"]})
        match.state["leaders"]["p1"] = "4:3:-5"
        match.state["tiles"]["4:3:-5"].update(terrain="T-CLR", arch=0, camp=False)
        if cost == 3:
            act(match, "p1", {"type": "overwork"})
        events = act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
        assert events[0]["data"]["cost"] == cost


def test_artifact_effects_are_refused_without_data():
    """ICE-ACT-12 / ICE-CMD-14: no artifact effect exists until its data is supplied (GAP-13)."""
    match = new_game(2)
    assert refused(match, "p1", {"type": "use_artifact_effect", "artifact_type": "feat"}).rule_id == "ICE-ACT-12"


def test_explorers_may_stand_on_an_uncovered_building():
    """ICE-EXC-5: explorers stand on any tile not fully covered, buildings included; a building is never dug
    (ICE-EXC-1) and takes no camp (ICE-ACT-3)."""
    from domain.ice_expedition.board import Board

    match = surface_game(picks={"guilds": ["G-ICEW", "G-INCA"]})
    state = match.state
    building = "0:0:1"
    for above in RULES.geo.above[(0, 0, 1)]:
        state["tiles"].pop(f"{above[0]}:{above[1]}:{above[2]}", None)
    state["tiles"][building]["face"] = "B-01"
    board = Board(state, RULES.geo)
    beside = next(k for k in board.adjacent(building) if board.standable(k))
    state["leaders"]["p1"] = beside
    assert {"type": "move", "leader": "p1", "to": building, "archaeologists": 0} in moves_of(match, "p1", "move")
    act(match, "p1", {"type": "move", "leader": "p1", "to": building, "archaeologists": 0})
    assert state["leaders"]["p1"] == building
    assert not moves_of(match, "p1", "excavate")
    assert not [m for m in moves_of(match, "p1", "set_up_camp") if m["to"] == building]
    error = refused(match, "p1", {"type": "set_up_camp", "to": building, "archaeologists": 0})
    assert (error.code, error.rule_id, error.field) == ("illegal_target", "ICE-ACT-3", "to")
