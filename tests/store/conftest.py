"""A store on the test run's private Redis, and high-card games recorded through it."""
from __future__ import annotations

import itertools

import pytest

from domain import registry
from domain.core import SERVER
from domain.core.match import Match, apply_event, create, legal_moves, match_to_json, submit, waiting_for
from service.store import EventStore
from tests.core.high_card import RULES

registry.register(RULES)

SEED = "cairn-seed"
SNAPSHOT_KEY = b"the test run's snapshot key"
_commands = itertools.count()


@pytest.fixture
def store(redis_client):
    return EventStore(redis_client, snapshot_every=4, snapshot_key=SNAPSHOT_KEY)


def tokens_for(game_id: str, seats: list[str]) -> dict[str, str]:
    return {reader: f"{game_id}-{reader}-token" for reader in [*seats, "organiser"]}


def new_game(store: EventStore, game_id: str, players=("Ann", "Bo"), seed: str = SEED) -> Match:
    """A server-mode high-card game, created in the store; the returned match is its live state."""
    match, events = create(RULES, {}, list(players), SERVER, seed)
    store.create(game_id, events, seed=seed, tokens=tokens_for(game_id, match.seats), players=list(players))
    return match


def play(store: EventStore, game_id: str, match: Match, commands: int | None = None, seed: str = SEED) -> int:
    """Append the last legal move of the waiting seat until the game ends (or ``commands`` are in).

    Like the service, load the game before each command; ``match`` follows along.
    """
    played = 0
    while not match.ended and played != commands:
        assert match_to_json(store.load(game_id)) == match_to_json(match)
        seat = waiting_for(match)[0]
        move = legal_moves(match, seat)[-1]
        events = submit(match, seat, move, seed)
        store.append(
            game_id, match.version, events, command=move, command_id=f"cmd-{next(_commands)}", idempotency_key=None
        )
        for event in events:
            apply_event(match, event)
        played += 1
    return played
