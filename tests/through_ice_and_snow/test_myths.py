"""Inuit Myths (TIS-MYTH): creature cards on islands, their added requirements and their own actions."""
from __future__ import annotations

import pytest

from domain.core import SERVER, TABLE, IllegalMove
from domain.core.match import legal_moves, view
from domain.through_ice_and_snow import RULES
from domain.through_ice_and_snow.board import join_inuit
from domain.through_ice_and_snow.tracks import lower_track
from tests.conformance.harness import play_random_game
from tests.through_ice_and_snow.helpers import act, pass_all, player, sail, table_game, turn

P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]
MYTHS = {"inuit_myths": True}


def with_creature(number: int | None, players: int = 2, anchor: str = "E1"):
    """A game in its Action phase after sailing to an island (Baffin) where creature ``number`` was revealed."""
    match = table_game(players, P1_LEADS[:players], options=MYTHS)
    draws = {"creature": [f"cr{number}"]} if number else {}
    sail(match, anchor, draws=draws)
    return match


def refused(match, space, lead=None, crew=None, **extra) -> IllegalMove:
    with pytest.raises(IllegalMove) as error:
        act(match, space, lead, crew, **extra)
    return error.value


def spaces(match) -> set:
    return {move.get("space") for move in legal_moves(match, turn(match))}


def test_setup():
    """TIS-MYTH-1: 8 creature cards face down; upgrade 14 only with this module."""
    state = table_game(2, options=MYTHS).state
    assert state["decks"]["creature"] == [f"cr{n}" for n in range(37, 45)]
    assert state["tiles"]["14"] == 2 and "14" not in table_game(2).state["tiles"]
    assert state["myths"] == {"token": None, "active": [], "shaman": []}


def test_a_creature_is_revealed_on_reaching_a_new_island():
    """TIS-MYTH-2: the token goes to the island region and a card is revealed; not again on the same island,
    not off the islands."""
    match = table_game(2, P1_LEADS[:2], options=MYTHS)
    sail(match, "E1", chance="creature")
    node = RULES.chance_node(match.state)
    assert (node.key, node.count, node.visible_to, len(node.candidates)) == ("creature", 1, None, 8)
    assert match.state["myths"]["token"] == "Baffin"
    sail(match, "E1", draws={"creature": ["cr44"]})
    assert match.state["myths"]["active"] == [44] and view(match, None)["state"]["myths"]["active"] == [44]
    state = match.state
    state["anchor"] = "C1"  # Boothia is no island
    state["parts"].table("steps")["card_setup"](state)
    assert state["chance"]["key"] == "hunting_setup"
    assert state["myths"]["token"] == "Baffin" and len(state["decks"]["creature"]) == 7


def test_no_card_when_the_token_is_already_there():
    match = table_game(2, P1_LEADS[:2], options=MYTHS)
    match.state["myths"]["token"] = "Baffin"
    sail(match, "E1")
    assert len(match.state["decks"]["creature"]) == 8


def test_ijiraq_holds_every_inuk_until_an_inukshuk_is_built():
    """Card 37: the Inuit go onto the card (not fed, cannot act); Inuit received go there too; Build an
    inukshuk (2 crew) sends them and the 2 crew to the sick bays and the card leaves play."""
    match = table_game(2, P1_LEADS[:2], options=MYTHS)
    hero = player(match, "p1")
    hero["crew"]["inuk"] = hero["free"]["inuk"] = 2
    sail(match, "E1", draws={"creature": ["cr37"]})
    assert (hero["crew"]["inuk"], hero["free"]["inuk"], hero["ijiraq"]) == (0, 0, 2)
    join_inuit(match.state, hero, 1)
    assert (hero["crew"]["inuk"], hero["ijiraq"], hero["inuit"]) == (0, 3, 1)
    act(match, "build-inukshuk", None, {"sailor": 2})
    assert (hero["crew"]["inuk"], hero["free"]["inuk"], hero["ijiraq"]) == (3, 0, 0)
    assert match.state["myths"]["active"] == []
    pass_all(match)
    assert hero["free"]["inuk"] == 3


def test_the_curse_cylinder_brings_scurvy_and_death_one_space_early():
    """Card 38 / TIS-MYTH-4 / TIS-AMB-6: the curse sits one space below health and triggers at its own space."""
    match = with_creature(38)
    hero = player(match, "p1")
    assert hero["cursed"] and player(match, "p2")["cursed"]
    hero.update(health=4, vp=20)
    lower_track(match.state, 0, "health", 1, effects=True)  # health 3, curse 2: Scurvy
    assert match.state["pending"][0]["kind"] == "sick"
    match.state["pending"] = []
    hero["health"] = 2
    lower_track(match.state, 0, "health", 1, effects=True)  # curse 0: Death, both move up
    assert (hero["health"], hero["vp"]) == (2, 15)


def test_visiting_the_shaman_lifts_the_curse():
    """Card 38's action: 2 crew (ASSUMED), once per player; the card leaves when everyone has visited."""
    match = with_creature(38)
    act(match, "visit-shaman", None, {"sailor": 2})
    assert not player(match, "p1")["cursed"] and match.state["myths"]["active"] == [38]
    act(match, "visit-shaman", None, {"sailor": 1, "captain": 1})
    assert match.state["myths"]["active"] == []
    assert refused(match, "visit-shaman", None, {"sailor": 1}).rule_id == "TIS-MYTH-3"


