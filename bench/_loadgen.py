"""A load generator that takes little of the machine it measures: one thread, non-blocking sockets.

The servers under test share this machine's cores with the load generator.
Client threads with ``http.client`` cost about 0.4 ms of CPU per request
(a quarter of two cores at the baseline's rate), and under the GIL a
response can wait for its thread to be scheduled, which the client then
counts as server latency. Here one selector loop drives every client's
connection, so a response is timed as soon as its last byte arrives. It encodes
and parses with orjson, so that the play loop's large answers (legal moves
and a view) take little of the cores the servers share.

A driver either keeps each client's connection alive across its requests,
as real clients (browsers, ``requests.Session``, the bots) do, or opens one
per request and closes it as soon as its answer is whole, as a sync
gunicorn worker needs (it lingers after its answer until the client
closes, RFC 9112, 9.6). A kept connection the server closed while it was
idle is opened again and the request sent once more, untimed twice.

A client is a generator of :class:`Request` that is sent each
:class:`Response`. Requests before a client's first timed one are its
set-up, done before the clock starts; later untimed ones (the GET before a
move, a new game when one ends) share the timed run's cores but add no
latency figure.
"""
from __future__ import annotations

import contextlib
import selectors
import socket
import time
from collections.abc import Generator
from dataclasses import dataclass, field

import orjson

CONNECT_TIMEOUT = 60.0


@dataclass
class Request:
    method: str
    path: str
    body: object = None
    headers: dict[str, str] = field(default_factory=dict)
    timed: bool = False

    def encode(self, port: int, keep_alive: bool) -> bytes:
        data = b"" if self.body is None else orjson.dumps(self.body)
        lines = [f"{self.method} {self.path} HTTP/1.1", f"Host: 127.0.0.1:{port}",
                 f"Connection: {'keep-alive' if keep_alive else 'close'}", f"Content-Length: {len(data)}"]
        if self.body is not None:
            lines.append("Content-Type: application/json")
        lines.extend(f"{name}: {value}" for name, value in self.headers.items())
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


@dataclass
class Response:
    status: int
    body: bytes
    closing: bool = False  # the server said it closes the connection after this answer

    def json(self):
        return orjson.loads(self.body) if self.body else None


Client = Generator[Request, Response, None]


@dataclass
class Outcome:
    """A timed run: timed responses in ``seconds``, their latencies, and the CPU the load generator and the
    servers watched used meanwhile."""

    steps: int = 0
    seconds: float = 0.0
    client_cpu: float = 0.0
    server_cpu: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


@dataclass
class _Connection:
    client: Client
    request: Request | None = None
    sock: socket.socket | None = None
    out: bytes = b""
    sent: int = 0
    received: bytearray = field(default_factory=bytearray)
    started: float = 0.0
    answered: float = 0.0
    reused: bool = False  # the request went out on a connection kept from an earlier one

    @property
    def next_request(self) -> Request:
        """The request to send: a connection is sent on only while its client has one."""
        if self.request is None:
            raise RuntimeError("the client has no request to send")
        return self.request

    @property
    def open_socket(self) -> socket.socket:
        """The socket of the request in flight."""
        if self.sock is None:
            raise RuntimeError("the connection has no socket open")
        return self.sock


