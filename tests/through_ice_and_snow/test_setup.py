"""Setup (TIS-SETUP-*), the game options (TIS-CMD-1) and the secret setup choices (TIS-CMD-2, TIS-CMD-3)."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, TABLE, IllegalMove
from domain.core.match import create, legal_moves, redact, view
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.actions import space_refusal
from tests.through_ice_and_snow.helpers import NAMES, do, draw, player, table_game


def new(players: int):
    match, _ = create(RULES, {}, NAMES[:players], TABLE, None)
    return match


def test_player_counts():
    """TIS-CMD-1: 2-4 players, or 1 player in a single-player scenario (the Lost Expedition unless named)."""
    with pytest.raises(IllegalMove) as refused:
        create(RULES, {}, [*NAMES, "Jordi"], TABLE, None)
    assert refused.value.code == "invalid_player_count"
    match, _ = create(RULES, {}, NAMES[:1], TABLE, None)
    assert match.state["options"]["scenario"] == "lost_expedition"
    for options, seats in (({"scenario": "lost_expedition"}, 2), ({"scenario": None}, 1)):
        with pytest.raises(IllegalMove) as refused:
            create(RULES, options, NAMES[:seats], TABLE, None)
        assert (refused.value.rule_id, refused.value.field) == ("TIS-CMD-1", "options.scenario")


def test_board_sides_follow_the_player_count():
    """TIS-SETUP-1: the 4-player side has a second Explore and a third Hunt; 2-3 players have one Recycle less."""
    four = table_game(4).state
    three = table_game(3).state
    two = table_game(2).state
    assert space_refusal(four, 0, "explore-2") is None
    assert space_refusal(three, 0, "explore-2").code == "no_such_space"
    assert space_refusal(three, 0, "hunt-3").rule_id == "TIS-SETUP-1"
    assert space_refusal(two, 0, "recycle-wood-2").code == "no_such_space"
    assert space_refusal(three, 0, "recycle-wood-2") is None


def test_table_and_decks_at_the_start():
    """TIS-SETUP-2, TIS-SETUP-3: East side A with the fleet on its start. TIS-SETUP-5, TIS-SETUP-6, TIS-SETUP-8:
    decks drawn from by chance; TIS-SETUP-10: the supply; upgrades 1-6 only."""
    state = new(4).state
    assert state["sections"] == {"E": "A"}
    assert state["anchor"] == "E0"
    assert len(state["decks"]["species"]) == 32
    assert len(state["decks"]["hunting"]) == 38  # whale cards removed (TIS-SETUP-6)
    assert state["decks"]["coastal"] == [f"ev{n:02d}" for n in range(1, 13)]  # TIS-SETUP-7, TIS-AMB-1
    assert state["decks"]["open_sea"] == [f"ev{n:02d}" for n in range(13, 25)]
    assert len(state["decks"]["cartography"]) == 10  # TIS-SETUP-9
    assert sorted(state["tiles"]) == ["1", "2", "3", "4", "5", "6"]  # TIS-SETUP-4
    assert state["supply"]["inuk"] == 15 and state["supply"]["cartography"] == 12  # TIS-SETUP-10
    assert state["supply"]["dynamite"] == 25 - 4 * 3


@pytest.mark.parametrize(("players", "dynamite", "wood", "rifles"), [(2, 4, 3, 3), (3, 3, 3, 4), (4, 3, 3, 4)])
def test_personal_boards(players, dynamite, wood, rifles):
    """TIS-SETUP-11, TIS-SETUP-12, TIS-SETUP-13, TIS-SETUP-14, TIS-SETUP-15: tracks, score and towing tokens,
    resources by player count, dogs on 1-3, three officers and 3 sailors."""
    for hero in new(players).state["players"]:
        assert (hero["vp"], hero["towing"]) == (10, 0)
        assert (hero["food"], hero["health"], hero["morale"], hero["fuel"], hero["sled"], hero["inuit"]) == (
            25, 4, 5, 10, 1, 0)
        assert (hero["dynamite"], hero["wood"], hero["rifle"], hero["dogs"]) == (dynamite, wood, rifles, 3)
        assert hero["crew"] == {"captain": 1, "carpenter": 1, "scientist": 1, "sailor": 3, "inuk": 0}


def test_investor_and_cartography_cards_are_dealt_in_secret():
    """TIS-SETUP-8, TIS-SETUP-16: two of each, drawn by chance and visible to their owner only."""
    match = new(3)
    node = RULES.chance_node(match.state)
    assert (node.key, node.count, node.visible_to) == ("deal_investor", 2, ("p1",))
    assert len(node.candidates) == 11
    events = do(match, ORGANISER, {"type": "resolve_chance", "outcome": ["parliament", "admiralty"]})
    assert "parliament" not in str(redact(match, events[0], "p2"))
    assert "parliament" in str(redact(match, events[0], "p1"))
    assert RULES.chance_node(match.state).candidates.count("parliament") == 0


def test_choosing_investor_and_cartography():
    """TIS-SETUP-16, TIS-SETUP-17, TIS-SETUP-19, TIS-CMD-2, TIS-CMD-3: simultaneous secret choices, then the reveal
    with start bonuses; the rejected cards are never shown."""
    match = new(2)
    draw(match, "lady-franklin", "oxford-university")
    draw(match, "hudson-bay-company", "parliament")
    draw(match, "K1", "K2")
    draw(match, "K3", "K4")
    assert sorted(RULES.to_act(match.state)) == ["p1", "p2"]
    assert {move["card"] for move in legal_moves(match, "p1")} == {"lady-franklin", "oxford-university", "K1", "K2"}
    with pytest.raises(IllegalMove) as refused:
        do(match, "p1", {"type": "choose_investor", "card": "parliament"})
    assert refused.value.rule_id == "TIS-SETUP-16"
    events = do(match, "p1", {"type": "choose_investor", "card": "lady-franklin"})
    assert "lady-franklin" not in str(redact(match, events[0], "p2"))
    with pytest.raises(IllegalMove) as refused:
        do(match, "p1", {"type": "choose_investor", "card": "oxford-university"})
    assert refused.value.code == "already_chosen"
    do(match, "p1", {"type": "choose_cartography", "card": "K2"})
    assert view(match, "p2")["state"]["players"][0]["investor"] is None
    do(match, "p2", {"type": "choose_investor", "card": "hudson-bay-company"})
    do(match, "p2", {"type": "choose_cartography", "card": "K3"})
    public = view(match, None)["state"]["players"]
    assert [seat["investor"] for seat in public] == ["lady-franklin", "hudson-bay-company"]
    assert [seat["carto"] for seat in public] == [None, None]
    assert view(match, "p1")["state"]["players"][0]["carto"] == "K2"
    assert RULES.secrets(match.state) == {"p1": {"oxford-university", "K1", "K2"}, "p2": {"parliament", "K3", "K4"}}
    lady, hudson = player(match, "p1"), player(match, "p2")
    assert (lady["rifle"], lady["food"]) == (4, 35)  # Lady Franklin: 1 rifle, food +10
    assert (hudson["inuit"], hudson["crew"]["inuk"], hudson["wood"]) == (1, 1, 4)  # Hudson Bay: 1 Inuk, 1 wood


def test_most_dynamite_takes_the_helm():
    """TIS-SETUP-18: after the bonuses, the most dynamite leads."""
    match = table_game(3, ["parliament", "admiralty", "oxford-university"])
    assert match.state["helm"] == 0 and match.state["leader"] == 0


def test_a_helm_tie_is_a_chance_draw_among_the_tied():
    """TIS-SETUP-18 (ASSUMED): the tie is settled by a recorded draw among the tied players."""
    match = new(3)
    draw(match, "admiralty", "oxford-university")
    draw(match, "lady-franklin", "felix-booth")
    draw(match, "north-west-company", "royal-society")
    for _ in range(3):
        draw(match, *RULES.chance_node(match.state).candidates[:2])
    for index, seat in enumerate(match.seats):
        hero = match.state["players"][index]
        do(match, seat, {"type": "choose_investor", "card": hero["investor_dealt"][0]})
        do(match, seat, {"type": "choose_cartography", "card": hero["carto_dealt"][0]})
    node = RULES.chance_node(match.state)
    assert (node.key, node.candidates) == ("helm_tie", ("p1", "p2", "p3"))
    draw(match, "p3")
    assert match.state["leader"] == 2


def test_no_move_waits_for_a_tie_option():
    """TIS-CMD-26: no tie is left for a separate choose_tie_option to decide (a helm tie is a recorded draw,
    TIS-SETUP-18; the compass's tie is a choose_destination among the tied anchors, TIS-AMB-18), so the game
    has no such move: it is never offered and is refused as an unknown move type."""
    match = table_game(2)
    seat = RULES.to_act(match.state)[0]
    assert all(move["type"] != "choose_tie_option" for move in legal_moves(match, seat))
    with pytest.raises(IllegalMove) as refused:
        do(match, seat, {"type": "choose_tie_option", "option": 0})
    assert (refused.value.code, refused.value.field) == ("unknown_move_type", "type")
    assert "choose_tie_option" not in refused.value.message.split("expected one of")[1]
