"""``cairn verify`` on a ``.cairn`` notation file: it has no hashes, so it is checked by replaying it.

Every move and chance outcome is submitted again through the rules (with the
revealed seed, each outcome must be the one the seed draws), then the tags
are held to the replay: ``Version``, ``ScoreSheet`` and ``SeedHash``. What
cannot be shown from notation alone is said in a note: that no move was
edited (there is no hash to break) and that the ``Signature`` tag, which
covers the ``GameId``, ``Version``, ``HeadHash`` and ``SeedHash`` tags, covers
these moves (only the json or ndjson export ties the head to its events).
"""
from __future__ import annotations

import json

from domain.core.canonical import canonical_json, sha256_hex
from domain.core.chance import SERVER
from domain.core.match import Match
from domain.core.table import score_sheet
from service.signing import PublicKey, signed_head, verify_signature
from workers.findings import Finding, Verdict
from workers.formats.notation import Chance, Move, Notation, ReplayError, parse_notation, replay_notation
from workers.history import RulesFor

LIMITS = ("a .cairn file has no hashes: it was checked by replaying its moves through the rules; that no move was "
          "edited, and that its signature covers these moves, only the json or ndjson export can show")


def verify_notation(text: str, rules_for: RulesFor, keys: dict[str, PublicKey] | None) -> Verdict:
    notation = parse_notation(text)
    tags = notation.tags
    try:
        rules = rules_for(tags["Game"])
    except KeyError:
        raise ValueError(f"this Cairn does not know the game {tags.get('Game')!r}, so it cannot replay it") from None
    verdict = Verdict(notes=[LIMITS])
    seed = tags.get("Seed") if tags.get("ChanceMode") == SERVER else None
    if seed is not None and tags.get("SeedHash") not in (None, sha256_hex(seed)):
        verdict.findings.append(Finding(1, "seed", "the Seed tag does not match the SeedHash tag"))
        seed = None
    verdict.seed = seed
    try:
        match = replay_notation(notation, rules, seed)
    except ReplayError as error:
        verdict.findings.append(Finding(error.version, error.check, error.message))
    else:
        verdict.findings += _tag_findings(tags, match)
        verdict.events = match.version
        verdict.score_checked = "ScoreSheet" in tags
        verdict.commands_checked = sum(isinstance(line, Move) for line in notation.lines)
        verdict.draws_checked = sum(isinstance(line, Chance) for line in notation.lines) if seed else 0
    verdict.findings += _signature_findings(notation, keys, verdict.notes)
    return verdict


def _tag_findings(tags: dict[str, str], match: Match) -> list[Finding]:
    findings = []
    if "Version" in tags and tags["Version"] != str(match.version):
        findings.append(Finding(match.version, "header", f"the Version tag is {tags['Version']}, the moves replay "
                                f"to version {match.version}"))
    if "ScoreSheet" in tags:
        claimed = json.loads(tags["ScoreSheet"])
        computed = score_sheet(match) if match.ended else None
        if computed is None or canonical_json(claimed) != canonical_json(computed):
            findings.append(Finding(match.version, "score", "the ScoreSheet tag is not the one the rules compute",
                                    claimed, computed))
    return findings


def _signature_findings(notation: Notation, keys: dict[str, PublicKey] | None, notes: list[str]) -> list[Finding]:
    tags = notation.tags
    if "Signature" not in tags:
        unsigned = Finding(int(tags.get("Version", "0")), "signature", "the record is not signed")
        return [unsigned] if keys is not None else []
    if keys is None:
        notes.append("the Signature tag is checked only against keys given with --key")
        return []
    head = signed_head(tags.get("GameId", ""), int(tags.get("Version", "0")), tags.get("HeadHash", ""),
                       tags.get("SeedHash"))
    problem = verify_signature(head, json.loads(tags["Signature"]), {key_id: key.key for key_id, key in keys.items()})
    if problem is not None:
        return [Finding(head["version"], "signature", problem)]
    notes.append("the Signature tag is the service's, over the GameId, Version, HeadHash and SeedHash tags")
    return []
