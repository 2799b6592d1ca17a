"""Editing a stored history behind the store's back, as an attacker with Redis access would."""
from __future__ import annotations

import json
from collections.abc import Callable

import redis

from service.store.envelope import expected_hash, salted_hash
from service.store.keys import game_keys


def rewrite(client: redis.Redis, game_id: str, version: int, edit: Callable[[dict], None], rechain: bool) -> None:
    """Apply ``edit`` to the envelope at ``version``; with ``rechain``, recompute every later hash (and the meta
    head) so the chain is consistent again and only the rules can tell."""
    keys = game_keys(game_id)
    entries = [json.loads(fields[b"e"]) for _id, fields in client.xrange(keys.events)]
    edit(entries[version - 1])
    if rechain:
        for index in range(version - 1, len(entries)):
            if index:
                entries[index]["prev_hash"] = entries[index - 1]["hash"]
            entries[index]["hash"] = expected_hash(entries[index])
        client.hset(keys.meta, "head_hash", entries[-1]["hash"])
    client.delete(keys.events, keys.snapshot)
    for envelope in entries:
        client.xadd(keys.events, {"e": json.dumps(envelope)}, id=f"{envelope['version']}-0")


def rechain(envelopes: list[dict], start: int = 0) -> None:
    """Recompute every hash from index ``start`` on, salted hashes of the revealed parts too, as anyone holding
    an export of an ended game can."""
    for index in range(start, len(envelopes)):
        envelope = envelopes[index]
        if "secret" in envelope:
            envelope["secret_hash"] = salted_hash(envelope["secret_salt"], envelope["secret"])
        if "command" in envelope:
            envelope["command_hash"] = salted_hash(envelope["command_salt"], envelope["command"])
        if index:
            envelope["prev_hash"] = envelopes[index - 1]["hash"]
        envelope["hash"] = expected_hash(envelope)


def rechain_record(document: dict, version: int) -> None:
    """Re-chain a json record from ``version`` on and make its header and top level claim the new head."""
    rechain(document["events"], version - 1)
    head = document["events"][-1]["hash"]
    document["head_hash"] = document["header"]["head_hash"] = head
