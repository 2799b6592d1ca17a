"""An HTTP proxy in front of the real service that fails on purpose, the way networks and gateways do.

Each :class:`Fault` applies to the next ``times`` requests it matches:
``refuse`` answers with a status of its own without forwarding (a gateway's
503 with ``Retry-After``, a 500); ``drop`` forwards the request, lets the
service answer it in full, then closes the client's connection without a
byte (the move was applied, the client never heard); ``cut`` forwards a
response but closes the connection once ``after`` bytes of its body are
through (a live stream cut mid-way). Every request it sees is listed in
:attr:`FaultyProxy.seen`.
"""
from __future__ import annotations

import http.client
import json
import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}


@dataclass
class Fault:
    method: str
    path: str
    action: str
    times: int = 1
    status: int = 503
    retry_after: str | None = "1"
    after: int = 0

    def matches(self, method: str, path: str) -> bool:
        return self.times > 0 and method == self.method and urlsplit(path).path.startswith(self.path)


class FaultyProxy:
    def __init__(self, upstream: str):
        target = urlsplit(upstream)
        self.upstream = (target.hostname, target.port)
        self.faults: list[Fault] = []
        self.seen: list[tuple[str, str, dict[str, str]]] = []
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def start(self) -> FaultyProxy:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def fail(self, fault: Fault) -> None:
        with self.lock:
            self.faults.append(fault)

    def requests_to(self, method: str, path: str) -> list[dict[str, str]]:
        return [headers for seen_method, seen_path, headers in self.seen
                if seen_method == method and urlsplit(seen_path).path == path]

    def take(self, method: str, path: str, headers: dict[str, str]) -> Fault | None:
        with self.lock:
            self.seen.append((method, path, headers))
            fault = next((fault for fault in self.faults if fault.matches(method, path)), None)
            if fault is not None:
                fault.times -= 1
            return fault


def _handler(proxy: FaultyProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # an answer goes out in several writes: do not hold them back

        def log_message(self, *_args) -> None:
            pass

        def do_GET(self) -> None:
            self.relay()

        def do_POST(self) -> None:
            self.relay()

        def relay(self) -> None:
            headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            fault = proxy.take(self.command, self.path, headers)
            if fault is not None and fault.action == "refuse":
                self.refuse(fault)
                return
            upstream = http.client.HTTPConnection(*proxy.upstream, timeout=60)
            try:
                upstream.request(self.command, self.path, body=body or None, headers=headers)
                answer = upstream.getresponse()
                if fault is not None and fault.action == "drop":
                    answer.read()
                    self.hang_up()
                    return
                self.forward(answer, fault.after if fault is not None and fault.action == "cut" else None)
            finally:
                upstream.close()

        def refuse(self, fault: Fault) -> None:
            problem = json.dumps({"type": "about:blank", "title": "Injected", "status": fault.status,
                                  "detail": "a failure injected by the test proxy", "code": "injected",
                                  "rule_id": None, "field": None}).encode()
            self.send_response(fault.status)
            self.send_header("Content-Type", "application/problem+json")
            self.send_header("Content-Length", str(len(problem)))
            if fault.retry_after is not None:
                self.send_header("Retry-After", fault.retry_after)
            self.end_headers()
            self.wfile.write(problem)

        def forward(self, answer: http.client.HTTPResponse, cut_after: int | None) -> None:
            """The service's answer as it arrives (chunked, so streams flow), cut after ``cut_after`` bytes."""
            self.send_response(answer.status)
            for name, value in answer.getheaders():
                if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                    self.send_header(name, value)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            sent = 0
            while True:
                chunk = answer.read1(65536)
                if not chunk:
                    break
                if cut_after is not None and sent + len(chunk) > cut_after:
                    if cut_after > sent:
                        self.wfile.write(b"%x\r\n%s\r\n" % (cut_after - sent, chunk[:cut_after - sent]))
                        self.wfile.flush()
                    self.hang_up()
                    return
                sent += len(chunk)
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")

        def hang_up(self) -> None:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)

    return Handler
