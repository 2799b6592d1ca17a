"""``cairn verify FILE``: check an exported record offline, with no server and no Redis.

Checks (a) the hash chain from the first event to the head, including the
salted hashes of every hidden part the file reveals, and (c) once the seed is
revealed, that it matches the hash published at creation and re-derives
every server-side chance outcome. Exit status 0 when everything holds, 1
naming the first bad version, 2 when the file cannot be read.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from domain.registry import get_rules
from workers.chain import ChainCheck
from workers.findings import Finding
from workers.formats.record import RECORD_FORMAT
from workers.history import HistoryCheck, RulesFor


@dataclass
class Verdict:
    events: int = 0
    head_hash: str | None = None
    seed: str | None = None
    draws_checked: int = 0
    finding: Finding | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.finding is None


def verify_envelopes(envelopes: Callable[[], Iterable[dict]], rules_for: RulesFor = get_rules,
                     trailer: dict | None = None) -> Verdict:
    """Two passes over ``envelopes()``: the chain (which also finds the revealed seed), then the draws."""
    verdict = Verdict()
    chain = ChainCheck()
    for envelope in envelopes():
        if chain.feed(envelope) is not None:
            verdict.finding = chain.finding
            return verdict
        verdict.events += 1
        if envelope["type"] == "game_ended":
            verdict.seed = envelope["data"].get("seed")
    verdict.head_hash = chain.head if verdict.events else None
    verdict.finding = _check_trailer(verdict, trailer or {})
    if verdict.finding is not None:
        return verdict
    if verdict.seed is None:
        verdict.notes.append("the seed is not revealed in this record: chance outcomes not re-derived")
        return verdict
    game = next(iter(envelopes()))["data"].get("game")
    try:
        rules_for(game)
    except KeyError:
        raise ValueError(f"this Cairn does not know the game {game!r}, so it cannot re-derive its draws") from None
    history = HistoryCheck(rules_for, verdict.seed, adjudicate=False)
    for envelope in envelopes():
        if history.feed(envelope) is not None:
            break
    verdict.finding = history.finish()
    verdict.draws_checked = history.draws_checked
    verdict.notes.extend(history.notes)
    return verdict


def _check_trailer(verdict: Verdict, trailer: dict) -> Finding | None:
    if trailer.get("head_hash") is not None and trailer["head_hash"] != verdict.head_hash:
        return Finding(verdict.events, "chain", "the record's head_hash is not the hash of its last event",
                       trailer["head_hash"], verdict.head_hash)
    if trailer.get("seed") is not None and trailer["seed"] != verdict.seed:
        return Finding(verdict.events, "seed", "the record's seed is not the one revealed by game_ended")
    return None


def verify_file(path: Path, rules_for: RulesFor = get_rules) -> Verdict:
    """A ``json`` record export, or an ``ndjson`` export (one envelope a line)."""
    with path.open(encoding="utf-8") as handle:
        start = handle.read(64).lstrip()
    if start.startswith("{") and '"format"' in start:
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a {RECORD_FORMAT} file")
        return verify_envelopes(lambda: record["events"], rules_for, record)
    return verify_envelopes(lambda: _ndjson_lines(path), rules_for)


def _ndjson_lines(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cairn verify", description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="a json or ndjson export of a game")
    args = parser.parse_args(argv)
    try:
        verdict = verify_file(args.file)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    for note in verdict.notes:
        print(f"note: {note}")
    if verdict.finding is not None:
        print(f"FAILED at version {verdict.finding.version}: {verdict.finding.check}: {verdict.finding.message}")
        return 1
    draws = f"{verdict.draws_checked} chance outcomes re-derived from the seed" if verdict.seed else "seed not revealed"
    print(f"OK: {verdict.events} events, hash chain intact up to {verdict.head_hash}, {draws}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
