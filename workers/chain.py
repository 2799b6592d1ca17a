"""The hash chain of a game's envelopes, checked one envelope at a time, with the reason it breaks.

The hash itself is defined once, in :mod:`service.store.envelope` (pure, no
Redis needed): ``hash = sha256(prev_hash + canonical_json(envelope without hash,
secret, secret_salt, redacted))`` and ``secret_hash = sha256(secret_salt +
canonical_json(secret))``, and likewise ``command_hash`` for the command, so
an envelope redacted for its reader re-hashes like any other.
"""
from __future__ import annotations

from service.store.envelope import GENESIS_HASH, Envelope, expected_hash, hidden_parts_intact
from workers.findings import Finding


class ChainCheck:
    """Feed envelopes in version order; the first broken link is kept in ``finding``."""

    def __init__(self) -> None:
        self.head = GENESIS_HASH
        self.version = 0
        self.finding: Finding | None = None

    def feed(self, envelope: Envelope) -> Finding | None:
        if self.finding is None:
            self.finding = self._check(envelope)
            if self.finding is None:
                self.head = envelope["hash"]
                self.version = envelope["version"]
        return self.finding

    def _check(self, envelope: Envelope) -> Finding | None:
        version = envelope.get("version")
        expected_version = self.version + 1
        if version != expected_version:
            return Finding(expected_version, "chain", f"expected version {expected_version}, found {version!r}")
        if envelope.get("prev_hash") != self.head:
            return Finding(version, "chain", "prev_hash is not the hash of the previous event",
                           envelope.get("prev_hash"), self.head)
        computed = expected_hash(envelope)
        if envelope.get("hash") != computed:
            return Finding(version, "chain", "the event does not match its hash", envelope.get("hash"), computed)
        if not hidden_parts_intact(envelope):
            return Finding(version, "secret", "a hidden part does not match its salted hash")
        return None
