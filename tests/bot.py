"""A player over HTTP: random legal moves in games of its own, each move sent until it gets an answer.

Every move carries an Idempotency-Key, and a 503 is retried with the same
key, so what the bot counts as acknowledged (a 201) is exactly what the
service promised to keep; 409s (another answer came first) and 5xx are
counted, never hidden.
"""
from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import requests

GAMES = ("borealis", "ice-expedition", "northwest-passage", "through-ice-and-snow")
PLAYERS = {"borealis": 2, "ice-expedition": 2, "northwest-passage": 2, "through-ice-and-snow": 2, "high-card": 2}


@dataclass
class Tally:
    """What every bot of a run saw: answers by status, and each game's acknowledged versions and their hashes."""

    statuses: Counter = field(default_factory=Counter)
    acknowledged: dict[str, dict[int, str]] = field(default_factory=dict)
    games: dict[str, str] = field(default_factory=dict)
    organisers: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int) -> None:
        with self.lock:
            self.statuses[status] += 1

    def acknowledge(self, game_id: str, events: list[dict]) -> None:
        with self.lock:
            versions = self.acknowledged.setdefault(game_id, {})
            for event in events:
                versions[event["version"]] = event["hash"]

    @property
    def moves(self) -> int:
        return sum(len(versions) for versions in self.acknowledged.values())


class Bot:
    """Plays one game at a time against ``base``, starting a new one (of ``games`` in turn) when one ends."""

    def __init__(self, base: str, tally: Tally, games: tuple[str, ...], seed: int, retry_for: float = 30.0) -> None:
        self.base, self.tally, self.games = base, tally, games
        self.random = random.Random(seed)
        self.retry_for = retry_for
        self.session = requests.Session()
        self.session.trust_env = False
        self.game: dict | None = None
        self.tokens: dict[str, str] = {}

    def play_until(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            self.step()

    def step(self) -> None:
        """One move, or a new game when there is none or it is over."""
        if self.game is None:
            self.new_game()
            return
        path = f"/games/{self.game['game_id']}"
        state = self._send("GET", path)
        if state is None:
            return
        if state["status"] != "active" or not state["waiting_for"]:
            self.game = None
            return
        seat = state["waiting_for"][0]
        token = self.tokens[seat]
        legal = self._send("GET", f"{path}/legal-moves", token=token)
        if not legal or not legal["moves"]:
            self.game = None
            return
        move = {**self.random.choice(legal["moves"]), "expected_version": state["version"]}
        answer = self._send("POST", f"{path}/moves", token=token, json=move,
                            headers={"Idempotency-Key": uuid.uuid4().hex})
        if answer is not None:
            self.tally.acknowledge(self.game["game_id"], answer["events"])

    def new_game(self) -> None:
        name = self.games[self.random.randrange(len(self.games))]
        players = [f"Bot {n}" for n in range(1, PLAYERS.get(name, 2) + 1)]
        created = self._send("POST", "/games", json={"game": name, "players": players})
        if created is None:
            return
        self.game = created
        self.tokens = {"organiser": created["organiser_token"],
                       **{seat["seat"]: seat["token"] for seat in created["seats"]}}
        with self.tally.lock:
            self.tally.games[created["game_id"]] = name
            self.tally.organisers[created["game_id"]] = created["organiser_token"]
        self.tally.acknowledge(created["game_id"], [{"version": v, "hash": None}
                                                    for v in range(1, created["version"] + 1)])

    def _send(self, method: str, path: str, token: str | None = None, **kwargs) -> dict | None:
        """The answer's JSON on success; ``None`` when refused (409, 4xx) or still unavailable after
        ``retry_for`` seconds of retries with the same request (and so the same Idempotency-Key)."""
        headers = dict(kwargs.pop("headers", None) or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        give_up = time.monotonic() + self.retry_for
        while True:
            try:
                response = self.session.request(method, self.base + path, headers=headers, timeout=30, **kwargs)
            except requests.ConnectionError:
                self.tally.count(0)
                if time.monotonic() > give_up:
                    return None
                time.sleep(0.2)
                continue
            self.tally.count(response.status_code)
            if response.status_code in (200, 201):
                return response.json()
            if response.status_code != 503 or time.monotonic() > give_up:
                return None
            time.sleep(0.2)
