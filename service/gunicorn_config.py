"""gunicorn settings for ``cairn serve`` and the container image (``gunicorn -c python:service.gunicorn_config``).

A seat token in a log is a seat anyone reading the log can play, and the
live stream takes its token in the query string (a browser's EventSource
cannot send headers), so gunicorn's request line would show it. Every line
gunicorn writes, access and error log alike, has ``token=`` values and
``Authorization`` credentials replaced before it is written.
"""
from __future__ import annotations

import logging
import os
import queue
import re
import threading
from logging.handlers import QueueHandler

from gunicorn.glogging import Logger

REDACTED = "[redacted]"
_SECRETS = (
    (re.compile(r"([?&;]token=)[^&;\s\"']*", re.IGNORECASE), rf"\g<1>{REDACTED}"),
    (re.compile(r"\b(bearer|basic)\s+[\w.~+/=-]+", re.IGNORECASE), rf"\g<1> {REDACTED}"),
)
# What every secret above contains: a line without any of it is written as it is, after one search, not two.
_SUSPECT = re.compile(r"token=|bearer|basic", re.IGNORECASE)

accesslog = "-"
# Each worker listens on a socket of its own (SO_REUSEPORT) and the kernel spreads new connections over them.
# On one shared socket the worker that woke first accepted nearly every connection opened at once: sixteen
# keep-alive connections all went to one process, leaving the other's core idle.
reuse_port = True
logger_class = "service.gunicorn_config.RedactingLogger"
WRITE_EVERY = 0.05
# gunicorn's default, which RedactingLogger formats without building every atom of every header.
COMBINED = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"'


def redact(text: str) -> str:
    """``text`` with token query values and Authorization credentials hidden."""
    if not _SUSPECT.search(text):
        return text
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class RedactTokens(logging.Filter):
    """Rewrites a record's message (and traceback text) without the secrets in it.

    The message is kept formatted, so the handler does not format an access line's dozen fields a second time.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return True


class LineWriter(threading.Thread):
    """Writes the queued records through the access log's own handlers, every :data:`WRITE_EVERY` seconds."""

    def __init__(self, lines: queue.SimpleQueue[logging.LogRecord], handlers: list[logging.Handler]) -> None:
        super().__init__(name="access-log", daemon=True)
        self.lines, self.handlers, self.stopping = lines, handlers, threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(WRITE_EVERY):
            self.drain()
        self.drain()

    def drain(self) -> None:
        while True:
            try:
                record = self.lines.get_nowait()
            except queue.Empty:
                return
            for handler in self.handlers:
                if record.levelno >= handler.level:
                    handler.handle(record)

    def stop(self) -> None:
        self.stopping.set()
        self.join()


class Enqueue(QueueHandler):
    """Puts a formatted record on the queue without the handler lock, which a thread-safe queue does not need."""

    def handle(self, record: logging.LogRecord) -> bool:
        kept = self.filter(record)
        if kept:
            self.emit(kept if isinstance(kept, logging.LogRecord) else record)
        return bool(kept)


class RedactingLogger(Logger):
    """gunicorn's logger with :class:`RedactTokens` on its access and error logs, and its access lines written
    by a thread of the worker (:class:`Enqueue`)."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for target in (self.error_log, self.access_log):
            if not any(isinstance(existing, RedactTokens) for existing in target.filters):
                target.addFilter(RedactTokens())
        self.stop_writing()
        self._writers = [handler for handler in self.access_log.handlers if not isinstance(handler, Enqueue)]
        self._lines: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
        self._writer: LineWriter | None = None
        self._writer_pid = 0
        self._writer_lock = threading.Lock()
        self.access_log.handlers = [Enqueue(self._lines)] if self._writers else []

    def access(self, resp, req, environ, request_time) -> None:
        if not self.access_log_enabled:
            return
        if self._writer_pid != os.getpid():
            self._start_writing()
        if self.cfg.access_log_format != COMBINED:
            super().access(resp, req, environ, request_time)
            return
        status = resp.status.split(None, 1)[0] if isinstance(resp.status, str) else resp.status
        sent = getattr(resp, "sent", None)
        fields = (environ.get("REMOTE_ADDR", "-"), self._get_user(environ) or "-", self.now(),
                  f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}",
                  environ.get("HTTP_REFERER", "-"), environ.get("HTTP_USER_AGENT", "-"))
        host, user, when, line, referer, agent = (value.replace('"', '\\"') for value in fields)
        self.access_log.info(f'{host} - {user} {when} "{line}" {status} {sent if sent is not None else "-"} '
                             f'"{referer}" "{agent}"')

    def _start_writing(self) -> None:
        """The writer thread of this process: started at its first line, since a thread does not outlive the
        fork that makes a worker of gunicorn's master."""
        with self._writer_lock:
            if self._writer_pid != os.getpid():
                self._writer = LineWriter(self._lines, self._writers)
                self._writer.start()
                self._writer_pid = os.getpid()

    def stop_writing(self) -> None:
        """Write every line still queued, and stop the writer thread (``worker_exit``; a new setup)."""
        writer, self._writer = getattr(self, "_writer", None), None
        if writer is not None and self._writer_pid == os.getpid():
            writer.stop()
        self._writer_pid = 0

    def reopen_files(self) -> None:
        super().reopen_files()
        for handler in getattr(self, "_writers", []):
            if isinstance(handler, logging.FileHandler):
                handler.acquire()
                try:
                    if handler.stream:
                        handler.close()
                        handler.stream = handler._open()
                finally:
                    handler.release()


def worker_exit(server, worker) -> None:
    """gunicorn's hook as a worker stops: its queued access lines are written first."""
    if isinstance(worker.log, RedactingLogger):
        worker.log.stop_writing()
