"""Golden playthroughs: record a history once, then replay its commands through today's engines.

A playthrough file is plain text, one fact a line, so that a change of the engines shows as a readable diff:

    created                       the opening batch
      event {...}                 each event as canonical JSON
      state 1f0c...               a hash of the state after the batch
    move p1 {"type": ...}         a command, and its batch below it
      event {...}
      state ...
    score {...}                   the final score sheet

Recording plays random legal moves from the case's policy seed; replaying reads only the ``move`` lines and
writes the file again from what the engines now do with them, so the two texts are equal exactly when every
event, state and score is. ``python -m tests.playthroughs.record`` (``./run playthroughs``) writes them anew
for a rules change that is meant, and refuses when a game's history changed under an unchanged
``rules_version``: the games recorded under the old rules must be flagged by their audits.
"""
from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from domain.core.canonical import canonical_json
from domain.core.errors import IllegalMove
from domain.core.match import Match, apply_event, create, legal_moves, may_act, replaying, submit, waiting_for
from domain.core.table import score_sheet
from domain.core.takeback import Earlier
from domain.registry import get_rules
from tests.playthroughs.cases import CASES, Case

FOLDER = Path(__file__).resolve().parent
MAX_MOVES = 5000
POLICY_SEEDS = 20
Policy = Callable[[Match], tuple[str, dict]]


def random_policy(seed: int) -> Policy:
    """Uniformly random legal play; the organiser of a table game draws uniformly from the candidates."""
    rng = random.Random(seed)

    def choose(match: Match) -> tuple[str, dict]:
        awaited = waiting_for(match)
        actor = rng.choice([*awaited, *(seat for seat in may_act(match) if seat not in awaited)])
        move = rng.choice(legal_moves(match, actor))
        if "candidates" in move:
            move = {"type": move["type"], "outcome": rng.sample(move["candidates"], move["chance"]["count"])}
        return actor, move

    return choose


def resigning(policy: Policy, after: int | None) -> Policy:
    """``policy``, but its ``after``-th move is a resignation (TABLE-RESIGN-1) by the first seat awaited (the
    first seat when the organiser is): the game ends there, scored by TABLE-RESIGN-2."""
    made = 0

    def choose(match: Match) -> tuple[str, dict]:
        nonlocal made
        made += 1
        if after is None or made <= after:
            return policy(match)
        seat = next((seat for seat in waiting_for(match) if seat in match.seats), match.seats[0])
        return seat, {"type": "resign"}

    return choose


def taking_back(policy: Policy, after: int | None) -> Policy:
    """``policy``, but from its ``after``-th move on, once: the seat that made the last command asks to take
    it back as soon as it may (TABLE-TAKEBACK-1), and every seat asked accepts in turn (TABLE-TAKEBACK-3)."""
    made = 0
    last: str | None = None
    asked = False

    def choose(match: Match) -> tuple[str, dict]:
        nonlocal made, last, asked
        made += 1
        request = match.takeback.request
        if request is not None:
            return request["waiting_for"][0], {"type": "accept_takeback"}
        if after is not None and made > after and not asked and last is not None:
            try:
                submit(match, last, {"type": "request_takeback"})
            except IllegalMove:
                pass
            else:
                asked = True
                return last, {"type": "request_takeback"}
        last, command = policy(match)
        return last, command

    return choose


def recorded_policy(moves: list[tuple[str, dict]]) -> Policy:
    """The moves of a playthrough file, in order."""
    remaining = iter(moves)

    def choose(match: Match) -> tuple[str, dict]:
        try:
            return next(remaining)
        except StopIteration:
            raise AssertionError(f"the recorded moves ran out at version {match.version}, "
                                 "but the game is not over") from None

    return choose


def play(case: Case, policy: Policy, policy_seed: int) -> str:
    """The playthrough text of ``case`` played by ``policy`` (random from ``policy_seed``) to its end."""
    rules = get_rules(case.game)
    names = [f"Player {n}" for n in range(1, case.players + 1)]
    match, events = create(rules, case.options, names, case.chance_mode, case.seed)
    lines = [*_header(case, rules.rules_version, policy_seed), "created"]
    lines += _batch(match, events, fold=False)
    earlier = replaying(events, get_rules)  # ``events`` grows with every batch: a takeback rewinds into it
    for _ in range(MAX_MOVES):
        if match.ended:
            break
        actor, command = policy(match)
        lines.append(f"move {actor} {canonical_json(command)}")
        made = submit(match, actor, command, case.seed, earlier)
        lines += _batch(match, made, earlier=earlier)
        events += made
    else:
        raise AssertionError(f"{case.path}: no end after {MAX_MOVES} moves")
    lines.append(f"score {canonical_json(score_sheet(match))}")
    return "\n".join(lines) + "\n"


