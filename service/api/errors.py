"""Every failure as ``application/problem+json`` (RFC 9457), with a stable ``code``.

Clients branch on ``code``; ``type`` points at the code's entry in the
service's own documentation page (``/docs#error-<code>``), ``rule_id`` names
the game rule that refused a move and ``field`` the part of the request at
fault. Refusals that come from the rules keep the engine's code and message.

An outage of Redis (down, paused, too slow, still loading) is 503
``store_unavailable`` with ``Retry-After``, never a 500, wherever it
surfaces: in a view, in RQ's calls, or in a hook that runs after the view.
"""
from __future__ import annotations

import logging

from flask import Flask, Response
from werkzeug.exceptions import HTTPException, InternalServerError

from domain.core.clock import ClockRunning
from domain.core.errors import IllegalMove
from service.api import jsonio
from service.store.connection import OUTAGE_ERRORS
from service.store.errors import NotReplicated

PROBLEM_JSON = "application/problem+json"
# Long enough for a restarted Redis to load a modest AOF, short enough that a client notices its return quickly.
STORE_RETRY_AFTER_SECONDS = 1

log = logging.getLogger("cairn.api")

# Engine refusals whose meaning is not "the move is invalid" get their own status.
_ILLEGAL_MOVE_STATUS = {
    "not_your_turn": 403,
    "not_organiser": 403,
    "game_over": 409,
    # The table's refusals (domain.core.table): the request is well formed, the table is not in a state for it.
    "organiser_cannot_resign": 403,
    "wrong_seat": 403,
    "seat_resigned": 409,
    "seats_open": 409,
    "seat_open": 409,
    "seat_taken": 409,
    # The takeback's (domain.core.takeback).
    "takebacks_off": 409,
    "takeback_pending": 409,
    "nothing_to_take_back": 409,
    "takeback_past_draw": 409,
    "no_takeback_pending": 409,
    "not_yours_to_answer": 403,
    # The clock's (domain.core.clock): the claim or the move is well formed, the clock is not in a state for it.
    "clock_running": 409,
    "not_on_clock": 409,
    "out_of_time": 409,
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
    # A claim made too early says how much time is left (TABLE-CLOCK-3).
    error = ApiError(status, refusal.code, title, refusal.message, field=refusal.field, rule_id=refusal.rule_id)
    if isinstance(refusal, ClockRunning):
        error.extra["remaining_ms"] = refusal.remaining_ms
    return error


def from_http_exception(error: HTTPException) -> ApiError:
    status = error.code or 500
    code, title = _HTTP_CODES.get(status, ("http_error", error.name))
    if status == 413:
        return ApiError(413, code, title, "the request body is larger than the service accepts")
    return ApiError(status, code, title, error.description or title)


def store_unavailable(error: Exception) -> Response:
    """Logged without a traceback: an outage is the store's state, not a fault of this code."""
    log.warning("Redis unavailable: %s: %s", type(error).__name__, error)
    detail = ("the game store did not answer in time; retry after Retry-After seconds (a move with the same "
              "Idempotency-Key, since it may have been recorded)")
    return problem(ApiError(503, "store_unavailable", "Store unavailable", detail,
                            headers={"Retry-After": str(STORE_RETRY_AFTER_SECONDS)}))


def not_replicated(error: NotReplicated) -> Response:
    """The write reached the master but no replica in time, so it is not acknowledged: with ``replicated``
    durability only what a replica has may be, since the replica is what survives the master."""
    log.warning("write not replicated: %s", error)
    detail = ("no replica of the game store confirmed the write in time; retry after Retry-After seconds with the "
              "same Idempotency-Key (it may have been recorded, and is then not recorded twice)")
    return problem(ApiError(503, "not_replicated", "Not replicated", detail,
                            headers={"Retry-After": str(STORE_RETRY_AFTER_SECONDS)}))


def unhandled(error: InternalServerError) -> Response:
    """What Flask makes of an exception raised outside a view (an ``after_request`` hook): an outage is
    still a 503."""
    cause = error.original_exception or error
    if isinstance(cause, OUTAGE_ERRORS):
        return store_unavailable(cause)
    if isinstance(cause, NotReplicated):
        return not_replicated(cause)
    return internal_error(cause)


def internal_error(error: BaseException) -> Response:
    """Logged with its traceback here; the client learns nothing of the internals."""
    log.exception("unhandled error", exc_info=error)
    detail = "the service failed; a retry with the same Idempotency-Key is safe"
    return problem(ApiError(500, "internal_error", "Internal error", detail))


def register(app: Flask) -> None:
    app.register_error_handler(ApiError, problem)
    app.register_error_handler(IllegalMove, lambda refusal: problem(from_illegal_move(refusal)))
    app.register_error_handler(HTTPException, lambda error: problem(from_http_exception(error)))
    app.register_error_handler(InternalServerError, unhandled)
    for outage in OUTAGE_ERRORS:
        app.register_error_handler(outage, store_unavailable)
    app.register_error_handler(NotReplicated, not_replicated)
    app.register_error_handler(Exception, internal_error)
