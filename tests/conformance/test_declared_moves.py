"""Every game's declared moves, each held to its declaration by the engine: a field the move does not declare is
refused by name, and so is a required field left out.

Each move type is tried on a legal move of that type from random play when random play (with the options that
bring it) offers one, and otherwise on a body made from the declaration alone, submitted where its seat may
act: the engine refuses it from the declaration before the rules would look at it.
"""
from __future__ import annotations

import random
from functools import cache

import pytest

from domain.core import ORGANISER, SERVER, TABLE, IllegalMove
from domain.core.match import Match, create, legal_moves, submit, submit_and_fold, waiting_for
from domain.core.move_types import CHANCE_MOVE, MoveType
from domain.registry import game_names, get_rules
from tests.conformance.harness import NO_SUCH_FIELD, acting, chance_move

# The player counts and option sets whose random play offers (nearly) every move type of each game.
OPTION_SETS = {
    "borealis": ((3, {}), (3, {"goal_claim_mode": "manual"})),
    "ice-expedition": ((3, {"guild_allocation": "choice"}), (4, {})),
    "northwest-passage": ((3, {}),),
    "through-ice-and-snow": (
        (3, {}), (3, {"survival": True, "shelter_building": True, "dual_species": True, "inuit_myths": True,
                      "walking_on_ice": True}),
        (2, {"legendary_expeditions": ["explorers", "ships", "explorer_events"], "all_upgrades": True,
             "extra_events": [25, 26, 27, 28]}),
        (1, {"scenario": "magnetic_north_pole"}), (1, {"scenario": "mysterious_epidemic"})),
}
# A value of each JSON type, for a body made from the declaration.
PLACEHOLDERS = {"string": "x", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}, "null": None}
MOVE_STEPS = 400


@cache
def samples(game: str) -> tuple[dict[str, tuple[Match, str, dict]], tuple[Match, str]]:
    """The first offered move of each type, with the match and seat it was offered to, and the opening position
    with a seat that may act there."""
    rules = get_rules(game)
    found: dict[str, tuple[Match, str, dict]] = {}
    opening = None
    for index, (players, options) in enumerate(OPTION_SETS[game]):
        rng = random.Random(index)
        match, _ = create(rules, options, [f"Player {n}" for n in range(1, players + 1)], SERVER,
                          f"declared-{index}")
        opening = opening or (match, waiting_for(match)[0])
        for _ in range(MOVE_STEPS):
            if match.ended:
                break
            seat = rng.choice(acting(match))
            moves = legal_moves(match, seat)
            for move in moves:
                found.setdefault(move["type"], (match, seat, move))
            _, match = submit_and_fold(match, seat, rng.choice(moves), f"declared-{index}")
    return found, opening


def made_from(move_type: MoveType) -> dict:
    body = {"type": move_type.type}
    for field in move_type.fields:
        body[field.name] = field.values[0] if field.values else PLACEHOLDERS[field.types[0]]
    return body


def cases():
    for game in game_names():
        for kind in get_rules(game).declared_moves:
            yield pytest.param(game, kind, id=f"{game}-{kind}")


def refusal(match: Match, seat: str, command: dict) -> IllegalMove:
    with pytest.raises(IllegalMove) as refused:
        submit(match, seat, command, "declared")
    return refused.value


def where_to_try(game: str, kind: str) -> tuple[Match, str, dict]:
    found, (opening, seat) = samples(game)
    if kind in found:
        return found[kind]
    return opening, seat, made_from(get_rules(game).declared_moves[kind])


@pytest.mark.parametrize(("game", "kind"), list(cases()))
def test_a_field_the_move_does_not_declare_is_refused_by_name(game, kind):
    match, seat, move = where_to_try(game, kind)
    refused = refusal(match, seat, {**move, NO_SUCH_FIELD: 1})
    assert (refused.code, refused.field) == ("unknown_field", NO_SUCH_FIELD), refused.to_dict()
    assert refused.rule_id == get_rules(game).declared_moves[kind].rule_id


@pytest.mark.parametrize(("game", "kind"), list(cases()))
def test_a_required_field_left_out_is_refused_by_name(game, kind):
    match, seat, move = where_to_try(game, kind)
    for field in get_rules(game).declared_moves[kind].fields:
        if field.required:
            refused = refusal(match, seat, {name: value for name, value in move.items() if name != field.name})
            assert (refused.code, refused.field) == ("missing_field", field.name), refused.to_dict()


def test_a_value_of_another_json_type_is_refused_by_name():
    match, seat, move = where_to_try("northwest-passage", "place_tile")
    for name, wrong in (("anchor_x", "3"), ("anchor_x", True), ("anchor_x", 1.5), ("flip", 1), ("rotation", 45),
                        ("pay_from", "raft"), ("tile_id", None)):
        refused = refusal(match, seat, {**move, name: wrong})
        assert (refused.code, refused.field, refused.rule_id) == ("invalid_field", name, "NWP-CMD-4")


@pytest.mark.parametrize("game", game_names())
def test_the_organisers_draw_is_held_to_its_declaration_in_every_game(game):
    rules = get_rules(game)
    match, _ = create(rules, {}, [f"Player {n}" for n in range(1, rules.player_counts[-1] + 1)], TABLE, None)
    draw = chance_move(legal_moves(match, ORGANISER)[0], lambda candidates, count: candidates[:count])
    refused = refusal(match, ORGANISER, {**draw, NO_SUCH_FIELD: 1})
    assert (refused.code, refused.field) == ("unknown_field", NO_SUCH_FIELD)
    refused = refusal(match, ORGANISER, {"type": CHANCE_MOVE.type})
    assert (refused.code, refused.field) == ("missing_field", "outcome")
    assert submit(match, ORGANISER, draw)
