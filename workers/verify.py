"""``cairn verify FILE``: check everything an exported record claims, offline, with Cairn's engines and nothing else.

For a ``json`` or ``ndjson`` export: the hash chain and every revealed
hidden part; the header (or ndjson trailer) against the events; once the
seed is revealed, its hash and every server draw; the score sheet against
the rules' own; unless ``--no-rules``, every recorded command decided again
from the file alone; and the signature over the head, by ``--key`` or else
by a key the file lists. A ``.cairn`` notation file has no hashes: it is
checked by replaying its moves through the rules. One line per finding;
exit 0 when there is none, 1 when there are, 2 when the file cannot be read.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.registry import get_rules
from service.signing import PublicKey
from service.store.envelope import Envelope
from workers.chain import ChainCheck
from workers.claims import Facts, header_findings, record_findings, score_findings, signature_findings
from workers.findings import Finding, Verdict
from workers.formats.record import RECORD_FORMAT
from workers.history import HistoryCheck, RulesFor
from workers.keyfile import trusted_keys
from workers.replay_check import verify_notation

TRAILER_KEY = "signed_head"


@dataclass(frozen=True)
class Claims:
    """What the file says outside its events: the ``json`` header and top level, or the ndjson trailer."""

    header: dict | None = None
    record: dict | None = None
    trailer: dict | None = None

    @property
    def signature(self) -> tuple[object, object]:
        """The signature and the keys the file lists with it."""
        source = self.header if self.header is not None else self.trailer or {}
        return source.get("signature"), source.get("keys")


def verify_envelopes(envelopes: Callable[[], Iterable[Envelope]], claims: Claims = Claims(),
                     rules_for: RulesFor = get_rules, adjudicate: bool = True,
                     keys: dict[str, PublicKey] | None = None) -> Verdict:
    """Two passes over ``envelopes()``: the chain and the facts it establishes, then the fold through the rules."""
    verdict = Verdict()
    chain, facts = ChainCheck(), Facts()
    for envelope in envelopes():
        chain.feed(envelope)
        facts.feed(envelope)
    if facts.created is None:
        raise ValueError("the record holds no event")
    verdict.events, verdict.head_hash, verdict.seed = facts.last_version, facts.head_hash, facts.seed
    verdict.findings += [finding for finding in (chain.finding,) if finding is not None] + facts.findings
    rules = _rules(rules_for, facts.created.get("game"))
    verdict.findings += _claim_findings(claims, facts, rules.title)
    history = HistoryCheck(rules_for, facts.seed, adjudicate=adjudicate)
    for envelope in envelopes():
        history.feed(envelope)
    history.finish()
    verdict.findings += history.findings
    verdict.findings += score_findings(_claimed_sheets(claims), facts, history.score_sheet)
    signed, notes = signature_findings(*claims.signature, facts, keys)
    verdict.findings += signed
    verdict.draws_checked, verdict.commands_checked = history.draws_checked, history.commands_checked
    verdict.score_checked = history.score_sheet is not None
    verdict.notes += history.notes + notes + _notes(facts, rules, adjudicate)
    return verdict


def _rules(rules_for: RulesFor, game: object):
    try:
        return rules_for(str(game))
    except KeyError:
        raise ValueError(f"this Cairn does not know the game {game!r}, so it cannot check its record") from None


def _claim_findings(claims: Claims, facts: Facts, title: str) -> list[Finding]:
    findings = []
    if claims.header is not None:
        findings += header_findings(claims.header, facts, title)
    if claims.record is not None:
        findings += record_findings(claims.record, facts)
    if claims.trailer is not None:
        head = facts.head()
        for name, claimed in (claims.trailer.get(TRAILER_KEY) or {}).items():
            if claimed != head.get(name):
                findings.append(Finding(facts.last_version, "header", f"the trailer's {name} is {claimed!r}, "
                                        f"the events say {head.get(name)!r}", claimed, head.get(name)))
    return findings


def _claimed_sheets(claims: Claims) -> dict[str, object]:
    sheets = {}
    if claims.header is not None:
        sheets["header's score_sheet"] = claims.header.get("score_sheet")
    if claims.record is not None:
        sheets["record's score_sheet"] = claims.record.get("score_sheet")
    return sheets


def _notes(facts: Facts, rules, adjudicate: bool) -> list[str]:
    notes = []
    created = facts.created or {}
    if created.get("chance_mode") == "server" and facts.seed is None:
        notes.append("the seed is not revealed in this record: chance outcomes not re-derived, "
                     "server-mode commands not decided again")
    if not adjudicate:
        notes.append("--no-rules: recorded commands were not decided again")
    if created.get("rules_version") != rules.rules_version or created.get("data_versions") != rules.data_versions():
        notes.append(f"recorded under rules version {created.get('rules_version')}; "
                     f"this Cairn has {rules.rules_version}")
    return notes


def verify_file(path: Path, rules_for: RulesFor = get_rules, adjudicate: bool = True,
                keys: dict[str, PublicKey] | None = None) -> Verdict:
    """A ``json`` record export, an ``ndjson`` export, or a ``.cairn`` notation file (replayed)."""
    with path.open(encoding="utf-8") as handle:
        start = handle.read(64).lstrip()
    if start.startswith("["):
        return verify_notation(path.read_text(encoding="utf-8"), rules_for, keys)
    if start.startswith("{") and '"format"' in start:
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a {RECORD_FORMAT} file")
        return verify_envelopes(lambda: record["events"], Claims(header=record["header"], record=record),
                                rules_for, adjudicate, keys)
    lines = NdjsonFile(path)
    return verify_envelopes(lines.envelopes, lines.claims(), rules_for, adjudicate, keys)


class NdjsonFile:
    """One envelope a line, then the signed head as the last line (a stream cut short lacks it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.trailer: dict | None = None

    def envelopes(self) -> Iterator[Envelope]:
        for number, line in enumerate(self._lines(), start=1):
            if self.trailer is not None:
                raise ValueError(f"line {number} follows the signed head, which must be the last line")
            if TRAILER_KEY in line:
                self.trailer = line
            else:
                yield line

    def claims(self) -> Claims:
        if self.trailer is None:
            for _ in self.envelopes():
                pass
        return Claims(trailer=self.trailer or {})

    def _lines(self) -> Iterator[Any]:
        """Each line's JSON value, of whatever shape the file holds."""
        self.trailer = None
        with self.path.open(encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    yield json.loads(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cairn verify", description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args.file, args.key, args.no_rules)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a json, ndjson or .cairn export of a game")
    parser.add_argument("--key", help="the service's public keys: the JSON of GET /keys, its URL, or a public key "
                                      "file; the record's signature must be by one of them")
    parser.add_argument("--no-rules", action="store_true", help="do not decide every recorded command again")


def run(file: Path, key: str | None, no_rules: bool) -> int:
    try:
        keys = trusted_keys(key) if key else None
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"cannot read the keys {key}: {error}", file=sys.stderr)
        return 2
    try:
        verdict = verify_file(file, adjudicate=not no_rules, keys=keys)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"cannot read {file}: {error}", file=sys.stderr)
        return 2
    for note in verdict.notes:
        print(f"note: {note}")
    for finding in sorted(verdict.findings, key=lambda finding: finding.version):
        print(f"FAILED at version {finding.version}: {finding.check}: {finding.message}")
    if verdict.findings:
        return 1
    print(f"OK: {summary(verdict)}")
    return 0


def summary(verdict: Verdict) -> str:
    parts = [f"{verdict.events} events"]
    if verdict.head_hash is not None:
        parts.append(f"hash chain intact up to {verdict.head_hash}")
    parts.append(f"{verdict.draws_checked} chance outcomes re-derived from the seed" if verdict.seed
                 else "seed not revealed")
    parts.append(f"{verdict.commands_checked} commands decided again")
    if verdict.score_checked:
        parts.append("score sheet recomputed")
    return ", ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
