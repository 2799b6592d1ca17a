"""Legendary Expeditions (TIS-LEG): ship cards and explorer events; explorers are refused."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, SERVER, TABLE, IllegalMove
from domain.core.match import create, legal_moves, redact, view
from domain.through_ice_and_snow import RULES
from tests.conformance.harness import play_random_game
from tests.through_ice_and_snow.helpers import NAMES, act, do, draw, pass_all, player, sail, table_game

SHIPS = {"legendary_expeditions": ["ships"]}


def dealt_game(players: int = 2):
    """Investors and cartography dealt in data order, ships dealt: p1 Erebus + Hecla, p2 Cove + Resolute."""
    match, _ = create(RULES, SHIPS, NAMES[:players], TABLE, None)
    node = RULES.chance_node(match.state)
    assert (node.key, node.count, node.visible_to) == ("deal_ship", 2, ("p1",))
    events = do(match, ORGANISER, {"type": "resolve_chance", "outcome": ["ship-erebus", "ship-hecla"]})
    assert "ship-hecla" not in str(redact(match, events[0], "p2"))
    draw(match, "ship-cove", "ship-resolute")
    while RULES.chance_node(match.state) is not None:
        node = RULES.chance_node(match.state)
        draw(match, *node.candidates[: node.count])
    return match


def test_ships_are_dealt_and_kept_in_secret_until_everyone_has_chosen():
    """TIS-LEG-2 / TIS-LEG-3 / TIS-CMD-4: 2 dealt to each, one kept face up, the other back to the box unseen."""
    match = dealt_game()
    moves = legal_moves(match, "p1")
    assert {"type": "choose_legendary_card", "kind": "ship", "card": "ship-hecla"} in moves
    with pytest.raises(IllegalMove) as refused:
        do(match, "p1", {"type": "choose_legendary_card", "kind": "ship", "card": "ship-cove"})
    assert refused.value.rule_id == "TIS-CMD-4"
    do(match, "p1", {"type": "choose_legendary_card", "kind": "ship", "card": "ship-hecla"})
    assert view(match, "p2")["state"]["players"][0]["ship"] is None
    assert view(match, "p2")["state"]["players"][0]["ship_dealt"] == 2
    for index, seat in enumerate(match.seats):
        hero = match.state["players"][index]
        do(match, seat, {"type": "choose_investor", "card": hero["investor_dealt"][0]})
        do(match, seat, {"type": "choose_cartography", "card": hero["carto_dealt"][0]})
    do(match, "p2", {"type": "choose_legendary_card", "kind": "ship", "card": "ship-cove"})
    public = view(match, None)["state"]["players"]
    assert [seat["ship"] for seat in public] == ["ship-hecla", "ship-cove"]
    assert "ship-erebus" not in str(view(match, "p2")) and "ship-erebus" in RULES.secrets(match.state)["p1"]


@pytest.mark.parametrize(("ship", "gained"), [("ship-erebus", {"food": 3}), ("ship-hecla", {"vp": 1}),
                                              ("ship-resolute", {"rifle": 1}), ("ship-enterprise", {"morale": 1})])
def test_a_ship_rewards_each_upgrade_built(ship, gained):
    """TIS-LEG-3 / GAP-14: the ship card's reward on top of the slot bonus (slot 1: none)."""
    match = dealt_game()
    for index, seat in enumerate(match.seats):
        hero = match.state["players"][index]
        do(match, seat, {"type": "choose_investor", "card": hero["investor_dealt"][0]})
        do(match, seat, {"type": "choose_cartography", "card": hero["carto_dealt"][0]})
        do(match, seat, {"type": "choose_legendary_card", "kind": "ship", "card": hero["ship_dealt"][0]})
    sail(match, "E1")
    seat = RULES.to_act(match.state)[0]
    hero = player(match, seat)
    hero.update(ship=ship, wood=5, morale=4)
    before = {key: hero[key] for key in ("food", "vp", "rifle", "morale")}
    act(match, "ship-upgrade-1", "carpenter", {"sailor": 1}, upgrade=2)
    assert {key: hero[key] - before[key] for key in before} == {**dict.fromkeys(before, 0), **gained}