def _header(case: Case, rules_version: str, policy_seed: int) -> list[str]:
    return [
        "# A golden playthrough: regenerate with ./run playthroughs (docs/playthroughs.md)",
        f"game {case.game}",
        f"rules_version {rules_version}",
        f"players {case.players}",
        f"options {canonical_json(case.options)}",
        f"chance_mode {case.chance_mode}",
        f"seed {case.seed}",
        f"policy_seed {policy_seed}",
    ]


def _batch(match: Match, events: list, fold: bool = True, earlier: Earlier | None = None) -> list[str]:
    """The lines of one batch; ``fold`` it into ``match`` unless it is there already (the opening batch)."""
    lines = [f"  event {canonical_json(event)}" for event in events]
    for event in events if fold else ():
        apply_event(match, event, earlier)
    state = canonical_json(match.rules.state_to_json(match.state))
    lines.append(f"  state {hashlib.sha256(state.encode()).hexdigest()[:16]}")
    return lines


def recorded_moves(text: str) -> list[tuple[str, dict]]:
    moves = []
    for line in text.splitlines():
        if line.startswith("move "):
            _, actor, command = line.split(" ", 2)
            moves.append((actor, json.loads(command)))
    return moves


def recorded(text: str, key: str) -> str | None:
    """A header line's value."""
    return next((line.split(" ", 1)[1] for line in text.splitlines() if line.startswith(f"{key} ")), None)


def longest_random_game(case: Case) -> str:
    """Of the random games from the first policy seeds, the one with the most moves: random play ends most
    games early (a shared defeat, a stalled expedition), and a longer history pins more of the rules."""
    games = (play(case, taking_back(resigning(random_policy(seed), case.resign_after), case.takeback_after), seed)
             for seed in range(1, POLICY_SEEDS + 1))
    return max(games, key=lambda text: text.count("\nmove "))


def replay(case: Case) -> tuple[str, str]:
    """The checked-in text of ``case`` and the text today's engines make of its moves."""
    golden = (FOLDER / case.path).read_text(encoding="utf-8")
    try:
        return golden, _replayed(case, golden)
    except Exception as error:  # noqa: BLE001 - a refused recorded move is a difference like any other
        return golden, f"replay stopped: {type(error).__name__}: {error}\n"


def _replayed(case: Case, golden: str) -> str:
    return play(case, recorded_policy(recorded_moves(golden)), int(recorded(golden, "policy_seed") or 0))


def difference(case: Case, golden: str, replayed: str, context: int = 2, limit: int = 60) -> str:
    diff = difflib.unified_diff(golden.splitlines(), replayed.splitlines(), f"{case.path} (recorded)",
                                f"{case.path} (replayed now)", n=context, lineterm="")
    lines = list(diff)
    shown = "\n".join(line[:400] for line in lines[:limit])
    return shown + (f"\n... {len(lines) - limit} more diff lines" if len(lines) > limit else "")


def regenerate(cases: Iterator[Case], force: bool = False) -> list[str]:
    """Write every case's file anew; the problems found (a changed history under an unchanged rules version)."""
    problems = []
    for case in cases:
        path = FOLDER / case.path
        if path.is_file() and not force:
            old = path.read_text(encoding="utf-8")
            same_version = recorded(old, "rules_version") == get_rules(case.game).rules_version
            if same_version and _replayed(case, old) != old:
                problems.append(f"{case.path}: the engine now plays its history differently, but {case.game}'s "
                                "rules_version is unchanged; raise it so the audits flag games recorded before")
                continue
            if same_version:
                continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(longest_random_game(case), encoding="utf-8")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./run playthroughs", description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="only this game's playthroughs")
    parser.add_argument("--force", action="store_true", help="rewrite even where the rules version is unchanged")
    args = parser.parse_args(argv)
    chosen = (case for case in CASES if args.game in (None, case.game))
    problems = regenerate(chosen, force=args.force)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
