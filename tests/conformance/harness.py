"""The conformance suite every registered game must pass.

``play_random_game`` drives a game by random legal moves to its end, through
the same engine the service uses, and checks at every step that:

* replaying the JSON round-tripped events equals the live state;
* the state survives a JSON round trip;
* no reader's payloads (view, legal moves, redacted events) contain another
  seat's secrets, and the public's contain none;
* every move offered fits its declaration (``Rules.declared_moves``);
* at sampled positions, every offered move is accepted (and gives the same
  events through ``Rules.decide_offered``, the search's shortcut), a sample of moves
  not offered (perturbed fields, wrong seats) is refused with ``IllegalMove``,
  and an offered move with a field added that no game has is refused as
  ``unknown_field``, the field named;
* ``submit`` leaves the match it is given as it was, whether it accepts the
  move or refuses it (the service folds an accepted move into that very match).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import orjson

from domain.core import ORGANISER, TABLE, IllegalMove, Rules
from domain.core.events import strings_in
from domain.core.match import (
    Match,
    apply_event,
    create,
    legal_moves,
    match_to_json,
    may_act,
    redact,
    replay,
    start,
    submit,
    view,
    waiting_for,
)
from domain.core.move_types import ORGANISER_MOVES, MoveTypes

# Picks a seat's move from the offered ones, given the live match and the batches of events so far (the
# engine's, unredacted): a chooser may read the whole state, as a rollout reads its determinised world.
Chooser = Callable[[Match, str, list[dict], list[list[dict]]], dict]

JUNK_VALUES = ("__not-a-thing__", -1, 999, None, [], {"x": 1}, True)
NO_SUCH_FIELD = "__not_a_field__"


@dataclass
class PlayReport:
    steps: int = 0
    events: list = field(default_factory=list)
    match: Match | None = None


def comparable(value) -> bytes:
    """One byte string per JSON value, keys sorted, for comparing states and moves: orjson, since the harness
    compares after every step and the standard library's encoder was half of a random game's time."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


def through_json(value):
    """``value`` as a client would send it back: written as JSON and read again."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def state_json(match: Match) -> bytes:
    return comparable(
        {"state": match.rules.state_to_json(match.state), "version": match.version, "ended": match.ended}
    )


def check_no_leaks(match: Match, seen_in_events: dict) -> None:
    secrets = match.rules.secrets(match.state)
    if match.ended:
        return
    readers: list[str | None] = [*match.seats, None]
    for reader in readers:
        forbidden = set().union(*(tokens for seat, tokens in secrets.items() if seat != reader)) if secrets else set()
        if not forbidden:
            continue
        shown = strings_in(view(match, reader), set())
        if reader is not None:
            strings_in(legal_moves(match, reader), shown)
        shown |= seen_in_events[reader]
        leaked = forbidden & shown
        assert not leaked, f"{reader or 'the public'} can see {sorted(leaked)[:5]} at version {match.version}"


def perturbations(moves: list[dict], rng: random.Random, limit: int) -> list[dict]:
    """Commands close to legal ones: one field changed to another move's value or to junk."""
    out: list[dict] = []
    for _ in range(limit):
        move = dict(rng.choice(moves))
        keys = [key for key in move if key != "type"]
        if not keys:
            move["type"] = rng.choice(["__unknown__", move["type"] + "_x"])
        else:
            key = rng.choice(keys)
            others = [other[key] for other in moves if key in other and other[key] != move[key]]
            move[key] = rng.choice(others) if others and rng.random() < 0.5 else rng.choice(JUNK_VALUES)
        out.append(move)
    return out


def match_json(match: Match) -> bytes:
    return comparable(match_to_json(match))


def submit_unchanging(match: Match, before: bytes, actor: str, command: dict, seed: str | None) -> list[dict]:
    """``submit``, checking that it leaves ``match`` as it was (``before``, its :func:`match_json`), whether it
    accepts the command or refuses it."""
    try:
        return submit(match, actor, command, seed)
    finally:
        assert match_json(match) == before, f"submitting {command} changed the match at version {match.version}"


def check_unknown_field(match: Match, before: bytes, actor: str, command: dict, seed: str | None) -> None:
    """A command otherwise accepted, with a field added that no game has, is refused and the field named."""
    padded = {**command, NO_SUCH_FIELD: 1}
    try:
        submit_unchanging(match, before, actor, padded, seed)
    except IllegalMove as error:
        assert (error.code, error.field) == ("unknown_field", NO_SUCH_FIELD), (
            f"{padded} was refused at version {match.version} with {error.to_dict()}, not as an unknown field"
        )
    else:
        raise AssertionError(f"{actor} was allowed {padded} at version {match.version}")


def acting(match: Match) -> list[str]:
    """Everyone who may move now: whom the game waits for, then the seats that may act out of turn."""
    return [*waiting_for(match), *(seat for seat in may_act(match) if seat not in waiting_for(match))]