def test_a_tile_not_built_with_the_action_gives_no_reward():
    """TIS-LEG-3: the Epidemic's free tile (TIS-SOLO-EPI-4) is placed, not built."""
    match, _ = create(RULES, {**SHIPS, "scenario": "mysterious_epidemic"}, NAMES[:1], TABLE, None)
    draw(match, "S1")
    do(match, "p1", {"type": "choose_free_upgrade", "upgrade": 2})
    draw(match, "ship-erebus", "ship-hecla")
    assert legal_moves(match, "p1") == [{"type": "choose_legendary_card", "kind": "ship", "card": "ship-erebus"},
                                        {"type": "choose_legendary_card", "kind": "ship", "card": "ship-hecla"}]
    do(match, "p1", {"type": "choose_legendary_card", "kind": "ship", "card": "ship-erebus"})
    hero = player(match, "p1")
    assert (hero["upgrades"], hero["food"], hero["ship"]) == ([2], 25, "ship-erebus")


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [1, 3])
def test_legendary_ships_conform(players, mode):
    assert play_random_game(RULES, players, mode, 41, options=SHIPS).match.ended


# ---------------------------------------------------------------- explorer events

EVENTS = {"legendary_expeditions": ["explorer_events"]}
P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]


def events_game(kept: list[str], players: int = 2):
    """Explorer events dealt in deck order (p1 ev45+ev46, p2 ev47+ev48, p3 ev49+ev50, p4 ev51+ev52), ``kept``
    chosen, the replaced voyage cards the first of each deck."""
    match = table_game(players, P1_LEADS[:players], options=EVENTS)
    for seat, card in zip(match.seats, kept, strict=True):
        do(match, seat, {"type": "choose_legendary_card", "kind": "event", "card": card})
    while RULES.chance_node(match.state) is not None:
        node = RULES.chance_node(match.state)
        draw(match, *node.candidates[: node.count])
    return match


def test_explorer_events_join_their_decks():
    """TIS-LEG-4 / TIS-LEG-5 / GAP-13: one kept per player; per deck as many unseen cards leave as explorer
    events join, so each deck keeps 12 cards; with event 51 kept, a spare sailor per colour is set aside."""
    match = table_game(4, P1_LEADS, options=EVENTS)
    assert match.state["step"] == "choose"
    for seat, card in zip(match.seats, ["ev46", "ev48", "ev50", "ev51"], strict=True):
        do(match, seat, {"type": "choose_legendary_card", "kind": "event", "card": card})
    node = RULES.chance_node(match.state)
    assert (node.key, node.count, node.visible_to) == ("legendary_removal", 2, ())
    draw(match, "ev01", "ev02")
    node = RULES.chance_node(match.state)
    assert (node.key, node.count) == ("legendary_removal", 2)
    draw(match, "ev13", "ev14")
    decks = match.state["decks"]
    assert len(decks["coastal"]) == len(decks["open_sea"]) == 12
    assert {"ev46", "ev50"} <= set(decks["coastal"]) and {"ev48", "ev51"} <= set(decks["open_sea"])
    assert match.state["legendary"]["spare_sailors"] == [0, 1, 2, 3]
    assert "ev45" in RULES.secrets(match.state)["p1"] and "ev45" not in str(view(match, "p2"))


@pytest.mark.parametrize(("card", "crew", "gained"), [
    ("ev45", {"sailor": 3}, {"morale": 3}), ("ev46", {"sailor": 1}, {"vp": 8}),
    ("ev50", {"sailor": 1}, {"morale": 1, "vp": 6})])
def test_explorer_event_actions(card, crew, gained):
    """TIS-LEG-7: 45 morale +1 per crew (1-3), 46 8 VP, 50 morale +1 and 6 VP (1 crew ASSUMED)."""
    match = events_game(["ev45", "ev47"])
    sail(match, "E1")
    match.state["event"] = card
    hero = player(match, "p1")
    hero["morale"] = 3
    before = {key: hero[key] for key in ("morale", "vp")}
    act(match, "event", None, crew)
    assert {key: hero[key] - before[key] for key in before} == {**dict.fromkeys(before, 0), **gained}


def test_exploration_on_foot():
    """TIS-LEG-7 event 52: captain + 0-2 crew; morale +2, 1 VP per pawn placed, the captain included."""
    match = events_game(["ev45", "ev47"])
    sail(match, "E1")
    match.state["event"] = "ev52"
    hero = player(match, "p1")
    hero.update(morale=3, vp=10)
    assert {len(move["crew"]) for move in legal_moves(match, "p1") if move.get("space") == "event"} >= {0, 1, 2}
    act(match, "event", "captain", {"sailor": 2})
    assert (hero["morale"], hero["vp"]) == (5, 13)


def test_sailor_rescue():
    """TIS-LEG-7 event 51 / TIS-LEG-4: morale +2 and the set-aside sailor of the taker's colour, into the sick
    bay."""
    match = events_game(["ev45", "ev47"])
    sail(match, "E1")
    match.state["event"] = "ev51"
    match.state["legendary"]["spare_sailors"] = [0, 1]
    hero = player(match, "p1")
    act(match, "event", None, {"sailor": 1})
    assert (hero["crew"]["sailor"], hero["free"]["sailor"]) == (4, 2)
    assert match.state["legendary"]["spare_sailors"] == [1]


