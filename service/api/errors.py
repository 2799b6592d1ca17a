"""Every failure as ``application/problem+json`` (RFC 9457), with a stable ``code``.

Clients branch on ``code``; ``type`` points at the code's entry in the
service's own documentation page (``/docs#error-<code>``), ``rule_id`` names
the game rule that refused a move and ``field`` the part of the request at
fault. Refusals that come from the rules keep the engine's code and message.
"""
from __future__ import annotations

import logging

from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from domain.core.errors import IllegalMove
from service.api import jsonio

PROBLEM_JSON = "application/problem+json"

log = logging.getLogger("cairn.api")

# Engine refusals whose meaning is not "the move is invalid" get their own status.
_ILLEGAL_MOVE_STATUS = {
    "not_your_turn": 403,
    "not_organiser": 403,
    "game_over": 409,
}

# Stable codes for the HTTP failures Werkzeug raises before a view runs.
_HTTP_CODES = {
    400: ("bad_request", "Bad request"),
    404: ("not_found", "Not found"),
    405: ("method_not_allowed", "Method not allowed"),
    413: ("body_too_large", "Request body too large"),
    415: ("unsupported_media_type", "Unsupported media type"),
}


class ApiError(Exception):
    """A refusal the API itself makes (as opposed to one of the rules)."""

    def __init__(
        self,
        status: int,
        code: str,
        title: str,
        detail: str,
        *,
        field: str | None = None,
        rule_id: str | None = None,
        headers: dict | None = None,
        **extra,
    ):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.field = field
        self.rule_id = rule_id
        self.headers = headers or {}
        self.extra = extra


def problem(error: ApiError) -> Response:
    body = {
        "type": f"/docs#error-{error.code}",
        "title": error.title,
        "status": error.status,
        "detail": error.detail,
        "code": error.code,
        "rule_id": error.rule_id,
        "field": error.field,
        **error.extra,
    }
    response = Response(jsonio.dumps(body), status=error.status, mimetype=PROBLEM_JSON)
    response.headers.update(error.headers)
    return response


def from_illegal_move(refusal: IllegalMove) -> ApiError:
    status = _ILLEGAL_MOVE_STATUS.get(refusal.code, 422)
    title = "Move refused by the rules" if refusal.rule_id else "Move refused"
    return ApiError(status, refusal.code, title, refusal.message, field=refusal.field, rule_id=refusal.rule_id)


def from_http_exception(error: HTTPException) -> ApiError:
    status = error.code or 500
    code, title = _HTTP_CODES.get(status, ("http_error", error.name))
    if status == 413:
        return ApiError(413, code, title, "the request body is larger than the service accepts")
    return ApiError(status, code, title, error.description or title)


def internal_error(error: Exception) -> Response:
    """Logged with its traceback here; the client learns nothing of the internals."""
    log.exception("unhandled error", exc_info=error)
    detail = "the service failed; a retry with the same Idempotency-Key is safe"
    return problem(ApiError(500, "internal_error", "Internal error", detail))


def register(app: Flask) -> None:
    app.register_error_handler(ApiError, problem)
    app.register_error_handler(IllegalMove, lambda refusal: problem(from_illegal_move(refusal)))
    app.register_error_handler(HTTPException, lambda error: problem(from_http_exception(error)))
    app.register_error_handler(Exception, internal_error)
