"""The keys ``cairn verify --key`` trusts: the JSON of ``GET /keys`` (a file or its URL), or one public key.

A URL is fetched with a plain HTTP GET; a file may hold the ``/keys``
document, one key of it, a PEM public (or private) key, or the raw 32 bytes
of an Ed25519 public key, as bytes or base64url text.
"""
from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from service.signing import ACTIVE, PublicKey, from_b64url

FETCH_SECONDS = 30
RAW_KEY_BYTES = 32


def trusted_keys(source: str) -> dict[str, PublicKey]:
    """Key id -> key, from ``source``; ``ValueError`` when it holds no Ed25519 public key."""
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=FETCH_SECONDS) as answer:  # noqa: S310 (the user's URL)
            raw = answer.read()
    else:
        raw = Path(source).read_bytes()
    keys = _parse(raw)
    if not keys:
        raise ValueError(f"{source} lists no key")
    return {key.key_id: key for key in keys}


def _parse(raw: bytes) -> list[PublicKey]:
    text = raw.strip()
    if text.startswith(b"{") or text.startswith(b"["):
        document = json.loads(text)
        listed = document.get("keys", [document]) if isinstance(document, dict) else document
        return [PublicKey.from_dict(key) for key in listed]
    if text.startswith(b"-----BEGIN"):
        return [PublicKey(_pem_public(text), ACTIVE, "")]
    if len(raw) == RAW_KEY_BYTES:
        return [PublicKey(Ed25519PublicKey.from_public_bytes(raw), ACTIVE, "")]
    return [PublicKey(Ed25519PublicKey.from_public_bytes(from_b64url(text.decode("ascii"))), ACTIVE, "")]


def _pem_public(pem: bytes) -> Ed25519PublicKey:
    if b"PRIVATE KEY" in pem:
        private = serialization.load_pem_private_key(pem, password=None)
        if isinstance(private, Ed25519PrivateKey):
            return private.public_key()
        raise ValueError("not an Ed25519 key")
    public = serialization.load_pem_public_key(pem)
    if not isinstance(public, Ed25519PublicKey):
        raise ValueError("not an Ed25519 key")
    return public
