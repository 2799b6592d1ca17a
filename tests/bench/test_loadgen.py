"""The benchmarks' load generator: clients keep their connections as real clients do, or open one per request,
and a connection the server closes is opened again without losing a request."""
from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench._loadgen import Client, Driver, Request

REQUESTS = 5


class Counting(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, closing: str):
        self.closing = closing  # "": keeps connections; "saying": answers with Connection: close; "silently"
        self.connections = 0
        self.answered = 0
        super().__init__(("127.0.0.1", 0), Handler)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self.server.connections += 1

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.answered += 1
        body = b'{"n": %d}' % self.server.answered
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if self.server.closing == "saying":
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = bool(self.server.closing)

    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def counting(closing: str = "") -> Iterator[Counting]:
    server = Counting(closing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def poster(answers: list[int]) -> Client:
    for _ in range(REQUESTS):
        answer = yield Request("POST", "/append", {"mark": 1}, timed=True)
        answers.append(answer.status)


def run(server: Counting, keep_alive: bool) -> list[int]:
    answers: list[int] = []
    driver = Driver(server.server_address[1], keep_alive)
    try:
        outcome = driver.run(driver.set_up([poster(answers)]), seconds=30, max_steps=REQUESTS)
    finally:
        driver.close()
    assert not outcome.errors
    assert outcome.steps == REQUESTS
    return answers


@pytest.mark.parametrize(("keep_alive", "connections"), [(True, 1), (False, REQUESTS)])
def test_a_client_keeps_its_connection_or_opens_one_per_request(keep_alive, connections):
    with counting() as server:
        assert run(server, keep_alive) == [201] * REQUESTS
    assert server.connections == connections


@pytest.mark.parametrize("closing", ["saying", "silently"])
def test_a_kept_connection_the_server_closes_is_opened_again(closing):
    with counting(closing) as server:
        assert run(server, keep_alive=True) == [201] * REQUESTS
    assert server.connections == REQUESTS
    assert server.answered == REQUESTS


def test_the_bench_command_lists_its_benchmarks_and_options():
    shown = subprocess.run([sys.executable, "-m", "bench", "--help"], capture_output=True, text=True, check=True).stdout
    for name in ("http", "servers", "processes", "peers", "store"):
        assert f"\n  {name} " in shown
    assert "--rounds" in shown and "--seconds" in shown
    refused = subprocess.run([sys.executable, "-m", "bench", "no-such-bench"], capture_output=True, text=True)
    assert refused.returncode == 2 and "no benchmark no-such-bench" in refused.stderr
