"""Signed heads: the service's Ed25519 key pair, and signatures over a game's head.

A hash chain shows that a history was not edited *after* its head was known;
anyone who holds the file can still edit an event and recompute every later
hash. A signature by a key only the service holds anchors the head: it covers
``canonical_json({"game_id", "version", "head_hash", "seed_commitment"})``
(``seed_commitment`` is ``game_created.data.seed_hash``, ``null`` in table
mode), so a re-chained history no longer matches what the service signed.

Keys live in ``<data dir>/keys/``: the active private key in ``signing.pem``
(PKCS#8, mode 0600, made at first start) unless ``CAIRN_SIGNING_KEY`` names
a PEM file, and every retired key's public record in ``retired/<key id>.json``.
Retired keys stay listed so that what they signed still verifies. Rotate with
``python -m service.signing rotate --data-dir DIR`` and restart the service.
"""
from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import json
import os
import secrets
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from domain.core.canonical import canonical_json

ALGORITHM = "ed25519"
KEYS_FOLDER = "keys"
ACTIVE_FILE = "signing.pem"
RETIRED_FOLDER = "retired"
ACTIVE, RETIRED = "active", "retired"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def from_b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    """The first 16 hex characters of sha256 of the raw 32-byte public key: short, and the same everywhere."""
    return hashlib.sha256(raw_public(key)).hexdigest()[:16]


def signed_head(game_id: str, version: int, head_hash: str, seed_commitment: str | None) -> dict:
    return {"game_id": game_id, "version": version, "head_hash": head_hash, "seed_commitment": seed_commitment}


def signed_bytes(head: dict) -> bytes:
    """What a signature covers: the canonical JSON of the four fields of the head, and nothing else."""
    fields = signed_head(head["game_id"], head["version"], head["head_hash"], head["seed_commitment"])
    return canonical_json(fields).encode("utf-8")


@dataclass(frozen=True)
class PublicKey:
    """One key as ``GET /keys`` lists it."""

    key: Ed25519PublicKey
    status: str
    created: str
    retired: str | None = None

    @property
    def key_id(self) -> str:
        return key_id(self.key)

    def to_dict(self) -> dict:
        listed = {"key_id": self.key_id, "algorithm": ALGORITHM, "public_key": b64url(raw_public(self.key)),
                  "status": self.status, "created": self.created}
        if self.retired is not None:
            listed["retired"] = self.retired
        return listed

    @classmethod
    def from_dict(cls, listed: dict) -> PublicKey:
        if listed.get("algorithm") != ALGORITHM:
            raise ValueError(f"key {listed.get('key_id')!r} is not an {ALGORITHM} key")
        key = Ed25519PublicKey.from_public_bytes(from_b64url(listed["public_key"]))
        if listed.get("key_id") not in (None, key_id(key)):
            raise ValueError(f"key {listed['key_id']!r} does not match its public key")
        return cls(key, listed.get("status", ACTIVE), listed.get("created", ""), listed.get("retired"))


@dataclass(frozen=True)
class Keyring:
    """The active private key, which signs, and every public key the service has signed with."""

    private: Ed25519PrivateKey
    active: PublicKey
    retired: tuple[PublicKey, ...] = ()

    def sign(self, head: dict) -> dict:
        signature = self.private.sign(signed_bytes(head))
        return {"key_id": self.active.key_id, "algorithm": ALGORITHM, "signature": b64url(signature)}

    def listing(self) -> list[dict]:
        return [key.to_dict() for key in (self.active, *self.retired)]


def verify_signature(head: dict, signature: object, keys: dict[str, Ed25519PublicKey]) -> str | None:
    """Why ``signature`` is not a valid signature of ``head`` by one of ``keys``; ``None`` when it is."""
    if not isinstance(signature, dict):
        return "the record carries no signature"
    if signature.get("algorithm") != ALGORITHM:
        return f"the signature's algorithm is {signature.get('algorithm')!r}, not {ALGORITHM}"
    key_id = signature.get("key_id")
    key = keys.get(key_id) if isinstance(key_id, str) else None
    if key is None:
        return f"the signature's key {signature.get('key_id')!r} is not one of the keys given"
    try:
        key.verify(from_b64url(str(signature.get("signature", ""))), signed_bytes(head))
    except (InvalidSignature, ValueError):
        return f"the signature by key {signature['key_id']} does not match the game's head"
    return None


def load_keyring(data_dir: Path, key_file: Path | None = None) -> Keyring:
    """The configured key (``key_file``), else ``<data_dir>/keys/signing.pem``, made on first use."""
    folder = data_dir / KEYS_FOLDER
    if key_file is None:
        key_file = folder / ACTIVE_FILE
        if not key_file.exists():
            _create_private_key(key_file)
    private = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
    if not isinstance(private, Ed25519PrivateKey):
        raise ValueError(f"{key_file} is not an Ed25519 private key")
    active = PublicKey(private.public_key(), ACTIVE, _iso(key_file.stat().st_mtime))
    return Keyring(private, active, _retired_keys(folder / RETIRED_FOLDER, active.key_id))


@cache
def keyring_from_environment() -> Keyring:
    """For processes without an app config (the export worker): ``CAIRN_SIGNING_KEY``, else ``CAIRN_DATA_DIR``."""
    configured = os.environ.get("CAIRN_SIGNING_KEY")
    return load_keyring(Path(os.environ.get("CAIRN_DATA_DIR", "var")).resolve(),
                        Path(configured) if configured else None)


def _create_private_key(path: Path) -> None:
    """Write a new key so that no process ever reads half a file, and of two processes starting at once one wins.

    The key is written to a private temporary file (0600 from the start) and
    hard-linked to its name, which fails if another process linked first;
    both then read the winner's key.
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(pem)
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _retired_keys(folder: Path, active_id: str) -> tuple[PublicKey, ...]:
    if not folder.is_dir():
        return ()
    keys = [PublicKey.from_dict(json.loads(path.read_text(encoding="utf-8"))) for path in sorted(folder.glob("*.json"))]
    return tuple(PublicKey(key.key, RETIRED, key.created, key.retired) for key in keys if key.key_id != active_id)


def rotate(data_dir: Path) -> str:
    """Retire the active key of ``<data_dir>/keys``: its public record stays listed, the next start makes a new one.

    Running processes keep signing with the key they loaded until they are
    restarted; what they sign still verifies, because the key stays listed.
    """
    folder = data_dir / KEYS_FOLDER
    keyring = load_keyring(data_dir)
    retired = PublicKey(keyring.active.key, RETIRED, keyring.active.created, _iso(datetime.now(UTC).timestamp()))
    (folder / RETIRED_FOLDER).mkdir(parents=True, exist_ok=True)
    record = folder / RETIRED_FOLDER / f"{retired.key_id}.json"
    record.write_text(json.dumps(retired.to_dict(), indent=1) + "\n", encoding="utf-8")
    (folder / ACTIVE_FILE).unlink()
    return retired.key_id


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.signing", description="Cairn's signing keys.")
    parser.add_argument("command", choices=("list", "rotate"))
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("CAIRN_DATA_DIR", "var")))
    args = parser.parse_args(argv)
    if args.command == "rotate":
        print(f"retired key {rotate(args.data_dir.resolve())}; restart the service to sign with a new key")
    else:
        print(json.dumps({"keys": load_keyring(args.data_dir.resolve()).listing()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
