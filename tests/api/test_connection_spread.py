"""Connections opened at once are spread over ``cairn serve``'s API processes.

A client that keeps a few connections open (a proxy, a bot runner, the load generator) used to find them all,
or all but one, held by one process, which left the other process's core idle: the processes took turns
accepting from one shared socket, and whichever woke first took them. Each process now listens on a socket
of its own and the kernel hands out connections among them (gunicorn's ``reuse_port``).
"""
from __future__ import annotations

import socket
from collections import Counter

import psutil

from tests.api.test_cli import start_failure
from tests.faults.serving import cairn_serve, serve_arguments

CONNECTIONS = 16


def test_connections_opened_at_once_are_held_by_both_api_processes(tmp_path):
    with cairn_serve(tmp_path, workers=2) as served:
        port = int(served.api.base.rsplit(":", 1)[1])
        clients = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(CONNECTIONS)]
        try:
            for client in clients:
                client.sendall(b"GET /health HTTP/1.1\r\nHost: cairn\r\n\r\n")
            for client in clients:
                assert client.recv(65536).startswith(b"HTTP/1.1 200"), "each connection is answered and kept"
            ours = {client.getsockname()[1] for client in clients}
            master = served.child("api")
            assert master is not None
            held = Counter[int]()
            for worker in master.children():
                for connection in worker.net_connections(kind="tcp"):
                    if connection.status == psutil.CONN_ESTABLISHED and connection.raddr \
                            and connection.raddr.port in ours:
                        held[worker.pid] += 1
        finally:
            for client in clients:
                client.close()
    assert sum(held.values()) == CONNECTIONS
    assert len(held) == 2, f"one process holds every connection: {dict(held)}"


def test_a_second_serve_on_the_port_of_a_running_one_is_refused(tmp_path):
    """Sockets that share a port would let a second server take half of the first one's clients."""
    (tmp_path / "first").mkdir()
    with cairn_serve(tmp_path / "first", workers=2) as served:
        port = int(served.api.base.rsplit(":", 1)[1])
        line = start_failure(serve_arguments(tmp_path / "second", port))
        assert f"port {port} on 127.0.0.1 is already in use" in line
        assert served.api.get("/rules").status_code == 200
