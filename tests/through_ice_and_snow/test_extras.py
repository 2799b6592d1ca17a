"""The optional components of the base box: extra event cards 25-28, ship upgrades 7-11, whale hunting cards."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, SERVER, TABLE
from domain.core.match import create, legal_moves, redact, view
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.board import drawable
from tests.conformance.harness import play_random_game
from tests.through_ice_and_snow.helpers import NAMES, act, do, draw, player, sail, table_game, turn

P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]
EXTRAS = {"extra_events": [25, 26, 27, 28]}


def test_extra_event_cards_replace_unseen_cards_of_their_deck():
    """TIS-SETUP-7 and spec 2.3: per extra card one card of that deck goes back to the box, seen by nobody."""
    match, _ = create(RULES, EXTRAS, NAMES[:2], TABLE, None)
    node = RULES.chance_node(match.state)
    assert (node.key, node.count, node.visible_to) == ("extra_removal", 2, ())
    assert node.candidates == tuple(f"ev{n:02d}" for n in range(1, 13))
    events = do(match, ORGANISER, {"type": "resolve_chance", "outcome": ["ev03", "ev07"]})
    assert "ev03" not in str(redact(match, events[0], "p1")) and "ev03" not in str(redact(match, events[0], None))
    draw(match, "ev13", "ev14")
    decks = match.state["decks"]
    assert len(decks["coastal"]) == len(decks["open_sea"]) == 12
    assert {"ev26", "ev27"} <= set(decks["coastal"]) and {"ev25", "ev28"} <= set(decks["open_sea"])
    assert "ev03" not in decks["coastal"]
    assert view(match, "p1")["state"]["removed_events"] == 4
    assert view(match, ORGANISER)["state"]["removed_events"] == ["ev03", "ev07", "ev13", "ev14"]


def test_upgrade_supply_follows_the_options():
    """TIS-SETUP-4 and TIS-SETUP-6: 7-11 with all upgrades; the Fishing boat (7) whenever whale cards are used."""
    assert sorted(table_game(2, options={"all_upgrades": True}).state["tiles"], key=int) == [
        str(n) for n in range(1, 12)]
    whales = table_game(2, options={"whale_hunting": True}).state
    assert sorted(whales["tiles"], key=int) == ["1", "2", "3", "4", "5", "6", "7"]
    assert len(whales["decks"]["hunting"]) == 41


def test_whale_cards_need_the_fishing_boat():
    """TIS-ACT-31: cards marked for the Fishing boat need upgrade 7."""
    match = table_game(2, P1_LEADS[:2], options={"whale_hunting": True})
    sail(match, "E1", draws={"hunting_setup": ["H39", "H01"]})
    hero = player(match, "p1")
    hero["rifle"] = 3
    hunts = {move.get("card") for move in legal_moves(match, "p1") if move.get("space") == "hunt-1"}
    assert hunts == {"H01"}
    hero["upgrades"] = [7]
    act(match, "hunt-1", "scientist", {"sailor": 2}, card="H39")
    assert hero["food"] == 25 + 18


@pytest.mark.parametrize(("tile", "vp"), [(10, 6), (11, 3)])
def test_officers_mess_and_meeting_room_score_at_once(tile, vp):
    match = table_game(2, P1_LEADS[:2], options={"all_upgrades": True})
    sail(match, "E1")
    hero = player(match, "p1")
    hero.update(vp=10, wood=5)
    act(match, "ship-upgrade-1", "carpenter", {"sailor": 1}, upgrade=tile)
    assert hero["vp"] == 10 + vp


def test_boiler_pays_wood_instead_of_fuel_once_per_voyage_step():
    """Upgrade 8 / TIS-AMB-7: asked before the loss; the loss is then 1 less."""
    match = table_game(2, P1_LEADS[:2], options={"all_upgrades": True})
    player(match, "p2")["upgrades"] = [8]
    sail(match, "E1", voyage="coastal", decision="boiler")
    assert turn(match) == "p2"
    assert legal_moves(match, "p2") == [{"type": "use_boiler", "use": True}, {"type": "use_boiler", "use": False}]
    do(match, "p2", {"type": "use_boiler", "use": True})
    assert (player(match, "p2")["fuel"], player(match, "p2")["wood"]) == (9, 4)
    assert player(match, "p1")["fuel"] == 8
    assert match.state["boiler_used"] == [1]


def test_mast_upgrade_shows_the_leader_two_cards():
    """Upgrade 9 / TIS-CMD-10: the leader alone sees two; one is the event, the other goes to the bottom."""
    match = table_game(2, P1_LEADS[:2], options={"all_upgrades": True})
    player(match, "p1")["upgrades"] = [9]
    sail(match, "E1", chance="mast")
    node = RULES.chance_node(match.state)
    assert (node.count, node.visible_to) == (2, ("p1",))
    events = do(match, ORGANISER, {"type": "resolve_chance", "outcome": ["ev13", "ev20"]})
    assert "ev20" not in str(redact(match, events[0], "p2"))
    assert RULES.secrets(match.state)["p1"] >= {"ev13", "ev20"}
    assert legal_moves(match, "p1") == [{"type": "mast_choose", "card": "ev13"},
                                        {"type": "mast_choose", "card": "ev20"}]
    do(match, "p1", {"type": "mast_choose", "card": "ev13"})
    assert match.state["event"] == "ev13"
    assert match.state["bottom"]["open_sea"] == ["ev20"]
    assert "ev20" in RULES.secrets(match.state)["p1"] and "ev20" not in str(view(match, "p2"))
    assert view(match, "p1")["state"]["known_events"] == ["ev20"]
    state = match.state
    assert "ev20" not in drawable(state, "open_sea")
    state["decks"]["open_sea"] = ["ev20"]
    assert drawable(state, "open_sea") == ["ev20"]  # the bottom card comes last


def test_damaged_compass_redirects_the_fleet():
    """Event 25 / TIS-AMB-21 / TIS-CMD-12: the player left of the leader may move this round's dynamite to
    another anchor reachable from the previous one; the fleet and card setup follow it."""
    match = table_game(3, P1_LEADS[:3], options=EXTRAS, removed=["ev01", "ev02", "ev13", "ev14"])
    sail(match, "E1", draws={"event": ["ev25"]}, decision="compass")
    assert turn(match) == "p2"
    assert legal_moves(match, "p2") == [{"type": "damaged_compass_redirect", "anchor": "E2"},
                                        {"type": "damaged_compass_redirect", "anchor": None}]
    do(match, "p2", {"type": "damaged_compass_redirect", "anchor": "E2"})
    assert match.state["anchor"] == "E2" and match.state["dynamite_on"] == {"E2": 1}


def test_declining_the_compass_keeps_the_destination():
    match = table_game(3, P1_LEADS[:3], options=EXTRAS, removed=["ev01", "ev02", "ev13", "ev14"])
    sail(match, "E1", draws={"event": ["ev25"]}, decision="compass")
    do(match, "p2", {"type": "damaged_compass_redirect", "anchor": None})
    assert match.state["anchor"] == "E1" and match.state["dynamite_on"] == {"E1": 1}


def test_shoal_of_fish_doubles_ice_fishing():
    """Event 26."""
    match = table_game(2, P1_LEADS[:2], options=EXTRAS)
    sail(match, "E1", voyage="coastal", draws={"event": ["ev26"]})
    food = player(match, "p1")["food"]
    act(match, "ice-fishing", None, {"sailor": 2})
    assert player(match, "p1")["food"] == food + 4


def test_bear_attack_sends_a_non_inuk_crew_member_to_the_sick_bay():
    """Event 27: only owners of 3 rifles or fewer; their choice among non-Inuk crew (TIS-CMD-16)."""
    match = table_game(2, P1_LEADS[:2], options=EXTRAS)
    player(match, "p1")["rifle"] = 4
    player(match, "p2").update(rifle=3)
    player(match, "p2")["crew"]["inuk"] = player(match, "p2")["free"]["inuk"] = 1
    sail(match, "E1", voyage="coastal", draws={"event": ["ev27"]}, decision="sick")
    assert match.state["pending"] == [{"seat": 1, "kind": "sick", "count": 1, "exclude": ["inuk"]}]
    assert {tuple(move["crew"]) for move in legal_moves(match, "p2")} == {("captain",), ("carpenter",),
                                                                          ("scientist",), ("sailor",)}
    do(match, "p2", {"type": "choose_sick_crew", "crew": {"captain": 1}})
    assert player(match, "p2")["free"]["captain"] == 0 and player(match, "p1")["free"]["captain"] == 1


def test_orca_sighting_discards_the_revealed_walrus_cards():
    """Event 28: at the end of Card setup, without replacements."""
    match = table_game(4, P1_LEADS, options=EXTRAS)
    sail(match, "E1", draws={"event": ["ev28"], "hunting_setup": ["H24", "H01", "H25"]})
    assert match.state["revealed"]["hunting"] == ["H01"]
    assert match.state["discards"]["hunting"] == ["H24", "H25"]


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [2, 4])
def test_the_optional_components_conform(players, mode):
    """The generic conformance checks (replay, leaks, legal moves) with every optional base-box component."""
    options = {**EXTRAS, "all_upgrades": True, "whale_hunting": True}
    assert play_random_game(RULES, players, mode, 7, options=options).match.ended
