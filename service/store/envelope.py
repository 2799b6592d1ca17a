"""Envelopes and the hash chain.

Each stored event is an envelope whose ``hash`` is
``sha256(prev_hash + canonical_json(envelope without hash, secret, secret_salt,
command, command_salt))`` (and without the markers redaction adds).
The two parts a reader may be refused, the secret and the command that
produced the batch (it can name a card from a hand), are covered through
salted hashes, ``secret_hash`` and ``command_hash``: the salt keeps a reader
of a redacted envelope from guessing a hidden card by hashing candidates, and
a redacted history, which keeps the hashes and drops the rest, still verifies
in full. Anyone can check an export offline with nothing but this module.
"""
from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import NotRequired

from domain.core.canonical import canonical_json, sha256_hex
from domain.core.events import ORGANISER, SECRET_KEYS, Event, JsonObject, redact_event
from domain.core.upcasting import FIRST_VERSION, SCHEMA_VERSION

GENESIS_HASH = "0" * 64
COMMAND_KEYS = ("command", "command_salt")
COMMAND_WITHHELD = "command_redacted"
# Left out of the hash: the hash itself, the parts covered by their own salted
# hashes, and the markers redaction adds in their place.
UNHASHED_KEYS = frozenset({"hash", "redacted", COMMAND_WITHHELD, *SECRET_KEYS, *COMMAND_KEYS})
_PREV_HASH_KEY = ',"prev_hash":'


class EnvelopeBody(Event):
    """An envelope but for its hash: the event at its version, with where, when and under which rules."""

    game_id: str
    version: int
    command_id: str
    time: str
    rules_version: str
    prev_hash: str
    # The command that produced the batch rides in its first envelope, covered by a salted hash of its own.
    command_hash: NotRequired[str]
    command: NotRequired[JsonObject]
    command_salt: NotRequired[str]
    secret_hash: NotRequired[str]
    # Set where redaction withheld the command from its reader.
    command_redacted: NotRequired[bool]


class Envelope(EnvelopeBody):
    """A stored event, as ``api_spec.yaml`` describes it."""

    hash: str


def seal(
    event: Event,
    *,
    game_id: str,
    version: int,
    prev_hash: str,
    command_id: str,
    time: str,
    rules_version: str,
    command: JsonObject | None = None,
) -> tuple[Envelope, str]:
    """The envelope of ``event`` at ``version`` and its canonical JSON, as stored."""
    body: EnvelopeBody = {
        "game_id": game_id,
        "version": version,
        "type": event["type"],
        "seat": event.get("seat"),
        "data": event["data"],
        "command_id": command_id,
        "time": time,
        "rules_version": rules_version,
        "schema_version": event.get(SCHEMA_VERSION, FIRST_VERSION),
        "prev_hash": prev_hash,
    }
    if command is None and "secret" not in event:
        public = canonical_json(body)
        envelope: Envelope = {**body, "hash": sha256_hex(prev_hash + public)}
        return envelope, _with_hash(public, envelope["hash"])
    command_salt = secret_salt = ""
    if command is not None:
        command_salt = secrets.token_hex(16)
        body["command_hash"] = salted_hash(command_salt, command)
    if "secret" in event:
        secret_salt = secrets.token_hex(16)
        body["secret_to"] = list(event.get("secret_to") or [])
        body["secret_hash"] = salted_hash(secret_salt, event["secret"])
    envelope = {**body, "hash": sha256_hex(prev_hash + canonical_json(body))}
    if command is not None:
        envelope["command"], envelope["command_salt"] = command, command_salt
    if "secret" in event:
        envelope["secret"], envelope["secret_salt"] = event["secret"], secret_salt
    return envelope, canonical_json(envelope)


def salted_hash(salt: str, value: object) -> str:
    return sha256_hex(salt + canonical_json(value))


def _with_hash(body: str, hash_: str) -> str:
    """Insert ``"hash"`` into a public envelope's canonical JSON instead of encoding it twice.

    ``hash`` sorts right before ``prev_hash``, and every key after
    ``prev_hash`` holds a scalar, so the last ``,"prev_hash":`` is the top-level one.
    """
    at = body.rindex(_PREV_HASH_KEY)
    return f'{body[:at]},"hash":"{hash_}"{body[at:]}'


def expected_hash(envelope: Envelope) -> str:
    body = {key: value for key, value in envelope.items() if key not in UNHASHED_KEYS}
    return sha256_hex(envelope["prev_hash"] + canonical_json(body))


def hidden_parts_intact(envelope: Envelope) -> bool:
    """A present secret or command must match its salted hash; a redacted one is vouched for by the chain."""
    if "secret" in envelope and envelope.get("secret_hash") != salted_hash(
        envelope.get("secret_salt", ""), envelope["secret"]
    ):
        return False
    return "command" not in envelope or envelope.get("command_hash") == salted_hash(
        envelope.get("command_salt", ""), envelope["command"]
    )


def redact_envelope(envelope: Envelope, reader: str | None, revealed: bool) -> Envelope:
    """An envelope as ``reader`` may see it: secrets redacted, and the command only for the seat that sent it.

    A command can name what only its sender knows (the card swapped from a
    hand, the outcome the organiser drew), so until the game ends other
    readers see the events it produced, not the command itself.
    """
    shown = redact_event(envelope, reader, revealed)
    command = shown.get("command")
    if command is not None and not (revealed or reader == ORGANISER or command.get("seat") == reader):
        shown = shown.copy()
        del shown["command"]
        shown.pop("command_salt", None)
        shown["command_redacted"] = True
    return shown


def links(envelope: Envelope, prev_hash: str, version: int) -> bool:
    """Whether ``envelope`` is intact and is the event at ``version`` right after ``prev_hash``."""
    return (
        envelope.get("version") == version
        and envelope.get("prev_hash") == prev_hash
        and envelope.get("hash") == expected_hash(envelope)
        and hidden_parts_intact(envelope)
    )


def first_bad_version(envelopes: Iterable[Envelope]) -> int | None:
    """The first version whose envelope breaks the chain (edited, missing, reordered), or ``None``.

    Works on a whole history alone, e.g. an export, redacted or not.
    """
    prev_hash = GENESIS_HASH
    for version, envelope in enumerate(envelopes, start=1):
        if not links(envelope, prev_hash, version):
            return version
        prev_hash = envelope["hash"]
    return None
