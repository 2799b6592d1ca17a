"""What can go wrong, as exceptions a caller can branch on without reading response bodies.

Cairn answers every failure as ``application/problem+json`` with a stable
``code``; :class:`ApiError` carries it with the rule that refused a move and
the field at fault. The subclasses follow the status, so ``except StaleVersion``
reads like the decision it leads to (read the game again and decide again).
"""
from __future__ import annotations

from typing import Any


class CairnError(Exception):
    """Anything this client raises."""


class ApiError(CairnError):
    """The service refused the request; nothing was changed by it."""

    def __init__(self, status: int, problem: dict[str, Any]):
        self.status = status
        self.problem = problem
        self.code: str = problem.get("code") or f"http_{status}"
        self.rule_id: str | None = problem.get("rule_id")
        self.field: str | None = problem.get("field")
        self.detail: str = problem.get("detail") or problem.get("title") or ""
        self.current_version: int | None = problem.get("current_version")
        self.retry_after: float | None = problem.get("retry_after")
        rule = f" [{self.rule_id}]" if self.rule_id else ""
        at = f" (field {self.field})" if self.field else ""
        super().__init__(f"{status} {self.code}{rule}: {self.detail}{at}")


class BadRequest(ApiError):
    """400: malformed JSON or a malformed header."""


class Unauthorized(ApiError):
    """401: no token, a malformed one, or one this game did not issue."""


class Forbidden(ApiError):
    """403: the token's seat may not do this now (``not_your_turn``, ``wrong_seat``, ``not_organiser``)."""


class NotFound(ApiError):
    """404: no such game, export, audit or job."""


class Conflict(ApiError):
    """409: the game has ended, or the request needs a state the game is not in."""


class StaleVersion(Conflict):
    """409 ``stale_version``: the game moved on; ``current_version`` says where it is."""


class Refused(ApiError):
    """422: a field is wrong or the rules refuse the move (``rule_id`` names the rule)."""


class PreconditionRequired(ApiError):
    """428: the move did not say which version it was decided against."""


class RateLimited(ApiError):
    """429 after every retry the policy allowed."""


class ServerError(ApiError):
    """5xx: the service failed (500) or is unavailable (503) after every retry the policy allowed."""


class ConnectionFailed(CairnError):
    """The service could not be reached, or the connection broke, after every retry the policy allowed."""


class JobFailed(CairnError):
    """A worker job ended without its result."""

    def __init__(self, job: dict[str, Any]):
        self.job = job
        super().__init__(f"job {job.get('job_id')} {job.get('status')}: {job.get('error') or 'no result'}")


class JobTimeout(CairnError, TimeoutError):
    """A worker job did not finish within the time the caller gave it."""

    def __init__(self, job: dict[str, Any], seconds: float):
        self.job = job
        super().__init__(f"job {job.get('job_id')} still {job.get('status')} after {seconds:g} s")


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict, 422: Refused,
    428: PreconditionRequired, 429: RateLimited,
}


def error_for(status: int, problem: dict[str, Any]) -> ApiError:
    """The most specific exception for a failed answer."""
    if problem.get("code") == "stale_version":
        return StaleVersion(status, problem)
    if status >= 500:
        return ServerError(status, problem)
    return _BY_STATUS.get(status, ApiError)(status, problem)
