"""What a record says about its events, held against the events themselves.

A record's header, its top-level ``seed``/``score_sheet``/``head_hash`` and
the ndjson trailer are outside the hash chain: they are claims, and an edit
to them leaves every hash intact. Each claim is checked against the event
that establishes it (``game_created`` for the game, players, options and
versions; the last event for the head; ``game_ended`` for the seed;
``game_scored`` for the score sheet), and the signature against the head
the events themselves reach.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.core.canonical import canonical_json
from service.signing import PublicKey, signed_head, verify_signature
from service.store.envelope import Envelope
from workers.findings import Finding

# Header field -> the field of game_created's data it repeats.
FROM_CREATED = {"game": "game", "rules_version": "rules_version", "data_versions": "data_versions",
                "players": "seats", "options": "options", "chance_mode": "chance_mode", "seed_hash": "seed_hash",
                "takebacks": "takebacks"}
SHOWN = 100


@dataclass
class Facts:
    """What the events establish, gathered in the chain pass."""

    game_id: str | None = None
    created: dict | None = None
    last_version: int = 0
    head_hash: str | None = None
    seed: str | None = None
    ended: bool = False
    scored_version: int | None = None
    scored_sheet: dict | None = None
    findings: list[Finding] = field(default_factory=list)

    def feed(self, envelope: Envelope) -> None:
        if self.created is None:
            self.game_id = envelope.get("game_id")
            self.created = envelope.get("data") or {}
        elif envelope.get("game_id") != self.game_id and not self.findings:
            self.findings.append(Finding(envelope["version"], "chain", f"the event belongs to game "
                                         f"{envelope.get('game_id')!r}, not {self.game_id!r}"))
        self.last_version = envelope["version"]
        self.head_hash = envelope["hash"]
        if envelope["type"] == "game_ended":
            self.ended = True
            self.seed = envelope["data"].get("seed")
        elif envelope["type"] == "game_scored":
            self.scored_version = envelope["version"]
            self.scored_sheet = envelope["data"].get("score_sheet")

    @property
    def status(self) -> str:
        return "scored" if self.scored_version is not None else "ended" if self.ended else "active"

    def head(self) -> dict:
        """The head the events reach: what the service's signature must cover."""
        seed_commitment = (self.created or {}).get("seed_hash")
        return signed_head(self.game_id or "", self.last_version, self.head_hash or "", seed_commitment)


def short(value: object) -> str:
    text = canonical_json(value)
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "\u2026"


def _differs(claimed: object, established: object) -> bool:
    return canonical_json(claimed) != canonical_json(established)


def header_findings(header: dict, facts: Facts, title: str | None) -> list[Finding]:
    """Every field of a ``json`` record's header that its events do not bear out."""
    findings = []
    created = facts.created or {}
    for name, source in FROM_CREATED.items():
        if _differs(header.get(name), created.get(source)):
            findings.append(Finding(1, "header", f"the header's {name} is {short(header.get(name))}, "
                                    f"game_created says {short(created.get(source))}",
                                    header.get(name), created.get(source)))
    established = {"game_id": facts.game_id, "version": facts.last_version, "head_hash": facts.head_hash,
                   "seed": facts.seed, "status": facts.status}
    if title is not None:
        established["title"] = title
    for name, value in established.items():
        if _differs(header.get(name), value):
            findings.append(Finding(facts.last_version, "header", f"the header's {name} is "
                                    f"{short(header.get(name))}, the events say {short(value)}",
                                    header.get(name), value))
    return findings


def record_findings(record: dict, facts: Facts) -> list[Finding]:
    """The top-level ``seed`` and ``head_hash`` of a ``json`` record, against its events."""
    findings = []
    if _differs(record.get("head_hash"), facts.head_hash):
        findings.append(Finding(facts.last_version, "chain", "the record's head_hash is not the hash of its last "
                                "event", record.get("head_hash"), facts.head_hash))
    if _differs(record.get("seed"), facts.seed):
        findings.append(Finding(facts.last_version, "seed", "the record's seed is not the one revealed by "
                                "game_ended", record.get("seed"), facts.seed))
    return findings


def score_findings(claims: dict[str, object], facts: Facts, computed: dict | None) -> list[Finding]:
    """Each claimed score sheet (``where`` -> sheet) against the one recorded in ``game_scored``, and against the
    sheet the rules compute when the fold got that far."""
    findings = []
    version = facts.scored_version or facts.last_version
    for where, sheet in claims.items():
        if _differs(sheet, facts.scored_sheet):
            findings.append(Finding(version, "score", f"the {where} is not the one recorded in game_scored",
                                    sheet, facts.scored_sheet))
        elif computed is not None and _differs(sheet, computed):
            findings.append(Finding(version, "score", f"the {where} is not the one the rules compute",
                                    sheet, computed))
    return findings


def signature_findings(signature: object, listed: Any, facts: Facts,
                       trusted: dict[str, PublicKey] | None) -> tuple[list[Finding], list[str]]:
    """The signature over the head the events reach, by a trusted key (``--key``), else by a key the file lists.

    A key the file lists proves only that the head was not edited after
    signing by whoever holds that key: the file could list a key of its own. ``listed`` is as the file has it,
    of any shape.
    """
    if trusted is not None:
        keys, origin = trusted, "the keys given"
    else:
        if signature is None:
            return [], ["the record is not signed: give an export made by a signing service"]
        try:
            keys = {key.key_id: key for key in map(PublicKey.from_dict, listed or [])}
        except (KeyError, TypeError, ValueError) as error:
            return [Finding(facts.last_version, "signature", f"the record's key list cannot be read: {error}")], []
        origin = "a key the record itself lists (give --key to check it is the service's)"
    problem = verify_signature(facts.head(), signature, {key_id: key.key for key_id, key in keys.items()})
    if problem is not None:
        return [Finding(facts.last_version, "signature", problem)], []
    used = keys[signature["key_id"]]  # type: ignore[index]  # verified, so a dict naming a known key
    retired = " (a retired key)" if used.status == "retired" else ""
    return [], [f"the head is signed by key {used.key_id}{retired}, {origin}"]