class Driver:
    """Runs clients against ``127.0.0.1:port``: each on a connection it keeps (``keep_alive``), else on a new
    connection per request."""

    def __init__(self, port: int, keep_alive: bool = True):
        self.port = port
        self.keep_alive = keep_alive
        self.selector = selectors.DefaultSelector()
        self.outcome = Outcome()
        self._kept: dict[int, _Connection] = {}

    def close(self) -> None:
        """Close the connections kept open."""
        for connection in self._kept.values():
            if connection.sock is not None:
                connection.sock.close()
                connection.sock = None
        self._kept.clear()

    def set_up(self, clients: list[Client]) -> list[_Connection]:
        """Each client's requests up to its first timed one, all clients at once; their connections, ready."""
        ready: list[_Connection] = []
        for client in clients:
            connection = _Connection(client)
            connection.request = self._next(connection, None)
            self._set_up_step(connection, ready)
        for connection, answer in self._answers():
            connection.request = self._next(connection, answer)
            self._set_up_step(connection, ready)
        return ready

    def _set_up_step(self, connection: _Connection, ready: list[_Connection]) -> None:
        """Send the client's next request if it is set-up; keep the connection for the clock if it is timed."""
        if connection.request is None:
            return
        if connection.request.timed:
            ready.append(connection)
        else:
            self._send(connection)

    def run(self, ready: list[_Connection], seconds: float, max_steps: int) -> Outcome:
        """Run the set-up clients until ``seconds`` have passed or ``max_steps`` timed answers have come (in
        all runs of this driver); each connection is left holding its next request, unsent."""
        outcome = self.outcome
        began, cpu = time.perf_counter(), time.process_time()
        deadline = began + seconds
        for connection in ready:
            self._send(connection)
        for connection, answer in self._answers():
            if connection.request.timed:
                outcome.latencies.append(connection.answered - connection.started)
            connection.request = self._next(connection, answer)
            going_on = time.perf_counter() < deadline and len(outcome.latencies) < max_steps
            if connection.request is not None and going_on:
                self._send(connection)
        outcome.seconds = time.perf_counter() - began
        outcome.client_cpu = time.process_time() - cpu
        outcome.steps = len(outcome.latencies)
        return outcome

    def _answers(self):
        """Each whole answer, with its connection, until no request is in flight.

        Every connection whose answer is whole is closed before any client goes on: a sync worker lingers
        after its answer until the client closes (RFC 9112, 9.6), so a slow close is server time lost.
        """
        while self.selector.get_map():
            done = []
            for key, mask in self.selector.select(timeout=CONNECT_TIMEOUT):
                answer = self._progress(key.data, mask)
                if answer is not None:
                    done.append((key.data, answer))
            yield from done

    def _next(self, connection: _Connection, answer: Response | None) -> Request | None:
        try:
            return next(connection.client) if answer is None else connection.client.send(answer)
        except StopIteration:
            return None
        except Exception as error:  # reported with the figures, never hidden
            self.outcome.errors.append(f"{type(error).__name__}: {error}")
            return None

    def _send(self, connection: _Connection) -> None:
        """Send on the kept connection, else connect and send; on loopback a new connection is usually up at
        once, so the request goes out without waiting for the selector (a wakeup and a registration change
        fewer per request)."""
        connection.out, connection.sent = connection.next_request.encode(self.port, self.keep_alive), 0
        connection.received = bytearray()
        connection.reused = connection.sock is not None
        if connection.reused:
            sock = connection.open_socket
            connection.started = time.perf_counter()
        else:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            connection.sock = sock
            connection.started = time.perf_counter()
            sock.connect_ex(("127.0.0.1", self.port))
            if self.keep_alive:
                self._kept[id(connection)] = connection
        with contextlib.suppress(OSError):  # not connected yet (or closed by the server): the selector says
            connection.sent = sock.send(connection.out)
        done = connection.sent == len(connection.out)
        self.selector.register(sock, selectors.EVENT_READ if done else selectors.EVENT_WRITE, connection)

    def _progress(self, connection: _Connection, mask: int) -> Response | None:
        """Send what is left of the request or read what has come of the answer; the answer once whole."""
        sock = connection.open_socket
        try:
            if mask & selectors.EVENT_WRITE:
                connection.sent += sock.send(connection.out[connection.sent:])
                if connection.sent == len(connection.out):
                    self.selector.modify(sock, selectors.EVENT_READ, connection)
                return None
            chunk = sock.recv(65536)
        except OSError as error:
            if self._resent(connection):
                return None
            self._close(connection)
            self.outcome.errors.append(f"{type(error).__name__}: {error}")
            return None
        connection.received += chunk
        answer = _whole(connection.received, closed=not chunk)
        if answer is None and not chunk and self._resent(connection):
            return None
        if answer is not None or not chunk:
            connection.answered = time.perf_counter()
            if self.keep_alive and answer is not None and not answer.closing:
                self.selector.unregister(sock)
            else:
                self._close(connection)
        if answer is None and not chunk:
            self.outcome.errors.append("the server closed the connection before a whole answer")
        return answer

    def _resent(self, connection: _Connection) -> bool:
        """A kept connection the server had closed before any of the answer came: send on a new one."""
        if not connection.reused or connection.received:
            return False
        self._close(connection)
        self._send(connection)
        return True

    def _close(self, connection: _Connection) -> None:
        sock = connection.open_socket
        self.selector.unregister(sock)
        sock.close()
        connection.sock = None


def _whole(received: bytearray, closed: bool) -> Response | None:
    """The answer in ``received`` if it is complete (by Content-Length, else by the server closing)."""
    end = received.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = bytes(received[:end]).decode("latin-1").split("\r\n")
    length, closing = None, head[0].startswith("HTTP/1.0")
    for line in head[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "connection":
            closing = value.strip().lower() == "close"
    body = received[end + 4:]
    if length is None and not closed or length is not None and len(body) < length:
        return None
    return Response(int(head[0].split()[1]), bytes(body if length is None else body[:length]),
                    closing or length is None)
