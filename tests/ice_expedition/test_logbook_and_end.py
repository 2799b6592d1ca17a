"""Logbook events (ICE-LOG), game end and final scoring (ICE-END), chance and secrets (ICE-RND)."""
from __future__ import annotations

from domain.core.match import legal_moves, view
from domain.ice_expedition import RULES
from domain.ice_expedition.flow import Flow
from domain.ice_expedition.logbook import logbook_steps
from domain.ice_expedition.script import advance
from tests.ice_expedition.helpers import act, clear_board, give_front, moves_of, new_game, settle


def run_card(match, *events):
    """Reveal a logbook card made of ``events`` as the day's preparation would (ICE-PREP-2)."""
    flow = Flow(RULES, match.state)
    flow.push(*logbook_steps(flow, {"id": "test", "events": list(events)}))
    advance(flow)
    settle(match)


def game(players=3):
    match = new_game(players, picks={"guilds": ["G-INCA", "G-ICEW", "G-CRYO", "G-NAVI", "G-ALCH"][:players]})
    clear_board(match)
    return match


def visible_prismatics(match, keys):
    for n, key in enumerate(keys):
        match.state["tiles"][key]["face"] = f"AS-pri-{n + 1}"
        for above in ("4:-1:0", "4:0:1", "4:1:-1", "4:2:-3", "4:1:2", "4:-2:2", "4:0:-2", "4:-2:-1"):
            match.state["tiles"].pop(above, None)


def test_archaeologists_on_prismatics_with_a_short_reserve():
    """ICE-LOG-E1 / ICE-LOG-3 / ICE-LOG-4: one archaeologist on each visible prismatic; when short, the first
    player picks one tile at a time until the reserve is empty; none with an empty reserve."""
    match = game()
    state = match.state
    keys = ["3:0:0", "3:1:1", "3:-1:2"]
    visible_prismatics(match, keys)
    state["reserve"]["archaeologists"] = 2
    run_card(match, {"primitive": "ICE-LOG-E1"})
    assert RULES.to_act(state) == [state["first"]]
    assert {m["at"] for m in moves_of(match, "p1", "choose_tile")} == set(keys)
    act(match, "p1", {"type": "choose_tile", "at": "3:1:1"})
    act(match, "p1", {"type": "choose_tile", "at": "3:0:0"})
    assert [state["tiles"][k]["arch"] for k in keys] == [1, 1, 0] and state["reserve"]["archaeologists"] == 0
    run_card(match, {"primitive": "ICE-LOG-E1"})
    assert [state["tiles"][k]["arch"] for k in keys] == [1, 1, 0]


def test_smilodon_attack_with_ties():
    """ICE-LOG-E2 / ICE-LOG-5 / ICE-LOG-6 / ICE-DAY-4: Smilodons on every tile tied for most explorers when
    pawns suffice, else the first player picks; they leave at the end of the day."""
    match = game()
    state = match.state
    for key in ("4:0:1", "4:2:0", "4:-7:3", "4:7:-4"):
        state["tiles"][key]["arch"] = 2
    run_card(match, {"primitive": "ICE-LOG-E2"})
    assert state["script"][0]["kind"] == "log_smilodon" and state["script"][0]["left"] == 3
    for key in ("4:0:1", "4:2:0", "4:-7:3"):
        act(match, "p1", {"type": "choose_tile", "at": key})
    assert state["reserve"]["smilodons"] == 0 and state["tiles"]["4:7:-4"]["smilodon"] is None
    for seat in ("p1", "p2", "p3"):
        act(match, seat, {"type": "end_day"})
    assert state["reserve"]["smilodons"] == 3


def test_everyone_draws_clockwise_from_the_first_player():
    """ICE-LOG-E3 / ICE-LOG-8 / ICE-RND-7: one request each, in order from the first player."""
    match = game()
    state = match.state
    state["first"] = "p2"
    before = {seat: list(p["requests"]) for seat, p in state["players"].items()}
    run_card(match, {"primitive": "ICE-LOG-E3", "n": 1, "what": "request"})
    drawn = {seat: [c for c in p["requests"] if c not in before[seat]] for seat, p in state["players"].items()}
    assert drawn == {"p2": ["R10"], "p3": ["R11"], "p1": ["R12"]}  # R01-R09 went at setup