def test_skilled_inuit_hunter():
    """TIS-LEG-7 event 47: an Inuk and the card at the end of the Action phase; then a Hunt with an Inuk placed
    needs 1 rifle less."""
    match = events_game(["ev45", "ev47"])
    sail(match, "E1", draws={"hunting_setup": ["H18", "H01"]})
    match.state["event"] = "ev47"
    hero = player(match, "p1")
    act(match, "event", None, {"sailor": 1})
    pass_all(match)
    assert hero["kept_events"] == ["ev47"] and hero["crew"]["inuk"] == 1
    sail(match, "E3", draws={"hunting_setup": ["H19", "H02"]})
    seat = RULES.to_act(match.state)[0]
    hunter = player(match, seat)
    hunter.update(rifle=1, kept_events=["ev47"])
    hunter["crew"]["inuk"] = hunter["free"]["inuk"] = 1
    hunts = [move for move in legal_moves(match, seat) if move.get("space") == "hunt-1" and move["card"] == "H19"]
    assert hunts and all(move["lead"] == "inuk" or move["crew"].get("inuk") for move in hunts)
    with pytest.raises(IllegalMove) as refused:
        act(match, "hunt-1", "scientist", {"sailor": 1}, card="H19")
    assert refused.value.rule_id == "TIS-LEG-7"
    act(match, "hunt-1", "inuk", {"sailor": 1}, card="H19")


def test_inuit_sled_master():
    """TIS-LEG-7 event 53 kept: Improve Sled with an Inuk alone."""
    match = events_game(["ev45", "ev47"])
    sail(match, "E1")
    hero = player(match, "p1")
    hero["kept_events"] = ["ev53"]
    hero["crew"]["inuk"] = hero["free"]["inuk"] = 1
    act(match, "improve-sled", "inuk", {})
    assert hero["sled"] == 2


def test_spoiled_food_cans():
    """TIS-LEG-7 event 49: every player health -1 with the space effect (Scurvy at 2)."""
    match = table_game(3, P1_LEADS[:3], options=EVENTS)
    for seat, card in zip(match.seats, ["ev45", "ev47", "ev49"], strict=True):
        do(match, seat, {"type": "choose_legendary_card", "kind": "event", "card": card})
    while RULES.chance_node(match.state) is not None:
        node = RULES.chance_node(match.state)
        draw(match, *node.candidates[: node.count])
    for seat in match.seats:
        player(match, seat)["health"] = 4
    sail(match, "E1", draws={"event": ["ev49"]}, decision="sick")
    assert [player(match, seat)["health"] for seat in match.seats] == [2, 2, 2]


def test_giant_iceberg():
    """TIS-LEG-7 event 54: wood -1 (no wood: a crew member to the sick bay), fuel -1 with towing, no band."""
    match = table_game(2, P1_LEADS[:2], options={"legendary_expeditions": ["explorer_events"]})
    match.state["players"][0]["explorer_event_dealt"] = ["ev54", "ev45"]
    do(match, "p1", {"type": "choose_legendary_card", "kind": "event", "card": "ev54"})
    do(match, "p2", {"type": "choose_legendary_card", "kind": "event", "card": "ev47"})
    while RULES.chance_node(match.state) is not None:
        node = RULES.chance_node(match.state)
        draw(match, *node.candidates[: node.count])
    player(match, "p2")["wood"] = 0
    wood = player(match, "p1")["wood"]
    sail(match, "E1", draws={"event": ["ev54"]}, decision="sick")
    assert player(match, "p1")["wood"] == wood - 1
    do(match, "p2", {"type": "choose_sick_crew", "crew": {"captain": 1}})
    sail(match, "E1")
    assert [player(match, seat)["fuel"] for seat in match.seats] == [8, 8]


def test_coastal_exploration():
    """TIS-LEG-7 event 48: the region is charted without VP, then the top coastal card is revealed and applied."""
    match = events_game(["ev45", "ev48"])
    hero = player(match, "p1")
    vp = hero["vp"]
    sail(match, "E1", chance="event")
    draw(match, "ev48")
    assert "Baffin" in match.state["mapped"] and hero["vp"] == vp
    node = RULES.chance_node(match.state)
    assert node.details == {"deck": "coastal"}
    draw(match, "ev08")
    assert match.state["event"] == "ev08" and "ev48" in match.state["discards"]["events"]


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [2, 4])
def test_explorer_events_conform(players, mode):
    options = {"legendary_expeditions": ["ships", "explorer_events"], "inuit_myths": True}
    assert play_random_game(RULES, players, mode, 42, options=options).match.ended
