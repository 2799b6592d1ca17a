"""More requests than a process has turns for, against real processes: gunicorn serving the API, a real Redis
paused with SIGSTOP so the request that holds the turn cannot finish.

The request that waits past ``REQUEST_QUEUE_SECONDS`` is answered 503 ``overloaded`` with ``Retry-After``
(and the CORS headers) and changes nothing; the probes answer meanwhile; once Redis is back the request that
held the turn and every later one are served. An open live stream holds no turn.
"""
from __future__ import annotations

import os
import signal
import threading
import time

import requests

from tests.faults.test_outages import deployment, tokens_of

__all__ = ["deployment"]


def test_a_request_beyond_the_turns_is_refused_as_overloaded_and_the_probes_still_answer(deployment):
    deployment.start(CAIRN_CONCURRENT_REQUESTS="1", CAIRN_REQUEST_QUEUE_SECONDS="0.3", CAIRN_REDIS_TIMEOUT="3")
    api = deployment.api
    created = api.post("/games", json={"game": "borealis", "players": ["A", "B"]})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["game_id"], tokens_of(created.json())
    version = created.json()["version"]

    os.kill(deployment.redis.process.pid, signal.SIGSTOP)
    try:
        held: list[requests.Response] = []
        holder = threading.Thread(target=lambda: held.append(api.get(f"/games/{game_id}", tokens["p1"])))
        holder.start()
        time.sleep(0.5)  # the first request has the one turn and waits on the paused Redis
        refused = api.get(f"/games/{game_id}", tokens["p2"], headers={"Origin": "https://table.example"})
        health = api.get("/health")
    finally:
        os.kill(deployment.redis.process.pid, signal.SIGCONT)
    holder.join(timeout=30)

    assert refused.status_code == 503, refused.text
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "overloaded"
    assert refused.headers["Retry-After"].isdigit()
    assert refused.headers["Access-Control-Allow-Origin"] == "*", "a page on another origin can read the refusal"
    assert health.status_code == 200, "a busy process still answers its liveness probe"
    assert held and held[0].status_code == 200, "the request holding the turn is served once Redis is back"

    after = api.get(f"/games/{game_id}", tokens["p2"])
    assert after.status_code == 200 and after.json()["version"] == version, "nothing was changed meanwhile"


def test_a_live_stream_holds_no_turn(deployment):
    deployment.start(CAIRN_CONCURRENT_REQUESTS="1", CAIRN_REQUEST_QUEUE_SECONDS="0.3")
    api = deployment.api
    created = api.post("/games", json={"game": "borealis", "players": ["A", "B"]}).json()
    game_id, tokens = created["game_id"], tokens_of(created)
    stream = api.session.get(f"{api.base}/games/{game_id}/stream", headers={"Authorization": f"Bearer {tokens['p1']}"},
                             stream=True, timeout=30)
    try:
        assert stream.status_code == 200
        reads = [api.get(f"/games/{game_id}", tokens["p2"]) for _ in range(5)]
    finally:
        stream.close()
    assert [read.status_code for read in reads] == [200] * 5, [read.text for read in reads]