def test_snowfall_and_an_empty_pool():
    """ICE-LOG-E4 / ICE-LOG-9: the first player places a snowflake as with the Storm Whistle; with the pool
    empty a tile comes from the bag; with nothing to draw nothing happens."""
    match = game()
    state = match.state
    for key in ("4:-1:0", "4:0:1"):
        state["tiles"].pop(key)
    run_card(match, {"primitive": "ICE-LOG-E4", "n": 1})
    slots = {m["slot"] for m in moves_of(match, "p1", "place_snowflake")}
    assert {"4:-1:0", "4:0:1"} <= slots
    act(match, "p1", {"type": "place_snowflake", "slot": "4:0:1"})
    assert state["tiles"]["4:0:1"]["id"] == "SNF-01"
    state["snowflakes"] = []
    run_card(match, {"primitive": "ICE-LOG-E4", "n": 1})
    assert RULES.to_act(state) == ["p1"] and state["script"] == []


def test_archaeologists_join_each_leader():
    """ICE-LOG-E5 / ICE-LOG-2 / ICE-LOG-9: clockwise from the first player, N archaeologists on each leader's
    tile while the reserve lasts; a leader off the board changes nothing (the exchange)."""
    match = game()
    state = match.state
    state["leaders"].update(p1="4:0:1", p2="4:2:0", p3=None)
    state["first"] = "p2"
    state["reserve"]["archaeologists"] = 3
    run_card(match, {"primitive": "ICE-LOG-E5", "n": 2})
    assert state["tiles"]["4:2:0"]["arch"] == 2 and state["tiles"]["4:0:1"]["arch"] == 1
    run_card(match, {"primitive": "ICE-LOG-E6"})
    assert state["reserve"]["archaeologists"] == 0


def test_revealing_a_building_ends_the_game_after_the_day():
    """ICE-END-1 / ICE-END-2 / ICE-END-6 / ICE-RND-3: an uncovered building is revealed by a chance node and
    triggers the end; the day is finished, no new day starts; the building does nothing else."""
    match = game(2)
    state = match.state
    building = "0:0:1"
    for above in RULES.geo.above[(0, 0, 1)]:
        state["tiles"].pop(f"{above[0]}:{above[1]}:{above[2]}")
    flow = Flow(RULES, state)
    flow.after_board_change()
    advance(flow)
    settle(match)
    assert state["end_triggered"] and state["tiles"][building]["face"] == "B-01"
    act(match, "p1", {"type": "end_day"})
    assert not RULES.is_over(state)
    act(match, "p2", {"type": "end_day"})
    assert RULES.is_over(state) and state["day"] == 1


def test_the_game_ends_after_the_last_day():
    """ICE-END-3 / ICE-DAY-5: after day MAX_DAYS (8) the game is over."""
    match = game(2)
    for _ in range(8):
        assert not RULES.is_over(match.state)
        first = match.state["first"]
        for seat in (first, "p2" if first == "p1" else "p1"):
            act(match, seat, {"type": "end_day"})
    assert RULES.is_over(match.state) and match.state["day"] == 8


def test_final_score_sheet():
    """ICE-END-4 / ICE-END-5 / ICE-REQ-2: RP held + best request assignment + decrees; the sheet names the
    artifacts that paid each request; tied players share a rank."""
    match = game(2)
    state = match.state
    state["decrees"] = ["D-REQ", "D-A1", "D-DIST"]
    state["players"]["p1"].update(rp=3, requests=["R18"], city=["AS-har-S1-1a", "AM-phi-S1-2a"])
    state["players"]["p2"].update(rp=8, requests=[], city=[])
    sheet = RULES.final_score(state)
    assert RULES.data.requests["R18"]["types"] == ["harmony", "philosophy"]
    assert sheet["totals"] == {"p1": 3 + 4 + 2 + 1 + 2, "p2": 8}
    assert sheet["requests"]["p1"] == [{"card": "R18", "artifacts": ["AS-har-S1-1a", "AM-phi-S1-2a"], "points": 4}]
    assert sheet["ranking"] == [{"rank": 1, "seats": ["p1"]}, {"rank": 2, "seats": ["p2"]}]
    assert sheet["tie_breaks"] == []  # no tie, so no tie-break line
    p1_lines = [(line["rule"], line["points"]) for line in sheet["lines"] if line["seat"] == "p1"]
    assert p1_lines == [("ICE-END-4", 3), ("ICE-REQ-K-SET2", 4), ("ICE-DEC-4", 2), ("ICE-DEC-1", 1), ("ICE-DEC-6", 2)]
    state["players"]["p2"]["rp"] = 12
    tied = RULES.final_score(state)
    assert tied["ranking"] == [{"rank": 1, "seats": ["p1", "p2"]}]
    assert tied["tie_breaks"] == [{"rule": "ICE-END-5", "seats": ["p1", "p2"],
                                   "detail": "p1, p2 tied on 12 RP: they share the victory"}]


