"""Envelopes and the hash chain.

Each stored event is an envelope whose ``hash`` is
``sha256(prev_hash + canonical_json(envelope without hash, secret, secret_salt))``
(and without the ``redacted`` marker that redaction adds).
The secret part is covered through ``secret_hash`` (salted, so a reader of a
redacted envelope cannot guess a hidden card from it); that is why a redacted
history, which keeps ``secret_hash`` and drops the rest, still verifies, and
why anyone can check an export offline with nothing but this module.
"""
from __future__ import annotations

import secrets
from collections.abc import Iterable

from domain.core.canonical import canonical_json, sha256_hex
from domain.core.events import SECRET_KEYS, Event

GENESIS_HASH = "0" * 64
# Left out of the hash: the hash itself, the secret part (covered by ``secret_hash``)
# and the marker redaction adds in place of the secret.
UNHASHED_KEYS = frozenset({"hash", "redacted", *SECRET_KEYS})
_PREV_HASH_KEY = ',"prev_hash":'


def seal(
    event: Event,
    *,
    game_id: str,
    version: int,
    prev_hash: str,
    command_id: str,
    time: str,
    rules_version: str,
    command: dict | None = None,
) -> tuple[dict, str]:
    """The envelope of ``event`` at ``version`` and its canonical JSON, as stored."""
    envelope = {
        "game_id": game_id,
        "version": version,
        "type": event["type"],
        "seat": event.get("seat"),
        "data": event["data"],
        "command_id": command_id,
        "time": time,
        "rules_version": rules_version,
        "prev_hash": prev_hash,
    }
    if command is not None:
        envelope["command"] = command
    if "secret" not in event:
        body = canonical_json(envelope)
        envelope["hash"] = sha256_hex(prev_hash + body)
        return envelope, _with_hash(body, envelope["hash"])
    salt = secrets.token_hex(16)
    envelope["secret_to"] = list(event.get("secret_to") or [])
    envelope["secret_hash"] = sha256_hex(salt + canonical_json(event["secret"]))
    envelope["hash"] = sha256_hex(prev_hash + canonical_json(envelope))
    envelope["secret"] = event["secret"]
    envelope["secret_salt"] = salt
    return envelope, canonical_json(envelope)


def _with_hash(body: str, hash_: str) -> str:
    """Insert ``"hash"`` into a public envelope's canonical JSON instead of encoding it twice.

    ``hash`` sorts right before ``prev_hash``, and every key after
    ``prev_hash`` holds a scalar, so the last ``,"prev_hash":`` is the top-level one.
    """
    at = body.rindex(_PREV_HASH_KEY)
    return f'{body[:at]},"hash":"{hash_}"{body[at:]}'


def expected_hash(envelope: dict) -> str:
    body = {key: value for key, value in envelope.items() if key not in UNHASHED_KEYS}
    return sha256_hex(envelope["prev_hash"] + canonical_json(body))


def secret_intact(envelope: dict) -> bool:
    """A present secret must match its salted hash; a redacted one is taken on the chain's word."""
    if "secret" not in envelope:
        return True
    salt = envelope.get("secret_salt", "")
    return envelope.get("secret_hash") == sha256_hex(salt + canonical_json(envelope["secret"]))


def links(envelope: dict, prev_hash: str, version: int) -> bool:
    """Whether ``envelope`` is intact and is the event at ``version`` right after ``prev_hash``."""
    return (
        envelope.get("version") == version
        and envelope.get("prev_hash") == prev_hash
        and envelope.get("hash") == expected_hash(envelope)
        and secret_intact(envelope)
    )


def first_bad_version(envelopes: Iterable[dict]) -> int | None:
    """The first version whose envelope breaks the chain (edited, missing, reordered), or ``None``.

    Works on a whole history alone, e.g. an export, redacted or not.
    """
    prev_hash = GENESIS_HASH
    for version, envelope in enumerate(envelopes, start=1):
        if not links(envelope, prev_hash, version):
            return version
        prev_hash = envelope["hash"]
    return None
