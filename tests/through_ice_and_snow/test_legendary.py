"""Legendary Expeditions (TIS-LEG): the ship cards; explorers and explorer events are refused."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, SERVER, TABLE, IllegalMove
from domain.core.match import create, legal_moves, redact, view
from domain.through_ice_and_snow import RULES
from tests.conformance.harness import play_random_game
from tests.through_ice_and_snow.play import NAMES, act, do, draw, player, sail

SHIPS = {"legendary_expeditions": ["ships"]}


@pytest.mark.parametrize(("card_type", "rule_id"), [("explorers", "TIS-LEG-6"), ("explorer_events", "TIS-LEG-7")])
def test_card_types_not_implemented_are_refused(card_type, rule_id):
    """TIS-LEG-1: the players choose the card types; explorers and explorer events do not exist yet."""
    with pytest.raises(IllegalMove) as refused:
        create(RULES, {"legendary_expeditions": ["ships", card_type]}, NAMES[:2], TABLE, None)
    assert (refused.value.code, refused.value.rule_id) == ("not_implemented", rule_id)


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
