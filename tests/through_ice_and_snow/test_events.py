"""The 24 voyage event cards of the base decks (spec 2.3): immediate effects and extra action spaces."""
from __future__ import annotations

import pytest

from domain.core.match import legal_moves
from tests.through_ice_and_snow.helpers import act, do, pass_all, player, sail, table_game, turn

P1_LEADS = ["parliament", "admiralty", "lady-franklin", "oxford-university"]


def revealed(card: str, setup=None, **sail_options):
    """A 4-player game whose first voyage reveals ``card``; ``setup`` edits the players before the voyage."""
    match = table_game(4, P1_LEADS)
    if setup:
        for hero in match.state["players"]:
            setup(hero)
    deck = "coastal" if int(card[2:]) <= 12 else "open_sea"
    sail(match, "E1", voyage=deck, draws={"event": [card]}, **sail_options)
    return match


def tracks(match, key):
    return [hero[key] for hero in match.state["players"]]


def test_event_decks_are_data_per_game_mode():
    """TIS-AMB-1: multiplayer uses 1-12 coastal and 13-24 open-sea (events.json, decks.multiplayer)."""
    match = table_game(2)
    assert match.state["decks"]["coastal"][0] == "ev01" and match.state["decks"]["open_sea"][-1] == "ev24"


def test_aurora_and_good_weather():
    """Events 1 and 3: morale +1 / fuel +1 for everyone."""
    match = revealed("ev01")
    assert tracks(match, "morale") == [6, 6, 6, 6]  # 5, -1 attrition, +1 fuel band 8-10, +1 Aurora
    match = revealed("ev03")
    assert tracks(match, "fuel") == [9, 9, 9, 9]


@pytest.mark.parametrize(("card", "loss"), [("ev02", 1), ("ev06", 2), ("ev14", 1), ("ev15", 2)])
def test_temperature_drop_and_harsh_winter(card, loss):
    """Events 2, 6, 14, 15: fuel loss with towing, no band (TIS-AMB-20)."""
    match = revealed(card, lambda hero: hero.update(fuel=5))
    voyage_cost = 2 if card in ("ev02", "ev06") else 1
    assert tracks(match, "fuel") == [5 - voyage_cost - loss] * 4
    assert tracks(match, "morale") == [4] * 4


def test_freezing_wind_forbids_explore_at_sled_one():
    """Event 4 / TV-3: sled 1 counts as 0 this round: Explore cannot be taken."""
    match = revealed("ev04")
    assert not [move for move in legal_moves(match, turn(match)) if move.get("space") == "explore-1"]
    player(match, turn(match))["sled"] = 2
    assert [move for move in legal_moves(match, turn(match)) if move.get("space") == "explore-1"]


def test_endless_dusk_applies_the_space_reached():
    """Event 5: morale -1 with the space effect (Mutiny at 2)."""
    match = revealed("ev05", lambda hero: hero.update(morale=4, fuel=5), decision=None)
    assert tracks(match, "morale") == [2, 2, 2, 2]
    assert tracks(match, "food") == [25 - 3, 29 - 3, 35 - 3, 25 - 3]  # 6 crew -> food -3


def test_great_storm_asks_everyone_for_a_discard():
    """Event 7 / TIS-CMD-15: each player chooses a resource to discard, clockwise from the leader."""
    match = revealed("ev07", decision="discard")
    assert [(entry["seat"], entry["reason"]) for entry in match.state["pending"]] == [
        (0, "great_storm"), (1, "great_storm"), (2, "great_storm"), (3, "great_storm")]


def test_rats_on_board():
    """Event 12 / TV-7 (c): food -4 as far as possible and 1 wood; no food shortage."""
    match = revealed("ev12", lambda hero: hero.update(food=3, wood=0))
    assert tracks(match, "food") == [0, 0, 0, 0]
    assert tracks(match, "vp") == [11, 10, 10, 10]  # the leader mapped Baffin; nobody lost VP


def test_fleet_hull_damage():
    """Event 18: 1 wood, or fuel -1 (towing) for a player without wood."""
    match = table_game(4, P1_LEADS)
    player(match, "p2")["wood"] = 0
    sail(match, "E1", voyage="open_sea", draws={"event": ["ev18"]})
    assert tracks(match, "wood")[0] == 3 and player(match, "p2")["fuel"] == 8


def test_legend_of_sedna_sends_the_inuit_to_the_sick_bay():
    """Event 19."""
    match = revealed("ev19", lambda hero: hero["crew"].update(inuk=2) or hero["free"].update(inuk=2))
    assert tracks(match, "free")[0]["inuk"] == 0 and tracks(match, "crew")[0]["inuk"] == 2


def test_very_thick_pack_ice():
    """Event 23: 1 dynamite each, if any."""
    match = revealed("ev23")
    assert tracks(match, "dynamite") == [3, 2, 2, 2]  # p1 led (5 - 1 ice) then -1


def test_trapped_in_ice():
    """Event 24: food -crew, with food shortage."""
    match = revealed("ev24")
    assert tracks(match, "food") == [19, 23, 29, 19]


@pytest.mark.parametrize(("card", "crew", "gains"), [
    ("ev08", 2, {"food": 25 + 8, "health": 3 + 2}), ("ev10", 1, {"rifle": 5, "fuel": 10}),
    ("ev11", 1, {"dynamite": 5, "fuel": 10}), ("ev13", 1, {"food": 31, "wood": 6}),
    ("ev16", 2, {"health": 4, "morale": 6, "food": 30}), ("ev20", 1, {"fuel": 10, "morale": 7}),
    ("ev21", 2, {"wood": 8}),
])
def test_action_cards_benefit_their_taker_only(card, crew, gains):
    """TIS-ACT-63: the card is an extra action space for the round (crew needed: ASSUMED data)."""
    match = revealed(card)
    leader = turn(match)
    moves = [move for move in legal_moves(match, leader) if move.get("space") == "event"]
    assert moves and all(sum(move["crew"].values()) == crew and move["lead"] is None for move in moves)
    act(match, "event", crew={"sailor": crew})
    hero = player(match, leader)
    for key, value in gains.items():
        assert hero[key] == value, key
    assert not [move for move in legal_moves(match, turn(match)) if move.get("space") == "event"]


def test_inuk_cards_give_an_inuk_and_stay_with_the_taker():
    """Events 9 and 17: the Inuk joins at the end of the Action phase; 17 then allows Inuk + 1 crew at Visit
    Inuit (TIS-ACT-12)."""
    match = revealed("ev17")
    leader = turn(match)
    act(match, "event", crew={"sailor": 1})
    pass_all(match)
    hero = player(match, leader)
    assert (hero["inuit"], hero["crew"]["inuk"], hero["kept_events"]) == (1, 1, ["ev17"])
    assert "ev17" not in match.state["discards"]["events"]
    sail(match, decision=None)
    while turn(match) != leader:
        do(match, turn(match), {"type": "pass"})
    visits = [move for move in legal_moves(match, leader) if move.get("space") == "visit-inuit"]
    assert {"type": "take_action", "space": "visit-inuit", "lead": "inuk", "crew": {"sailor": 1}} in visits


def test_animal_tracks_shows_a_species_for_its_taker():
    """Event 22 / TIS-AMB-23: the shown species is the taker's, with the discovery bonus."""
    match = table_game(4, P1_LEADS)
    sail(match, "E1", voyage="open_sea", draws={"event": ["ev22"], "event_species": ["S21"]})
    leader = turn(match)
    act(match, "event", crew={"sailor": 1})
    assert player(match, leader)["species"] == ["S21"]
    assert player(match, leader)["vp"] == 15