def test_a_tie_below_the_top_shares_that_rank_only():
    """ICE-END-5: totals 1, 0, 0: one winner, and the two tied on 0 share rank 2; totals 1, 0, 2: no tie-break line."""
    match = game(3)
    state = match.state
    state["decrees"] = []
    for seat, rp in (("p1", 1), ("p2", 0), ("p3", 0)):
        state["players"][seat].update(rp=rp, requests=[], city=[])
    sheet = RULES.final_score(state)
    assert sheet["ranking"] == [{"rank": 1, "seats": ["p1"]}, {"rank": 2, "seats": ["p2", "p3"]}]
    assert sheet["tie_breaks"] == [{"rule": "ICE-END-5", "seats": ["p2", "p3"],
                                    "detail": "p2, p3 tied on 0 RP: they share rank 2"}]
    state["players"]["p3"]["rp"] = 2
    assert RULES.final_score(state)["tie_breaks"] == []


def test_hidden_fronts_and_requests_stay_with_their_owner():
    """ICE-RND-7 / ICE-RND-9: a dug snow tile's front is drawn for its new owner only; request cards in hand
    are seen by their owner; both are listed as that seat's secrets."""
    match = game(2)
    state = match.state
    state["leaders"]["p1"] = "4:0:1"
    state["tiles"]["4:0:1"].update(arch=3, terrain="T-CLR")
    events = act(match, "p1", {"type": "excavate", "leader": "p1", "cryo": False, "tile": None})
    front_event = next(e for e in events if e["type"] == "chance_resolved" and "secret" in e)
    assert front_event["secret_to"] == ["p1"]
    front = state["players"]["p1"]["hand"][0]["front"]
    card = state["players"]["p1"]["requests"][0]
    assert {front, card} <= RULES.secrets(state)["p1"]
    assert front not in str(view(match, "p2")) and card not in str(view(match, "p2"))
    assert front in str(view(match, "p1")) and card in str(view(match, "p1"))
    assert front not in str(legal_moves(match, "p2"))


def test_the_commands_listed_by_the_spec():
    """ICE-CMD-12 / ICE-CMD-13 / ICE-CMD-16: snow tiles, guild abilities and pending decisions are commands
    of the seat the game waits for."""
    match = game(2)
    tile = give_front(match, "p1", "F-WRCK-1")
    assert {"type": "play_snow_tile", "tile": tile, "player": "p2"} in legal_moves(match, "p1")
    assert legal_moves(match, "p2") == []


def test_decrees_are_drawn_in_public():
    """ICE-RND-5 / ICE-SETUP-6: outside First Steps, 3 of the decree deck are drawn by a public chance node."""
    match = new_game(2, picks={"decrees": ["D-SH3", "D-REQ", "D-TYP-oblivion"]})
    assert match.state["decrees"] == ["D-SH3", "D-REQ", "D-TYP-oblivion"]
    assert "D-SH3" in str(view(match, None))


def test_shuffled_logbook_is_drawn_each_day():
    """ICE-RND-8 / ICE-PREP-2: with the shuffled logbook option, each day's card is a public chance draw."""
    match = new_game(2, {"logbook_order": "shuffled"}, picks={"logbook": ["L-5"]})
    act(match, "p1", {"type": "end_day"})
    act(match, "p2", {"type": "end_day"}, picks={"logbook": ["L-5"]})
    assert match.state["logbook"]["revealed"] == ["L-5"]


def test_options_default_to_the_spec_and_are_recorded():
    """AMB-2, AMB-3, AMB-4, AMB-13, AMB-22, AMB-24: every alternative reading is an option whose default is
    the spec's, written into the game's first event."""
    from domain.core import TABLE
    from domain.core.match import create

    _, events = create(RULES, {}, ["A", "B"], TABLE, None)
    options = events[0]["data"]["options"]
    assert options["excavate_cap_stage"] == "gross" and options["excavate_base_cost"] == 3
    assert options["leader_counts_for_cost"] and options["camp_and_nunatak_stack"]
    assert options["overwork_max_per_turn"] == 1 and not options["hand_discard_incoming"]
    assert options["rune_targets"] == "not_fully_covered" and options["shape_combinations"] == "disjoint"
    assert set(events[0]["data"]["data_versions"]) == {"params", "board", "tiles", "guilds", "cards"}
