"""Full audits: the hash chain, then every command decided again by today's rules, then every draw.

One pass over the stored history, a page at a time: :class:`ChainCheck`
re-hashes each envelope (and its salted secret), :class:`HistoryCheck`
re-submits each recorded command to the match as it stood before it and
re-derives each server-side chance outcome from the seed. The report names
the first version that fails and what differs; it is kept in the game's hash
``cairn:{G}:audits`` under the audited version, because RQ keeps job results
for minutes only.

The seed is read from the store's private hash, so an audit of a game still
in play re-decides its draws too; its report then leaves out the recorded
and expected values, which could show a hidden card.
"""
from __future__ import annotations

import json
from datetime import UTC, datetime

from domain.core.chance import SERVER
from domain.registry import get_rules
from service.store import EventStore
from service.store.connection import StoreClient
from service.store.replies import text
from workers.chain import ChainCheck
from workers.context import current_store, current_store_client
from workers.exports import envelopes_up_to
from workers.findings import Finding
from workers.history import HistoryCheck


def audits_key(game_id: str) -> str:
    return f"cairn:{{{game_id}}}:audits"


def audit_game(store: EventStore, client: StoreClient, game_id: str, version: int) -> dict:
    meta = store.meta(game_id)
    seed = store.seed(game_id)
    chain = ChainCheck()
    history = HistoryCheck(get_rules, seed, adjudicate=True)
    revealed = False
    for envelope in envelopes_up_to(store, game_id, version):
        if chain.feed(envelope) is not None:
            break
        revealed = revealed or envelope["type"] == "game_ended"
        history.feed(envelope)
    finding = chain.finding or history.finish()
    if finding is None and version == meta["version"] and chain.head != meta["head_hash"]:
        finding = Finding(version, "chain", "the game's head hash is not its last event's hash",
                          meta["head_hash"], chain.head)
    finding_dict = finding.to_dict() if finding else None
    if finding_dict is not None and not revealed:
        finding_dict = {**finding_dict, "recorded": None, "expected": None}
    report = {
        "game_id": game_id,
        "version": version,
        "ok": finding_dict is None,
        "first_failure": finding_dict,
        "events_checked": chain.version,
        "commands_redecided": history.commands_checked,
        "chance_outcomes_rederived": history.draws_checked,
        "seed_revealed": revealed,
        "chance_mode": meta["chance_mode"],
        "notes": history.notes + _notes(meta, seed),
        "rules_version": get_rules(meta["game"]).rules_version,
        "audited_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
    }
    client.hset(audits_key(game_id), str(version), json.dumps(report))
    return report


def _notes(meta: dict, seed: str | None) -> list[str]:
    if meta["chance_mode"] == SERVER and seed is None:
        return ["the seed is missing from the store: server-side draws were not re-derived"]
    return []


def audit_report(client: StoreClient, game_id: str, version: int) -> dict | None:
    raw = client.hget(audits_key(game_id), str(version))
    return json.loads(text(raw)) if raw is not None else None


def audit_job(game_id: str, version: int) -> dict:
    return audit_game(current_store(), current_store_client(), game_id, version)
