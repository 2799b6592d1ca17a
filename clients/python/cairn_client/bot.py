"""Bots that play through the API like any other client: given seats of one game, or whole games in a soak.

``cairn bot`` (and ``python -m cairn_client.bot``) runs them. A bot holds
tokens; whenever the game waits for a seat it holds, it reads that seat's
legal moves and event log, lets its :class:`~cairn_client.policy.Policy`
choose, and submits the choice against the version it decided on. Holding
the organiser's token of a table-mode game, it draws each chance outcome at
random from the candidates it is offered. When the game waits only for
others, it follows the live stream until something happens.

A soak creates ``games`` games, plays all their seats from ``concurrency``
threads, then audits every game it played (the hash chain and a worker's
audit, which decides every command again) and sums up what it saw. Any 5xx,
failed audit or game it could not finish makes the run fail.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cairn_client.client import Client
from cairn_client.errors import ApiError, CairnError, StaleVersion
from cairn_client.policy import Policy, RandomPolicy
from cairn_client.types import Envelope, GameView, LegalMoves

ORGANISER = "organiser"
RESOLVE_CHANCE = "resolve_chance"
# The levels of play ``--strength`` names; each makes a policy from a seed.
STRENGTHS: dict[str, Callable[[str], Policy]] = {"random": RandomPolicy}
# Listed moves the service refuses in a row before a bot gives a game up rather than loop on it.
MAX_REFUSALS_IN_A_ROW = 20
DEFAULT_URL = "http://127.0.0.1:8000"


@dataclass
class Tally:
    """What a bot run saw; tallies of several games add up with ``+``."""

    games: int = 0
    ended: int = 0
    moves: int = 0
    refusals: int = 0
    server_errors: int = 0
    audits: int = 0
    audit_failures: int = 0
    unfinished: int = 0
    problems: list[str] = field(default_factory=list)

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.games + other.games, self.ended + other.ended, self.moves + other.moves,
                     self.refusals + other.refusals, self.server_errors + other.server_errors,
                     self.audits + other.audits, self.audit_failures + other.audit_failures,
                     self.unfinished + other.unfinished, self.problems + other.problems)

    @property
    def ok(self) -> bool:
        return self.server_errors == 0 and self.audit_failures == 0 and self.unfinished == 0

    def summary(self, seconds: float) -> str:
        return (f"games {self.games} (ended {self.ended}), moves {self.moves}, refusals {self.refusals}, "
                f"5xx {self.server_errors}, audits {self.audits}, audit failures {self.audit_failures}, "
                f"unfinished {self.unfinished}, {seconds:.1f} s")


class GaveUp(CairnError):
    """The bot stopped playing a game it could not go on with."""


class SeatBot:
    """Plays the seats (and the organiser) whose tokens it holds in one game, until the game is over."""

    def __init__(self, client: Client, game_id: str, tokens: dict[str, str], policy: Policy,
                 rng: random.Random | None = None, max_moves: int = 10_000):
        self.client = client
        self.game_id = game_id
        self.tokens = tokens
        self.policy = policy
        self.rng = rng or random.Random()
        self.max_moves = max_moves
        self.tally = Tally(games=1)
        self.logs: dict[str, list[Envelope]] = {}
        self.refused_in_a_row = 0

    def play(self) -> Tally:
        view = self._view()
        status, waiting, version = view["status"], view["waiting_for"], view["version"]
        while status == "active":
            if self.tally.moves >= self.max_moves:
                raise GaveUp(f"still going after {self.max_moves} moves")
            movers = [seat for seat in waiting if seat in self.tokens]
            offered, result = False, None
            for actor in movers:
                listed = self.client.get_legal_moves(self.game_id, token=self.tokens[actor])
                if listed["moves"]:
                    offered = True
                    result = self._submit(actor, listed)
                    break
            if result is not None:
                status, waiting, version = result["status"], result["waiting_for"], result["version"]
                continue
            if not offered:
                if movers and len(movers) == len(waiting):
                    raise GaveUp(f"the game waits for {', '.join(waiting)}, who are offered no moves")
                self._wait_for_a_move(version)
            view = self._view()
            status, waiting, version = view["status"], view["waiting_for"], view["version"]
        self.tally.ended = 1
        return self.tally

    def audit(self, timeout: float) -> None:
        """Check the game's hash chain and have a worker decide every command again; a failure is counted."""
        token = self._reader_token()
        self.tally.audits = 1
        try:
            report = self.client.audit(self.game_id, token=token, timeout=timeout)
            chain = self.client.check_integrity(self.game_id)
        except CairnError as error:
            self.tally.audit_failures = 1
            self.tally.problems.append(f"game {self.game_id}: audit not made: {error}")
            return
        if not (report.get("ok") and chain["ok"]):
            self.tally.audit_failures = 1
            found = report.get("first_failure") or {"first_bad_version": chain["first_bad_version"]}
            self.tally.problems.append(f"game {self.game_id}: audit failed: {json.dumps(found)}")

    def _submit(self, actor: str, listed: LegalMoves) -> dict[str, Any] | None:
        """Choose among ``listed`` for ``actor`` and submit; None when nothing was applied (stale or refused)."""
        token = self.tokens[actor]
        if actor == ORGANISER:
            move = chance_outcome(self.rng.choice(listed["moves"]), self.rng)
        else:
            move = self.policy.choose(actor, self._log(actor, token), listed["moves"])
        try:
            result = self.client.submit_move(self.game_id, move, token=token, expected_version=listed["version"])
        except StaleVersion:
            return None
        except ApiError as refusal:
            if refusal.status >= 500:
                raise
            self.tally.refusals += 1
            self.refused_in_a_row += 1
            if self.refused_in_a_row >= MAX_REFUSALS_IN_A_ROW:
                raise GaveUp(f"{self.refused_in_a_row} listed moves refused in a row, "
                             f"the last {json.dumps(move)}: {refusal}") from refusal
            return None
        self.refused_in_a_row = 0
        self.tally.moves += 1
        return dict(result)

    def _log(self, seat: str, token: str) -> list[Envelope]:
        """The game's event log as ``seat`` reads it, read incrementally: each event is fetched once."""
        log = self.logs.setdefault(seat, [])
        log.extend(self.client.iter_events(self.game_id, from_version=len(log) + 1, token=token))
        return log

    def _wait_for_a_move(self, version: int) -> None:
        """Block until the game has moved past ``version`` (or is over), on the live stream."""
        events = self.client.follow_game(self.game_id, token=self._reader_token(), last_event_id=version)
        next(events, None)
        events.close()

    def _view(self) -> GameView:
        return self.client.get_game(self.game_id, token=self._reader_token())

    def _reader_token(self) -> str:
        return self.tokens.get(ORGANISER) or next(iter(self.tokens.values()))


