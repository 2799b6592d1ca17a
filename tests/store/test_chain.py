"""The hash chain: any edit of a stored event is found, and named by its version."""
from __future__ import annotations

import json

import pytest

from domain.core.canonical import canonical_json
from domain.core.events import make_event, redact_event
from service.store.envelope import GENESIS_HASH, expected_hash, first_bad_version, seal
from tests.store.conftest import new_game, play

pytestmark = pytest.mark.cluster

EVENTS = "cairn:{g1}:events"


def rewrite_entry(client, version: int, edit) -> None:
    """Edit one stored envelope in place (a stream cannot be edited, so rebuild it with the same ids)."""
    entries = client.xrange(EVENTS)
    client.delete(EVENTS)
    for entry_id, fields in entries:
        envelope = json.loads(fields[b"e"])
        if envelope["version"] == version:
            edit(envelope)
        client.xadd(EVENTS, {"e": canonical_json(envelope)}, id=entry_id)


def played_game(store):
    match = new_game(store, "g1")
    play(store, "g1", match)
    return match


def test_an_edited_event_is_found_by_its_version(store, redis_client):
    played_game(store)
    rewrite_entry(redis_client, 5, lambda envelope: envelope.update(seat="p2" if envelope["seat"] == "p1" else "p1"))
    assert store.verify_chain("g1").first_bad_version == 5


def test_an_edit_that_rehashes_its_event_breaks_the_next_link(store, redis_client):
    played_game(store)

    def forge(envelope):
        envelope["data"]["forged"] = True
        envelope["hash"] = expected_hash(envelope)

    rewrite_entry(redis_client, 4, forge)
    assert store.verify_chain("g1").first_bad_version == 5


def test_an_edited_secret_is_found_through_its_salted_hash(store, redis_client):
    played_game(store)
    rewrite_entry(redis_client, 2, lambda envelope: envelope["secret"].update(outcome=["card-forged"]))
    assert store.verify_chain("g1").first_bad_version == 2


def test_a_deleted_last_event_is_found(store, redis_client):
    match = played_game(store)
    redis_client.xdel(EVENTS, f"{match.version}-0")
    assert store.verify_chain("g1").first_bad_version == match.version


def test_a_redacted_history_still_verifies_offline(store):
    played_game(store)
    stored = store.read("g1")
    for reader in ("p1", "p2", None):
        redacted = [redact_event(envelope, reader) for envelope in stored]
        assert any("secret" not in envelope and "secret_hash" in envelope for envelope in redacted)
        assert first_bad_version(json.loads(json.dumps(redacted))) is None
    stored[3]["data"]["forged"] = True
    assert first_bad_version(stored) == 4


def test_stored_json_is_the_canonical_form_of_the_envelope():
    tricky = make_event("x", {"prev_hash": "z", "hash": {"prev_hash": 1}}, seat="p1")
    command = {"type": "t", "prev_hash": ",\"prev_hash\":"}
    for event in (tricky, make_event("y", {"a": 1}, secret={"card": "c1"}, secret_to=["p1"])):
        envelope, payload = seal(event, game_id="g", version=1, prev_hash=GENESIS_HASH, command_id="c",
                                 time="2026-01-01T00:00:00Z", rules_version="1", command=command)
        assert payload == canonical_json(envelope)
        assert envelope["hash"] == expected_hash(envelope)
