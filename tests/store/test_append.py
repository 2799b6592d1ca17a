"""Appending: round trips, optimistic concurrency, idempotency, and the Redis layout of a game."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from domain.core.match import apply_event, legal_moves, match_to_json, replay, submit, waiting_for
from domain.registry import get_rules
from service.store import EventStore, GameNotFound, IdempotencyMismatch, VersionConflict
from service.store.envelope import GENESIS_HASH
from service.store.keys import INDEX_PREFIX
from tests.store.conftest import SEED, new_game, play, tokens_for

pytestmark = pytest.mark.cluster


def next_move(match):
    seat = waiting_for(match)[0]
    move = legal_moves(match, seat)[0]
    return move, submit(match, seat, move, SEED)


def test_append_read_and_load_round_trip(store):
    match = new_game(store, "g1")
    play(store, "g1", match)
    assert match.ended
    stored = store.read("g1")
    assert [envelope["version"] for envelope in stored] == list(range(1, match.version + 1))
    assert stored[0]["prev_hash"] == GENESIS_HASH
    assert all(later["prev_hash"] == earlier["hash"] for earlier, later in zip(stored, stored[1:], strict=False))
    assert match_to_json(store.load("g1")) == match_to_json(match)
    assert match_to_json(replay(stored, get_rules)) == match_to_json(match)
    assert store.version("g1") == match.version
    assert store.meta("g1")["status"] == "ended"
    assert store.verify_chain("g1").ok
    assert [envelope for page in store.iter_pages("g1", page_size=5) for envelope in page] == stored
    assert [len(page) for page in store.iter_pages("g1", page_size=5)][0] == 5
    assert store.read("g1", 3, limit=2) == stored[2:4]


def test_an_envelope_records_who_what_when_and_the_command_in_its_batch_first_event(store):
    match = new_game(store, "g1")
    move, events = next_move(match)
    result = store.append("g1", match.version, events, command=move, command_id="c-1", idempotency_key=None)
    first = result.envelopes[0]
    assert first["command"] == move and first["command_id"] == "c-1"
    assert first["game_id"] == "g1" and first["rules_version"] == "1" and first["time"].endswith("Z")
    assert first["seat"] == "p1" and first["type"] == events[0]["type"]
    assert all("command" not in envelope for envelope in result.envelopes[1:])
    assert store.read("g1", result.first_version, result.last_version) == result.envelopes


def test_secrets_are_stored_with_a_salted_hash(store):
    new_game(store, "g1")
    deal = store.read("g1", 2, 2)[0]
    assert deal["secret"]["outcome"] and len(deal["secret_salt"]) == 32 and deal["secret_to"] == ["p1"]


def test_a_stale_expected_version_is_refused_with_the_current_version(store):
    match = new_game(store, "g1")
    move, events = next_move(match)
    store.append("g1", match.version, events, command=move, command_id="c-1", idempotency_key=None)
    with pytest.raises(VersionConflict) as conflict:
        store.append("g1", match.version, events, command=move, command_id="c-2", idempotency_key=None)
    assert conflict.value.current_version == match.version + len(events)
    assert store.version("g1") == match.version + len(events)


def test_an_unknown_game_is_not_found(store):
    with pytest.raises(GameNotFound):
        store.append("nope", 1, [{"type": "x", "seat": None, "data": {}}], command=None, command_id="c",
                     idempotency_key=None)
    for call in (store.version, store.read, store.load, store.meta, store.verify_chain):
        with pytest.raises(GameNotFound):
            call("nope")
    with pytest.raises(GameNotFound):
        next(store.iter_pages("nope"))
    with pytest.raises(GameNotFound):
        store.wait_for_events("nope", 0, 10)
    assert store.reader_for_token("nope", "token") is None


def test_a_game_id_is_created_once(store):
    new_game(store, "g1")
    with pytest.raises(VersionConflict) as conflict:
        new_game(store, "g1")
    assert conflict.value.current_version == 3


@pytest.mark.parametrize("stores", ["one store", "a store per thread"])
def test_twenty_racing_appends_at_one_version_make_one_winner_and_no_gap(store, redis_client, stores):
    match = new_game(store, "g1", players=("Ann", "Bo", "Cy"))
    move, events = next_move(match)
    start = threading.Barrier(20)

    def attempt(n: int):
        mine = store if stores == "one store" else EventStore(redis_client)
        start.wait()
        try:
            return mine.append("g1", match.version, events, command=move, command_id=f"c-{n}", idempotency_key=None)
        except VersionConflict as conflict:
            return conflict

    with ThreadPoolExecutor(20) as pool:
        outcomes = list(pool.map(attempt, range(20)))
    winners = [outcome for outcome in outcomes if not isinstance(outcome, VersionConflict)]
    assert len(winners) == 1
    assert all(o.current_version == match.version + len(events) for o in outcomes if o not in winners)
    stored = store.read("g1")
    assert [envelope["version"] for envelope in stored] == list(range(1, match.version + len(events) + 1))
    assert len({envelope["command_id"] for envelope in stored[match.version:]}) == 1
    assert store.verify_chain("g1").ok


def test_the_same_idempotency_key_appends_once_and_returns_the_first_range(store):
    match = new_game(store, "g1")
    move, events = next_move(match)
    results = [
        store.append("g1", match.version, events, command=move, command_id=f"c-{n}", idempotency_key="k-1")
        for n in range(10)
    ]
    assert [result.duplicate for result in results] == [False] + [True] * 9
    assert {(r.first_version, r.last_version) for r in results} == {(match.version + 1, match.version + len(events))}
    assert all(result.envelopes == results[0].envelopes for result in results)
    assert store.version("g1") == match.version + len(events)


def test_a_retry_after_the_game_moved_on_still_gets_its_first_result(store):
    match = new_game(store, "g1")
    move, events = next_move(match)
    first = store.append("g1", match.version, events, command=move, command_id="c-1", idempotency_key="k-1")
    for event in events:
        apply_event(match, event)
    play(store, "g1", match, commands=1)
    retry = store.append("g1", first.first_version - 1, events, command=move, command_id="c-1", idempotency_key="k-1")
    assert retry.duplicate and retry.envelopes == first.envelopes


def test_the_same_idempotency_key_sent_concurrently_appends_once(store):
    match = new_game(store, "g1")
    move, events = next_move(match)
    start = threading.Barrier(10)

    def attempt(n: int):
        start.wait()
        return store.append("g1", match.version, events, command=move, command_id=f"c-{n}", idempotency_key="k-1")

    with ThreadPoolExecutor(10) as pool:
        results = list(pool.map(attempt, range(10)))
    assert sorted(result.duplicate for result in results) == [False] + [True] * 9
    assert len({(result.first_version, result.last_version) for result in results}) == 1
    assert store.version("g1") == match.version + len(events)
    assert store.verify_chain("g1").ok


def test_the_same_idempotency_key_for_another_command_is_refused(store):
    match = new_game(store, "g1")
    move, events = next_move(match)
    store.append("g1", match.version, events, command=move, command_id="c-1", idempotency_key="k-1")
    with pytest.raises(IdempotencyMismatch):
        store.append("g1", match.version, events, command={"type": "swap"}, command_id="c-2", idempotency_key="k-1")
    assert store.version("g1") == match.version + len(events)


def test_tokens_are_stored_hashed_and_name_their_reader(store, redis_client):
    match = new_game(store, "g1")
    tokens = tokens_for("g1", match.seats)
    assert store.reader_for_token("g1", tokens["p2"]) == "p2"
    assert store.reader_for_token("g1", tokens["organiser"]) == "organiser"
    assert store.reader_for_token("g1", "guess") is None
    assert store.seed("g1") == SEED
    private = redis_client.hgetall("cairn:{g1}:private")
    assert not any(token.encode() in field + value for token in tokens.values() for field, value in private.items())


def test_every_key_written_for_a_game_carries_its_hash_tag(store, redis_client):
    for game_id in ("g1", "g2"):
        match = new_game(store, game_id)
        play(store, game_id, match)
        store.append(game_id, match.version, [{"type": "game_scored", "seat": None, "data": {"score_sheet": {}}}],
                     command=None, command_id="score", idempotency_key="score")
    written = {key.decode() for key in redis_client.scan_iter(match="*")}
    game_keys = {key for key in written if not key.startswith(INDEX_PREFIX)}
    assert {key for key in game_keys if "{g1}" in key} == {
        f"cairn:{{g1}}:{part}" for part in ("events", "meta", "idem", "snapshot", "private")
    }
    assert all("{g1}" in key or "{g2}" in key for key in game_keys)


def test_wait_for_events_returns_new_events_or_nothing_after_the_timeout(store):
    match = new_game(store, "g1")
    assert store.wait_for_events("g1", match.version, 50) == []
    move, events = next_move(match)
    appender = threading.Timer(
        0.05, store.append, ("g1", match.version, events), {"command": move, "command_id": "c", "idempotency_key": None}
    )
    appender.start()
    arrived = store.wait_for_events("g1", match.version, 5000)
    appender.join()
    assert [envelope["version"] for envelope in arrived] == list(range(match.version + 1, store.version("g1") + 1))


def test_an_append_from_a_stale_head_cache_is_rechained_not_forked(store, redis_client):
    match = new_game(store, "g1")
    redis_client.flushall()
    recreated = new_game(EventStore(redis_client), "g1", players=("Ann", "Bo"), seed="another seed")
    move, events = next_move(recreated)
    store.append("g1", recreated.version, events, command=move, command_id="c-1", idempotency_key=None)
    assert match.version == recreated.version
    assert store.verify_chain("g1").ok
