"""``GET /keys``: the public keys that sign game heads, and the signature every integrity answer carries.

The key pair is loaded when the blueprint is registered, so a data folder
the service cannot write fails the start rather than the first export:
``SIGNING_KEY`` in the app's config (or ``CAIRN_SIGNING_KEY``), a PEM
private key, else ``<DATA_DIR>/keys/signing.pem``, made there at first
start (see :mod:`service.signing`).
"""
from __future__ import annotations

import os
from pathlib import Path

from flask import Blueprint, current_app
from flask.blueprints import BlueprintSetupState

from service.api import context
from service.signing import Keyring, load_keyring, signed_head

blueprint = Blueprint("keys", __name__)
EXTENSION = "cairn.keys"


@blueprint.record_once
def _load_keyring(state: BlueprintSetupState) -> None:
    config = state.app.config
    configured = config.get("SIGNING_KEY") or os.environ.get("CAIRN_SIGNING_KEY")
    state.app.extensions[EXTENSION] = load_keyring(Path(config.get("DATA_DIR") or "var").resolve(),
                                                   Path(configured) if configured else None)


def keyring() -> Keyring:
    return current_app.extensions[EXTENSION]


@blueprint.get("/keys")
def list_keys():
    return {"algorithm": "ed25519", "keys": keyring().listing()}


def head_signature(game_id: str, version: int, head_hash: str) -> dict:
    """The head an answer reports, with its seed commitment (from ``game_created``) and the service's signature."""
    created = context.store().read(game_id, 1, 1)
    seed_commitment = created[0]["data"].get("seed_hash") if created else None
    head = signed_head(game_id, version, head_hash, seed_commitment)
    return {"head_hash": head_hash, "seed_commitment": seed_commitment, "signature": keyring().sign(head)}
