"""The log filter of ``cairn serve``: tokens never reach a log line, and every other line reads as it was logged."""
from __future__ import annotations

import io
import logging
import uuid

from service.gunicorn_config import RedactTokens


def written(message: str, *args: object) -> str:
    """What a logger with the filter writes for ``message % args``."""
    stream = io.StringIO()
    logger = logging.getLogger(f"cairn.redaction.{uuid.uuid4().hex}")
    logger.propagate = False
    logger.addHandler(logging.StreamHandler(stream))
    logger.addFilter(RedactTokens())
    logger.warning(message, *args)
    return stream.getvalue()


def test_tokens_in_a_lines_fields_are_hidden():
    line = written('"%s" %s', "GET /games/g1/stream?token=s3cret&from=1", "Authorization: Bearer s3cret")
    assert line == '"GET /games/g1/stream?token=[redacted]&from=1" Authorization: Bearer [redacted]\n'


def test_a_line_without_tokens_is_written_as_it_was_logged():
    assert written('%s "%s" %d', "127.0.0.1", "POST /games/g1/moves?include=view HTTP/1.1", 201) == (
        '127.0.0.1 "POST /games/g1/moves?include=view HTTP/1.1" 201\n')
    assert written("%s took %d%%", "the sweep", 40) == "the sweep took 40%\n"