def test_sedna_adds_a_crew_member_to_carpenter_actions():
    """Card 39: one more crew with the carpenter, counted for nothing; TIS-AMB-13: not with an Inuk in the
    slot."""
    match = with_creature(39, 3)
    hero = player(match, "p1")
    hero.update(fuel=8, wood=0)
    act(match, "recycle-wood-1", "carpenter", {"sailor": 2})
    assert hero["wood"] == 2  # 3 placed, 1 of them for Sedna
    other = player(match, "p2")
    other["crew"]["inuk"] = other["free"]["inuk"] = 1
    act(match, "improve-sled", "inuk", {"sailor": 1})
    assert other["sled"] == 2


def test_a_carpenter_action_one_crew_short_for_sedna_is_refused_with_her_rule():
    """TIS-MYTH-3: the refusal names the creature's added crew; a crew short of the space's own requirement
    is still refused with TIS-ACT-3."""
    match = with_creature(39, 3)
    player(match, "p1").update(fuel=8, wood=0)
    error = refused(match, "recycle-wood-1", "carpenter", {})
    assert (error.rule_id, error.field) == ("TIS-MYTH-3", "crew")
    assert refused(match, "recycle-wood-1", "carpenter", {"sailor": 99}).rule_id == "TIS-ACT-3"
    assert refused(match, "recycle-wood-1", "captain", {"sailor": 1}).rule_id == "TIS-ACT-3"


@pytest.mark.parametrize(("rifles", "dynamite", "paid"), [(4, 3, 1), (5, 3, 0)])
def test_tunnit(rifles, dynamite, paid):
    """Card 40: captain actions also cost 1 dynamite, unless 5 rifles are owned."""
    match = with_creature(40)
    hero = player(match, "p1")
    hero.update(rifle=rifles, dynamite=dynamite)
    act(match, "explore-1", "captain", {"sailor": 1})
    assert hero["dynamite"] == dynamite - paid


def test_tunnit_without_dynamite_refuses_captain_actions_only():
    match = with_creature(40)
    hero = player(match, "p1")
    hero.update(rifle=4, dynamite=0)
    hero["crew"]["inuk"] = hero["free"]["inuk"] = 1
    assert "explore-1" not in spaces(match)
    assert refused(match, "explore-1", "captain", {"sailor": 1}).rule_id == "TIS-MYTH-3"
    visits = [move for move in legal_moves(match, "p1") if move.get("space") == "visit-inuit"]
    assert {move["lead"] for move in visits} == {"inuk"}  # TIS-AMB-13: with the Inuk, no captain is used
    act(match, "visit-inuit", "inuk", {"sailor": 2})


def test_amarok():
    """Card 41: captain actions also lower food by 4; with less food they cannot be taken."""
    match = with_creature(41)
    hero = player(match, "p1")
    hero["food"] = 3
    assert refused(match, "explore-1", "captain", {"sailor": 1}).rule_id == "TIS-MYTH-3"
    hero["food"] = 10
    act(match, "explore-1", "captain", {"sailor": 1})
    assert hero["food"] == 6


def test_mahaha():
    """Card 42: scientist actions also cost one resource of the player's choice (``creature_payment``)."""
    match = with_creature(42)
    hero = player(match, "p1")
    hero.update(wood=1, dynamite=1, rifle=0, dogs=0)
    experiments = [move for move in legal_moves(match, "p1") if move.get("space") == "experiment"]
    assert {move["creature_payment"] for move in experiments} == {"dynamite"}  # the wood pays the Experiment
    error = refused(match, "experiment", "scientist", {"sailor": 2}, creature_payment="wood")
    assert (error.rule_id, error.field) == ("TIS-MYTH-3", "creature_payment")
    assert refused(match, "experiment", "scientist", {"sailor": 2}).rule_id == "TIS-MYTH-3"
    act(match, "experiment", "scientist", {"sailor": 2}, creature_payment="dynamite")
    assert (hero["wood"], hero["dynamite"]) == (0, 1)


def test_inupasugjuk():
    """Card 43: scientist actions lower health by 1 without Scurvy."""
    match = with_creature(43)
    hero = player(match, "p1")
    hero.update(health=3, wood=2)
    act(match, "experiment", "scientist", {"sailor": 2})
    assert hero["health"] == 2 and not match.state["pending"]


def test_taqriaqsuit():
    """Card 44: an action with only 1 or 2 crew also lowers morale by 1, without Mutiny."""
    match = with_creature(44)
    hero = player(match, "p1")
    hero["morale"] = 5
    act(match, "explore-1", "captain", {"sailor": 1})
    assert hero["morale"] == 5 + 2 - 1
    other = player(match, "p2")
    other["morale"] = 5
    act(match, "ice-fishing", None, {"sailor": 2})
    assert other["morale"] == 4
    act(match, "ice-fishing", None, {"sailor": 2, "carpenter": 1})
    assert hero["morale"] == 6


def test_the_ritual_room_protects_from_39_to_43_only():
    """Upgrade 14."""
    match = with_creature(41)
    hero = player(match, "p1")
    hero.update(food=10, upgrades=[14])
    act(match, "explore-1", "captain", {"sailor": 1})
    assert hero["food"] == 10
    match = with_creature(44)
    hero = player(match, "p1")
    hero.update(morale=5, upgrades=[14])
    act(match, "explore-1", "captain", {"sailor": 1})
    assert hero["morale"] == 6


def test_round_creatures_leave_at_cleanup():
    match = with_creature(41)
    player(match, "p1")["food"] = 30
    player(match, "p2")["food"] = 30
    pass_all(match)
    assert match.state["myths"]["active"] == []


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_inuit_myths_conforms(players, mode):
    assert play_random_game(RULES, players, mode, 31, options=MYTHS).match.ended
