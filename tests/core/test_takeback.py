"""The fold of takebacks in every game (TABLE-TAKEBACK-1..5): a rewound game is the game at ``to_version``."""
from __future__ import annotations

import random

import pytest

from domain import registry
from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.match import (
    Match,
    apply_event,
    create,
    legal_moves,
    match_from_json,
    match_to_json,
    may_act,
    replay,
    replaying,
    submit,
    waiting_for,
)
from domain.core.table import TABLE_EVENTS
from domain.core.takeback import SEATS, Takeback

GAMES = registry.game_names()
SEED = "takeback-fold-seed"


def play(match: Match, events: list[Event], seat: str, move: dict) -> list[Event]:
    made = submit(match, seat, move, SEED, replaying(events, registry.get_rules))
    for event in made:
        apply_event(match, event, replaying(events, registry.get_rules))
    events.extend(made)
    return made


def first_takeback(game: str, players: int) -> tuple[Match, list[Event], str]:
    """The game played by its first legal moves up to the first command its seat may take back."""
    match, events = create(registry.get_rules(game), {}, [f"P{n}" for n in range(players)], "server", SEED)
    for _turn in range(300):
        seat = waiting_for(match)[0]
        play(match, events, seat, legal_moves(match, seat)[0])
        try:
            submit(match, seat, {"type": "request_takeback"}, SEED, replaying(events, registry.get_rules))
        except IllegalMove as refusal:
            assert refusal.code in ("nothing_to_take_back", "takeback_past_draw"), refusal.message
            continue
        return match, events, seat
    raise AssertionError(f"{game}: no command could be taken back in 300 turns")


def state_json(match: Match) -> object:
    return match.rules.state_to_json(match.state)


@pytest.mark.parametrize("game", GAMES)
def test_the_fold_of_a_rewound_game_is_the_fold_at_to_version(game):
    match, events, seat = first_takeback(game, 2)
    other = next(other for other in match.seats if other != seat)
    asked = play(match, events, seat, {"type": "request_takeback"})
    to_version = asked[0]["data"]["to_version"]
    assert [event["type"] for event in play(match, events, other, {"type": "accept_takeback"})] == [
        "takeback_accepted", "moves_taken_back"]
    at_to = replay(events[:to_version], registry.get_rules)
    assert state_json(match) == state_json(at_to)
    assert waiting_for(match) == waiting_for(at_to) and legal_moves(match, seat) == legal_moves(at_to, seat)
    replayed = replay(events, registry.get_rules)
    assert match_to_json(replayed) == match_to_json(match)
    assert match_to_json(match_from_json(match_to_json(match), match.rules)) == match_to_json(match)
    assert match.takeback.taken_back == [[to_version + 1, asked[0]["data"]["from_version"]]]
    for _turn in range(5):  # the game goes on from the rewound state, and its replay with it
        mover = waiting_for(match)[0]
        play(match, events, mover, legal_moves(match, mover)[-1])
    assert match_to_json(replay(events, registry.get_rules)) == match_to_json(match)


def test_a_takeback_is_not_folded_without_the_earlier_state():
    match, events, seat = first_takeback("through-ice-and-snow", 1)
    granted = submit(match, seat, {"type": "request_takeback"}, SEED, replaying(events, registry.get_rules))
    apply_event(match, granted[0])
    with pytest.raises(ValueError, match="earlier"):
        apply_event(match, granted[1])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", ["server", "table"])
def test_every_game_event_carries_the_seat_of_its_command(game, mode):
    """What the takeback's fold relies on to take back whole commands: each event a command makes is of its
    actor, or of nobody (a chance outcome)."""
    rng = random.Random(f"{game}-{mode}")
    match, _events = create(registry.get_rules(game), {}, ["A", "B"], mode, SEED if mode == "server" else None)
    for _step in range(400):
        actors = waiting_for(match) + may_act(match)
        if match.ended or not actors:
            break
        actor = rng.choice(actors)
        moves = legal_moves(match, actor)
        if not moves:
            continue
        move = rng.choice(moves)
        if move.get("template"):
            node = match.rules.chance_node(match.state)
            move = {"type": "resolve_chance", "outcome": rng.sample(list(node.candidates), node.count)}
        for event in submit(match, actor, move, SEED):
            if event["type"] not in TABLE_EVENTS and event["type"] != "game_ended":
                assert event["seat"] == actor or (event["seat"] is None and event["type"] == "chance_resolved"), \
                    (actor, event)
            apply_event(match, event)


def test_a_secret_shown_to_another_seat_is_not_taken_back():
    """TABLE-TAKEBACK-4: no game of today shows one seat's command to another in secret, so the fold is held
    to it directly: a command whose event shows a secret to p2 cannot be taken back by p1, one shown to
    p1 itself can."""
    own, shown = Takeback(), Takeback()
    own.moved({"type": "card_chosen", "seat": "p1", "data": {}, "secret": {"card": "x"}, "secret_to": ["p1"]},
              4, table_mode=False)
    shown.moved({"type": "card_passed", "seat": "p1", "data": {}, "secret": {"card": "x"}, "secret_to": ["p2"]},
                4, table_mode=False)
    assert (own.seat, own.since, own.draw) == ("p1", 4, None) and own.asker(SEATS) == "p1"
    assert shown.draw == "card_passed at version 5" and shown.asker(SEATS) is None