def check_moves(match: Match, rng: random.Random, seed: str | None, max_checked: int = 60) -> None:
    # The unknown-field checks draw nothing from ``rng``, so each seed plays the game it played before them.
    before = match_json(match)
    for seat in acting(match):
        if seat == ORGANISER:
            if match.chance_mode == TABLE:
                check_chance_moves(match, before, seed)
            continue
        moves = legal_moves(match, seat)
        assert moves, f"{seat} may act at version {match.version} but has no legal move"
        offered = {comparable(move) for move in moves}
        assert len(offered) == len(moves), "legal_moves lists a move twice"
        for move in moves:
            check_declared(match.rules.declared_moves, move, match.version)
        for move in rng.sample(moves, min(len(moves), max_checked)):
            submit_unchanging(match, before, seat, through_json(move), seed)
            check_offered_events(match, seat, move)
        for move in moves[:: max(1, len(moves) // 3)][:3]:
            check_unknown_field(match, before, seat, move, seed)
        for move in perturbations(moves, rng, 20):
            if comparable(move) in offered:
                continue
            try:
                submit_unchanging(match, before, seat, move, seed)
            except IllegalMove:
                continue
            raise AssertionError(f"{seat} was allowed {move} at version {match.version}; legal_moves did not offer it")
        idle = [other for other in match.seats if other not in acting(match)]
        if idle:
            other = rng.choice(idle)
            try:
                submit_unchanging(match, before, other, moves[0], seed)
            except IllegalMove as error:
                out_of_turn = moves[0]["type"] in match.rules.out_of_turn_moves
                assert error.code == "not_your_turn" or (out_of_turn and error.rule_id), error.to_dict()
            else:
                raise AssertionError(f"{other} played out of turn at version {match.version}")


def check_offered_events(match: Match, seat: str, move: dict) -> None:
    """The search's shortcut for an offered move (``Rules.decide_offered``) gives the events ``decide`` gives."""
    expected = match.rules.decide(match.state, seat, move)
    assert match.rules.decide_offered(match.state, seat, move) == expected, (
        f"decide_offered differs from decide for {move} at version {match.version}")


def check_declared(declared: MoveTypes, move: dict, version: int) -> None:
    """An offered move fits its declaration: a declared type, declared fields only, each of its declared type."""
    try:
        declared.check(move)
    except IllegalMove as error:
        raise AssertionError(f"{move}, offered at version {version}, does not fit its declaration: "
                             f"{error.to_dict()}") from None


def check_chance_moves(match: Match, before: bytes, seed: str | None) -> None:
    """Every listed outcome is accepted as listed; a template, filled in, is too."""
    offers = legal_moves(match, ORGANISER)
    for offer in offers:
        move = chance_move(offer, lambda candidates, count: candidates[:count])
        check_declared(ORGANISER_MOVES, move, match.version)
        submit_unchanging(match, before, ORGANISER, move, seed)
        assert move == offer or len(offers) == 1, "a template comes alone"
    check_unknown_field(match, before, ORGANISER, chance_move(offers[0], lambda c, n: c[:n]), seed)


def chance_move(offer: dict, draw) -> dict:
    """The offer itself when it is complete; a template's outcome drawn by ``draw(candidates, count)``."""
    if "outcome" in offer:
        return offer
    return {"type": offer["type"], "outcome": draw(offer["candidates"], offer["chance"]["count"])}


def play_random_game(
    rules: Rules,
    players: int,
    chance_mode: str,
    game_seed: int,
    options: dict | None = None,
    max_steps: int = 20000,
    check_every: int = 1,
    sample_moves_every: int = 7,
    chooser: Chooser | None = None,
) -> PlayReport:
    """Play to the end, checking as the module says; seats pick uniformly unless ``chooser`` picks for them."""
    rng = random.Random(game_seed)
    seed = f"conformance-{game_seed}" if chance_mode != TABLE else None
    names = [f"Player {n}" for n in range(1, players + 1)]
    live, events = create(rules, options or {}, names, chance_mode, seed)
    history: list[dict] = []
    batches: list[list[dict]] = []
    replayed: Match | None = None
    readers: list[str | None] = [*live.seats, None]
    seen_in_events: dict = {reader: set() for reader in readers}
    report = PlayReport()

    def record(batch: list[dict], fold_live: bool = True) -> None:
        nonlocal replayed
        batches.append(batch)
        for event in through_json(batch):
            history.append(event)
            if replayed is None:
                replayed = start(rules, event)
            else:
                apply_event(replayed, event)
            if fold_live:
                apply_event(live, event)
        for event in batch:
            for reader in readers:
                strings_in(redact(live, event, reader), seen_in_events[reader])

    record(events, fold_live=False)
    for step in range(max_steps):
        if step % check_every == 0:
            assert state_json(replayed) == state_json(live), f"replay differs from live at version {live.version}"
            round_trip = rules.state_from_json(through_json(rules.state_to_json(live.state)))
            assert comparable(rules.state_to_json(round_trip)) == comparable(rules.state_to_json(live.state))
            check_no_leaks(live, seen_in_events)
        if step % sample_moves_every == 0:
            check_moves(live, rng, seed)
        if live.ended:
            break
        assert waiting_for(live), f"nobody is awaited at version {live.version} and the game is not over"
        actor = rng.choice(acting(live))
        moves = legal_moves(live, actor)
        assert moves, f"{actor} may act at version {live.version} but has no legal move"
        if actor == ORGANISER:
            move = chance_move(rng.choice(moves), rng.sample)
            check_declared(ORGANISER_MOVES, move, live.version)
        else:
            for offered in moves:
                check_declared(rules.declared_moves, offered, live.version)
            move = rng.choice(moves) if chooser is None else chooser(live, actor, moves, batches)
        record(submit_unchanging(live, match_json(live), actor, move, seed))
        report.steps += 1
    assert live.ended, f"no end after {max_steps} moves"
    sheet = rules.final_score(live.state)
    assert set(sheet["totals"]) <= set(live.seats)
    assert through_json(sheet) == sheet
    final = replay(history, lambda name: rules)
    assert state_json(final) == state_json(live)
    report.events = history
    report.match = live
    return report