def chance_outcome(entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A complete ``resolve_chance`` body from an organiser's listed entry.

    An entry that already names its ``outcome`` is submitted as listed; a template listing its
    ``candidates`` gets ``count`` of them drawn at random, as a shuffled deck would give them.
    """
    if entry.get("type") != RESOLVE_CHANCE or entry.get("outcome") is not None or "candidates" not in entry:
        return entry
    count = int((entry.get("chance") or {}).get("count", 1))
    return {"type": RESOLVE_CHANCE, "outcome": rng.sample(list(entry["candidates"]), count)}


def run_game(client: Client, game_id: str, tokens: dict[str, str], policy: Policy, rng: random.Random, *,
             audit_timeout: float | None, max_moves: int) -> Tally:
    """One game played by one bot and audited (unless ``audit_timeout`` is None); what went wrong is tallied."""
    bot = SeatBot(client, game_id, tokens, policy, rng, max_moves)
    try:
        bot.play()
    except Exception as error:  # one game's failure, whatever it is, is reported; the others play on
        bot.tally.unfinished = 1
        bot.tally.problems.append(f"game {game_id}: {type(error).__name__}: {error}")
    if audit_timeout is not None and bot.tally.ended:
        bot.audit(audit_timeout)
    bot.tally.server_errors = sum(count for status, count in client.transport.statuses.items() if status >= 500)
    return bot.tally


def soak(url: str, game: str, players: int, *, games: int, concurrency: int, strength: str = "random",
         seed: str = "", chance_mode: str | None = None, options: dict[str, Any] | None = None,
         audit_timeout: float | None = 120.0, max_moves: int = 10_000,
         strengths: Mapping[str, Callable[[str], Policy]] = STRENGTHS) -> Tally:
    """``games`` games of ``game`` created and played to the end by bots on ``concurrency`` threads."""

    def one(index: int) -> Tally:
        with Client(url) as client:
            try:
                created = client.create_game(game, [f"Bot {n}" for n in range(1, players + 1)], options=options,
                                             chance_mode=chance_mode)
            except CairnError as error:
                statuses = client.transport.statuses
                return Tally(games=1, server_errors=sum(n for status, n in statuses.items() if status >= 500),
                             unfinished=1, problems=[f"game {index + 1} not created: {error}"])
            tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"] is not None}
            tokens[ORGANISER] = created["organiser_token"]
            return run_game(client, created["game_id"], tokens, strengths[strength](f"{seed}:{index}"),
                            random.Random(f"{seed}:{index}:chance"), audit_timeout=audit_timeout, max_moves=max_moves)

    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        return sum(pool.map(one, range(games)), Tally())


def play_seats(url: str, game_id: str, tokens: list[str], *, strength: str = "random", seed: str = "",
               audit_timeout: float | None = 120.0, max_moves: int = 10_000,
               strengths: Mapping[str, Callable[[str], Policy]] = STRENGTHS) -> Tally:
    """Play the seats of ``game_id`` whose tokens are given (the organiser's too) to the end of the game."""
    with Client(url) as client:
        held = {}
        try:
            for token in tokens:
                held[client.get_game(game_id, token=token)["reader"]] = token
        except CairnError as error:
            return Tally(games=1, unfinished=1, problems=[f"game {game_id}: {error}"])
        return run_game(client, game_id, held, strengths[strength](seed), random.Random(f"{seed}:chance"),
                        audit_timeout=audit_timeout, max_moves=max_moves)


def parser(prog: str = "python -m cairn_client.bot",
           strengths: Mapping[str, Callable[[str], Policy]] = STRENGTHS) -> argparse.ArgumentParser:
    command = argparse.ArgumentParser(prog=prog, description="Play seats of a Cairn game, or soak a service "
                                      "with games played by bots and audit every one.")
    command.add_argument("--url", default=os.environ.get("CAIRN_URL", DEFAULT_URL),
                         help=f"the service (default: $CAIRN_URL, else {DEFAULT_URL})")
    target = command.add_mutually_exclusive_group(required=True)
    target.add_argument("--game", metavar="ID", help="play the seats of this game whose tokens are given")
    target.add_argument("--create", metavar="GAME", help="create games of this name and play all their seats")
    command.add_argument("--token", action="append", default=[], help="a seat's or the organiser's token (repeat)")
    command.add_argument("--players", type=int, default=2, help="seats per created game (default 2)")
    command.add_argument("--chance-mode", choices=("server", "table"), help="of created games (default: server)")
    command.add_argument("--options", type=json.loads, help="the options of created games, as JSON")
    command.add_argument("--games", type=int, default=1, help="games to create and play (default 1)")
    command.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    command.add_argument("--strength", choices=sorted(strengths), default="random", help="how the bots play")
    command.add_argument("--seed", default=None, help="makes the bots' choices repeatable (default: random)")
    command.add_argument("--max-moves", type=int, default=10_000, help="give a game up after this many moves")
    command.add_argument("--audit-timeout", type=float, default=120.0,
                         help="seconds to wait for each game's audit by a worker (default 120)")
    command.add_argument("--no-audit", action="store_true", help="do not audit the games played")
    return command


def main(argv: list[str] | None = None, prog: str = "python -m cairn_client.bot",
         strengths: Mapping[str, Callable[[str], Policy]] = STRENGTHS) -> int:
    """``strengths`` may add levels to the random play this package has (``cairn bot`` adds the search bot's)."""
    command = parser(prog, strengths)
    args = command.parse_args(argv)
    if args.game and not args.token:
        command.error("--game needs at least one --token")
    seed = args.seed if args.seed is not None else os.urandom(8).hex()
    audit_timeout = None if args.no_audit else args.audit_timeout
    started = time.monotonic()
    if args.game:
        tally = play_seats(args.url, args.game, args.token, strength=args.strength, seed=seed,
                           audit_timeout=audit_timeout, max_moves=args.max_moves, strengths=strengths)
    else:
        tally = soak(args.url, args.create, args.players, games=args.games, concurrency=args.concurrency,
                     strength=args.strength, seed=seed, chance_mode=args.chance_mode, options=args.options,
                     audit_timeout=audit_timeout, max_moves=args.max_moves, strengths=strengths)
    for problem in tally.problems:
        print(problem, file=sys.stderr)
    print(tally.summary(time.monotonic() - started))
    return 0 if tally.ok else 1


if __name__ == "__main__":
    sys.exit(main())
