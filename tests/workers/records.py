"""Histories of the engine's test game, sealed into envelopes the way the event store seals them.

Lets the pure parts of the workers (verifier, notation, HTML page) be tested
on real match output without Redis; the store's own envelopes are used by
the tests that run jobs.
"""
from __future__ import annotations

import random

from domain.core import ORGANISER, SERVER, Rules
from domain.core.errors import IllegalMove
from domain.core.events import make_event
from domain.core.match import apply_event, create, legal_moves, replaying, submit, waiting_for
from domain.registry import get_rules, register
from service.store import EventStore
from service.store.envelope import GENESIS_HASH, seal
from tests.core.high_card import RULES

register(RULES)

Batch = tuple[list[dict], dict | None]


def play(players: tuple[str, ...] = ("Ann", "Bo"), mode: str = SERVER, seed: str | None = "north",
         choice: int = 0, scored: bool = True, rules: Rules = RULES, takeback_after: int | None = None) -> list[Batch]:
    """A whole game as batches of (events, command), the command recorded as the API records it (actor in
    ``seat``); moves chosen at random from the legal ones, seeded by ``choice``. From ``takeback_after``
    commands on, the first seat that may take back its last command asks to, and the others accept, once."""
    chooser = random.Random(choice)
    match, events = create(rules, {}, list(players), mode, seed)
    batches: list[Batch] = [(events, None)]
    history = list(events)
    earlier = replaying(history, get_rules)
    queued: list[tuple[str, dict]] = []
    while not match.ended:
        if queued:
            actor, command = queued.pop(0)
            made = submit(match, actor, command, seed, earlier)
            for event in made:
                apply_event(match, event, earlier)
            history.extend(made)
            batches.append((made, {**command, "seat": actor}))
            continue
        actor = waiting_for(match)[0]
        if actor == ORGANISER:
            node = match.rules.chance_node(match.state)
            command = {"type": "resolve_chance", "outcome": chooser.sample(list(node.candidates), node.count)}
        else:
            command = chooser.choice(legal_moves(match, actor))
        events = submit(match, actor, command, seed, earlier)
        for event in events:
            apply_event(match, event, earlier)
        history.extend(events)
        batches.append((events, {**command, "seat": actor}))
        if takeback_after is not None and len(batches) > takeback_after and actor != ORGANISER and not match.ended:
            try:
                asked = submit(match, actor, {"type": "request_takeback"}, seed, earlier)
            except IllegalMove:
                continue
            takeback_after = None
            queued = [(actor, {"type": "request_takeback"})]
            queued += [(seat, {"type": "accept_takeback"}) for seat in asked[0]["data"]["waiting_for"]]
    if scored:
        batches.append(([make_event("game_scored", {"score_sheet": rules.final_score(match.state)})], None))
    return batches


def sealed(batches: list[Batch], game_id: str = "g1") -> list[dict]:
    """The envelopes the store would keep for these batches, sealed by the store's own code, without Redis."""
    envelopes: list[dict] = []
    prev = GENESIS_HASH
    rules_version = batches[0][0][0]["data"]["rules_version"]
    for number, (events, command) in enumerate(batches, start=1):
        for index, event in enumerate(events):
            envelope, _payload = seal(event, game_id=game_id, version=len(envelopes) + 1, prev_hash=prev,
                                      command_id=f"c{number}", time="2026-01-01T00:00:00Z",
                                      rules_version=rules_version, command=command if index == 0 else None)
            prev = envelope["hash"]
            envelopes.append(envelope)
    return envelopes


def record(store: EventStore, game_id: str, batches: list[Batch], seed: str | None = "north") -> None:
    """Write a played game into the store the way the API does: create, then one append per command."""
    opening, _ = batches[0]
    players = [seat["name"] for seat in opening[0]["data"]["seats"]]
    tokens = {reader: f"{game_id}-{reader}" for reader in [*(f"p{n}" for n in range(1, len(players) + 1)),
                                                            ORGANISER]}
    store.create(game_id, opening, seed=seed, tokens=tokens, players=players)
    version = len(opening)
    for number, (events, command) in enumerate(batches[1:], start=2):
        store.append(game_id, version, events, command=command, command_id=f"{game_id}-c{number}",
                     idempotency_key=None)
        version += len(events)
