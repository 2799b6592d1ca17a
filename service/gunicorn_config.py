"""gunicorn settings for ``cairn serve`` and the container image (``gunicorn -c python:service.gunicorn_config``).

A seat token in a log is a seat anyone reading the log can play, and the
live stream takes its token in the query string (a browser's EventSource
cannot send headers), so gunicorn's request line would show it. Every line
gunicorn writes, access and error log alike, has ``token=`` values and
``Authorization`` credentials replaced before it is written.
"""
from __future__ import annotations

import logging
import re

from gunicorn.glogging import Logger

REDACTED = "[redacted]"
_SECRETS = (
    (re.compile(r"([?&;]token=)[^&;\s\"']*", re.IGNORECASE), rf"\g<1>{REDACTED}"),
    (re.compile(r"\b(bearer|basic)\s+[\w.~+/=-]+", re.IGNORECASE), rf"\g<1> {REDACTED}"),
)
# What every secret above contains: a line without any of it is written as it is, after one search, not two.
_SUSPECT = re.compile(r"token=|bearer|basic", re.IGNORECASE)

accesslog = "-"
logger_class = "service.gunicorn_config.RedactingLogger"


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


class RedactingLogger(Logger):
    """gunicorn's logger with :class:`RedactTokens` on its access and error logs."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for target in (self.error_log, self.access_log):
            if not any(isinstance(existing, RedactTokens) for existing in target.filters):
                target.addFilter(RedactTokens())
