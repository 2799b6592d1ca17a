"""Playing a whole game in one process, each seat asking its policy with only its own redacted log.

The logs are built as the service shows them: each event redacted for the seat and tagged with the batch
(``command_id``) that produced it, so a policy sees here exactly what it would see over the API.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bots import Policy
from bots.determinise import LogEntry
from domain.core import ORGANISER, TABLE, Rules
from domain.core.events import Event, JsonObject, redact_event
from domain.core.match import Match, apply_event, create, legal_moves, submit, waiting_for

Submitted = Callable[[Match[Any], str, JsonObject, list[Event]], None]


@dataclass
class PlayedGame:
    match: Match[Any]
    events: list[Event] = field(default_factory=list)
    steps: int = 0


class SeatLogs:
    """Each seat's log so far, as its token would read it."""

    def __init__(self, seats: list[str]):
        self.logs: dict[str, list[LogEntry]] = {seat: [] for seat in seats}
        self.batches = 0

    def add(self, batch: list[Event]) -> None:
        self.batches += 1
        for seat, log in self.logs.items():
            log.extend({**redact_event(event, seat), "command_id": f"batch-{self.batches}"} for event in batch)


def organiser_draw(moves: list[JsonObject], rng: random.Random) -> JsonObject:
    """The organiser's move at a table game's chance decision (its one offer): an outcome drawn uniformly."""
    offer = moves[0]
    return {"type": offer["type"], "outcome": rng.sample(offer["candidates"], offer["chance"]["count"])}


def play(
    rules: Rules[Any],
    policies: dict[str, Policy],
    seed: int,
    options: dict | None = None,
    chance_mode: str = "server",
    max_steps: int = 5000,
    on_submit: Submitted | None = None,
) -> PlayedGame:
    """Play to the end; the organiser of a table game draws uniformly. ``on_submit`` sees every move first."""
    rng = random.Random(seed)
    server_seed = None if chance_mode == TABLE else f"bots-{seed}"
    names = [f"Player {index}" for index in range(1, len(policies) + 1)]
    match, events = create(rules, options or {}, names, chance_mode, server_seed)
    logs = SeatLogs(match.seats)
    logs.add(events)
    played = PlayedGame(match, list(events))
    while not match.ended and played.steps < max_steps:
        actor = waiting_for(match)[0]
        moves = legal_moves(match, actor)
        if actor == ORGANISER:
            move = organiser_draw(moves, rng)
        else:
            move = policies[actor].choose(actor, list(logs.logs[actor]), moves)
        if on_submit is not None:
            on_submit(match, actor, move, played.events)
        batch = submit(match, actor, move, server_seed)
        for event in batch:
            apply_event(match, event)
        logs.add(batch)
        played.events.extend(batch)
        played.steps += 1
    return played
