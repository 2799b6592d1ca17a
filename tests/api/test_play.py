"""Whole games played over HTTP by random legal moves, for every game, player count and chance mode, and on a
Redis Cluster for every game and chance mode at its largest table.

At sampled steps, every reader's responses (view, legal moves, event log)
are searched for the secrets of the other seats, as ``rules.secrets`` names
them for the state rebuilt from the organiser's log; live streams opened at
the start are held to the same check and must match the log's redaction.
"""
from __future__ import annotations

import json
import random
import threading

import pytest

from domain import registry
from domain.core.chance import SERVER, TABLE
from domain.core.events import strings_in
from domain.core.match import apply_event
from domain.core.match import start as start_match
from tests.api.conftest import Api, read_stream

GAMES = ["high-card", *registry.game_names()]
MAX_STEPS = 5000


def cases():
    """Every game, player count and chance mode on the one Redis; on the Redis Cluster, each game and mode at its
    largest table, the most events and keys: where a game's keys land does not depend on how many play it."""
    for name in GAMES:
        counts = registry.get_rules(name).player_counts
        for players in counts:
            for mode in (SERVER, TABLE):
                for backend in ("single", "cluster") if players == max(counts) else ("single",):
                    yield pytest.param(backend, name, players, mode, id=f"{backend}-{name}-{players}p-{mode}")


class Follower(threading.Thread):
    """One reader following the game's live stream from version 1 to ``last``.

    When a stream ends (idle) the follower reconnects with ``Last-Event-ID``,
    as an ``EventSource`` does, until it has the game's last version.
    """

    def __init__(self, api: Api, game_id: str, token: str | None):
        super().__init__(daemon=True)
        self.api, self.game_id, self.token = api, game_id, token
        self.envelopes: list[dict] = []
        self.last: int | None = None

    def run(self) -> None:
        path = f"/games/{self.game_id}/stream?from=1"
        while not self.done():
            seen = self.envelopes[-1]["version"] if self.envelopes else None
            headers = {"Last-Event-ID": str(seen)} if seen else None
            messages = read_stream(self.api, path, self.token, headers=headers, enough=self.take)
            self.take(messages)

    def take(self, messages: list[dict]) -> bool:
        """Keep the envelopes that arrived; true once the last one is in."""
        seen = self.envelopes[-1]["version"] if self.envelopes else 0
        for message in messages:
            if message.get("event", "message") == "message" and int(message["id"]) > seen:
                self.envelopes.append(json.loads(message["data"]))
                seen = int(message["id"])
        return self.done()

    def done(self) -> bool:
        return self.last is not None and bool(self.envelopes) and self.envelopes[-1]["version"] >= self.last

    def finish(self, last: int) -> None:
        self.last = last
        self.join(timeout=60)


class Table:
    """One game seen by all its readers: ``None`` (the public), the seats and the organiser."""

    def __init__(self, api: Api, created: dict):
        self.api = api
        self.game_id = created["game_id"]
        self.tokens: dict = {seat["seat"]: seat["token"] for seat in created["seats"]}
        self.organiser = created["organiser_token"]
        self.readers: list = [None, *self.tokens]
        self.logged: dict = {reader: [] for reader in self.readers}
        self.seen: dict = {reader: set() for reader in self.readers}
        self.match = None

    def path(self, suffix: str = "") -> str:
        return f"/games/{self.game_id}{suffix}"

    def token(self, reader):
        return self.tokens.get(reader) if reader else None

    def follow_organiser_log(self):
        """The game rebuilt from the organiser's (unredacted) log, folding only what is new."""
        start = self.match.version + 1 if self.match else 1
        while start is not None:
            page = self.api.get(self.path(f"/events?from={start}&limit=500"), self.organiser).json()
            for envelope in page["events"]:
                if self.match is None:
                    self.match = start_match(registry.get_rules(envelope["data"]["game"]), envelope)
                else:
                    apply_event(self.match, envelope)
            start = page["next_from"]
        return self.match

    def check_no_leaks(self, followers: dict) -> None:
        match = self.follow_organiser_log()
        if match.ended:
            return
        secrets = match.rules.secrets(match.state)
        for reader in self.readers:
            forbidden = set().union(*(tokens for seat, tokens in secrets.items() if seat != reader))
            token = self.token(reader)
            shown = strings_in(self.api.get(self.path(), token).json(), set())
            if reader is not None:
                strings_in(self.api.get(self.path("/legal-moves"), token).json(), shown)
            start = len(self.logged[reader]) + 1
            page = self.api.get(self.path(f"/events?from={start}&limit=500"), token).json()
            self.logged[reader] += page["events"]
            strings_in(page["events"], self.seen[reader])
            if reader in followers:
                strings_in(list(followers[reader].envelopes), self.seen[reader])
            leaked = forbidden & (shown | self.seen[reader])
            assert not leaked, f"{reader or 'the public'} sees {sorted(leaked)[:5]} at version {match.version}"


def choose_move(table: Table, awaited: list[str], rng: random.Random) -> tuple[str, dict]:
    if awaited == ["organiser"]:
        offer = rng.choice(table.api.get(table.path("/legal-moves"), table.organiser).json()["moves"])
        if "candidates" not in offer:
            return table.organiser, offer
        return table.organiser, {"type": offer["type"], "outcome": rng.sample(offer["candidates"],
                                                                                offer["chance"]["count"])}
    seat = rng.choice(awaited)
    moves = table.api.get(table.path("/legal-moves"), table.tokens[seat]).json()["moves"]
    return table.tokens[seat], rng.choice(moves)


@pytest.mark.parametrize(("backend", "game", "players", "mode"), list(cases()), indirect=["backend"])
def test_random_game_through_the_api(api, game, players, mode):
    rng = random.Random(f"{game}-{players}-{mode}")
    seed = {"seed": f"api-play-{game}-{players}"} if mode == SERVER else {}
    table = Table(api, api.create(game, players, chance_mode=mode, **seed))
    # The public and p1 follow live: between them they are "another reader" for every seat's secrets.
    followers = {reader: Follower(api, table.game_id, table.token(reader)) for reader in (None, "p1")}
    for follower in followers.values():
        follower.start()
    now = api.get(table.path(), table.organiser).json()
    for step in range(MAX_STEPS):
        if now["status"] != "active":
            break
        if step < 5 or step % 40 == 0:
            table.check_no_leaks(followers)
        token, move = choose_move(table, now["waiting_for"], rng)
        if step % 2:
            moved = api.post(table.path("/moves"), token, json=move, headers={"If-Match": f'"{now["version"]}"'})
        else:
            moved = api.post(table.path("/moves"), token, json={**move, "expected_version": now["version"]})
        assert moved.status_code == 201, moved.text
        assert moved.json()["first_version"] == now["version"] + 1
        now = moved.json()
    view = api.get(table.path(), table.organiser).json()
    assert view["status"] == "ended", f"no end after {MAX_STEPS} moves"
    assert view["seed"] == (seed["seed"] if mode == SERVER else None)
    assert api.get(table.path("/integrity")).json()["ok"]
    for reader, follower in followers.items():
        follower.finish(view["version"])
        assert [envelope["version"] for envelope in follower.envelopes] == list(range(1, view["version"] + 1))
        by_version = {envelope["version"]: envelope for envelope in table.logged[reader]}
        for envelope in follower.envelopes:
            if envelope["version"] in by_version:
                assert envelope == by_version[envelope["version"]], f"stream and log differ for {reader}"
