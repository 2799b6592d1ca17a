"""Retries that never do a thing twice: through a proxy that fails on purpose, and a real rate limit."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from cairn_client import NO_RETRIES, Client, ConnectionFailed, RateLimited, RetryPolicy, ServerError

from tests.api.conftest import serve
from tests.client.conftest import checked_session
from tests.client.faults import Fault
from tests.client.test_games import tokens_of


def moves_path(game_id: str) -> str:
    return f"/games/{game_id}/moves"


def test_a_move_whose_answer_is_lost_is_sent_again_with_its_key_and_applied_once(proxied, proxy):
    created = proxied.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    proxy.fail(Fault("POST", moves_path(game_id), "drop"))
    moved = proxied.submit_move(game_id, {"type": "keep"}, token=tokens["p1"])
    sent = proxy.requests_to("POST", moves_path(game_id))
    assert len(sent) == 2 and sent[0]["Idempotency-Key"] == sent[1]["Idempotency-Key"]
    assert sent[0]["If-Match"] == sent[1]["If-Match"] == f'"{created["version"]}"'
    log = list(proxied.iter_events(game_id))
    assert [event["type"] for event in log].count("card_kept") == 1
    assert moved["version"] == log[-1]["version"]


def test_a_creation_whose_answer_is_lost_is_raised_not_repeated(proxied, proxy):
    proxy.fail(Fault("POST", "/games", "drop"))
    with pytest.raises(ConnectionFailed):
        proxied.create_game("high-card", ["Ann", "Bo"])
    assert len(proxy.requests_to("POST", "/games")) == 1
    assert len(list(proxied.iter_games())) == 1


def test_a_503_with_retry_after_is_waited_out_even_for_a_creation(proxied, proxy):
    proxy.fail(Fault("POST", "/games", "refuse", times=2, status=503, retry_after="1"))
    created = proxied.create_game("high-card", ["Ann", "Bo"])
    assert proxied.transport.statuses[503] == 2 and proxied.transport.statuses[201] == 1
    assert len(proxy.requests_to("POST", "/games")) == 3
    assert [game["game_id"] for game in proxied.iter_games()] == [created["game_id"]]


def test_a_500_on_a_creation_is_raised_not_repeated(proxied, proxy):
    proxy.fail(Fault("POST", "/games", "refuse", status=500, retry_after=None))
    with pytest.raises(ServerError) as failed:
        proxied.create_game("high-card", ["Ann", "Bo"])
    assert failed.value.status == 500 and len(proxy.requests_to("POST", "/games")) == 1


def test_a_500_on_a_move_is_repeated_with_the_same_key(proxied, proxy):
    created = proxied.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    proxy.fail(Fault("POST", moves_path(game_id), "refuse", status=500, retry_after=None))
    proxied.submit_move(game_id, {"type": "keep"}, token=tokens["p1"])
    sent = proxy.requests_to("POST", moves_path(game_id))
    assert len(sent) == 2 and sent[0]["Idempotency-Key"] == sent[1]["Idempotency-Key"]


def test_retries_end_when_their_time_is_up(proxy):
    proxy.fail(Fault("GET", "/rules", "refuse", times=10, status=503, retry_after="5"))
    impatient = Client(proxy.url, retry=RetryPolicy(attempts=5, total_seconds=3), session=checked_session())
    with impatient, pytest.raises(ServerError) as unavailable:
        impatient.list_rules()
    assert unavailable.value.status == 503 and len(proxy.requests_to("GET", "/rules")) == 1


@pytest.fixture
def slow_service(service_config) -> Iterator[str]:
    """The service allowing each token 2 requests a second, in bursts of 2."""
    yield from serve({**service_config, "RATE_LIMIT": 2, "RATE_BURST": 2})


def test_the_rate_limit_is_ridden_out_by_honouring_retry_after(slow_service):
    base_url = slow_service
    with Client(base_url, session=checked_session()) as client:
        created = client.create_game("high-card", ["Ann", "Bo"])
        game_id, tokens = created["game_id"], tokens_of(created)
        for _ in range(3):
            client.get_legal_moves(game_id, token=tokens["p1"])
        client.submit_move(game_id, {"type": "keep"}, token=tokens["p1"])
        assert client.transport.statuses[429] >= 1
        assert [event["type"] for event in client.iter_events(game_id)].count("card_kept") == 1
    hasty = Client(base_url, retry=NO_RETRIES, session=checked_session())
    with hasty, pytest.raises(RateLimited) as limited:
        for _ in range(5):
            hasty.get_legal_moves(game_id, token=tokens["p2"])
    assert limited.value.code == "rate_limited" and limited.value.retry_after > 0
