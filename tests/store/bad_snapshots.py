"""Every kind of bad value a snapshot key may hold, made from a good one, for the store's and the API's tests.

Each form is ``make(good payload, game id, key) -> bytes``; ``signed`` says whether it carries a MAC made with
the store's key (so it names a version the store reads it for), and ``finding`` is what ``/integrity`` reports.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from domain.core.canonical import canonical_json, sha256_hex
from service.store import snapshots


def body_of(payload: bytes) -> dict:
    return json.loads(payload.partition(b"\n")[2])


def signed(game_id: str, match: dict, head_hash: str, key: bytes) -> bytes:
    """A snapshot of ``match`` (JSON) MAC'd as the store would, whatever the match says."""
    body = canonical_json({"head_hash": head_hash, "match": match}).encode()
    mac = snapshots._mac(key, game_id, match["version"], body)
    return b"cairn-snapshot-2 %d %s\n%s" % (match["version"], mac.encode(), body)


def forged(payload: bytes) -> dict:
    """The snapshot's body with a valid-looking edit: another name for the first seat."""
    value = body_of(payload)
    value["match"]["created"]["seats"][0]["name"] = "Mallory"
    return value


def edited_in_place(payload: bytes, _game_id: str, _key: bytes) -> bytes:
    """The match edited, header and MAC kept: what someone without the key can do."""
    return payload.partition(b"\n")[0] + b"\n" + canonical_json(forged(payload)).encode()


def old_format_with_recomputed_checksum(payload: bytes, _game_id: str, _key: bytes) -> bytes:
    """The previous release's form, its checksum recomputed over a forged match: it has no MAC to check."""
    match = canonical_json(forged(payload)["match"])
    head_hash = body_of(payload)["head_hash"]
    return f'{{"checksum":"{sha256_hex(match)}","head_hash":"{head_hash}","match":{match}}}'.encode()


def with_another_key(payload: bytes, game_id: str, _key: bytes) -> bytes:
    value = forged(payload)
    return signed(game_id, value["match"], value["head_hash"], b"a guessed key")


def from_another_game(payload: bytes, _game_id: str, key: bytes) -> bytes:
    value = body_of(payload)
    return signed("another-game", value["match"], value["head_hash"], key)


def beyond_the_stream(payload: bytes, game_id: str, key: bytes) -> bytes:
    value = body_of(payload)
    value["match"]["version"] += 50
    return signed(game_id, value["match"], value["head_hash"], key)


def wrong_head(payload: bytes, game_id: str, key: bytes) -> bytes:
    value = body_of(payload)
    return signed(game_id, value["match"], "f" * 64, key)


def signed_but_unreadable(payload: bytes, game_id: str, key: bytes) -> bytes:
    value = body_of(payload)
    del value["match"]["state"]
    return signed(game_id, value["match"], value["head_hash"], key)


def from_before_takebacks(payload: bytes, game_id: str, key: bytes) -> bytes:
    """A snapshot as a release before takebacks wrote it, signed: its fold lacks their bookkeeping."""
    value = body_of(payload)
    del value["match"]["takeback"]
    return signed(game_id, value["match"], value["head_hash"], key)


def signed_wrong_state(payload: bytes, game_id: str, key: bytes) -> bytes:
    """A forged match signed with the key: only the comparison with the events finds it."""
    value = forged(payload)
    return signed(game_id, value["match"], value["head_hash"], key)


@dataclass(frozen=True)
class BadForm:
    make: Callable[[bytes, str, bytes], bytes]
    signed: bool
    finding: str


# What a load must ignore. A forged match signed with the key is not among them: the MAC vouches for it.
BAD_FORMS = {
    "invalid-utf8": BadForm(lambda payload, _game_id, _key: b"\xff\xfe\x80" + payload[3:], False, "bad_mac"),
    "invalid-utf8-after-a-valid-header": BadForm(
        lambda payload, _game_id, _key: payload.partition(b"\n")[0] + b"\n\xc3\x28\xff", False, "bad_mac"),
    "not-json": BadForm(lambda _payload, _game_id, _key: b"not json at all", False, "bad_mac"),
    "empty": BadForm(lambda _payload, _game_id, _key: b"", False, "bad_mac"),
    "truncated": BadForm(lambda payload, _game_id, _key: payload[: len(payload) // 2], False, "bad_mac"),
    "edited-in-place": BadForm(edited_in_place, False, "bad_mac"),
    "old-format-recomputed-checksum": BadForm(old_format_with_recomputed_checksum, False, "bad_mac"),
    "another-key": BadForm(with_another_key, False, "bad_mac"),
    "from-another-game": BadForm(from_another_game, False, "bad_mac"),
    "beyond-the-stream": BadForm(beyond_the_stream, True, "beyond_stream"),
    "wrong-head": BadForm(wrong_head, True, "wrong_head"),
    "signed-but-unreadable": BadForm(signed_but_unreadable, True, "wrong_state"),
    "from-before-takebacks": BadForm(from_before_takebacks, True, "wrong_state"),
}
SIGNED_WRONG_STATE = BadForm(signed_wrong_state, True, "wrong_state")
