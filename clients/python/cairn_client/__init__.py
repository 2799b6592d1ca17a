"""A client for the Cairn game record service.

:class:`Client` has one method per operation of Cairn's API, sends moves with
``If-Match`` and an ``Idempotency-Key`` and retries them safely, pages through
event logs, follows live streams through dropped connections, waits for
worker jobs, and raises an :class:`ApiError` (with ``status``, ``code``,
``rule_id``, ``field`` and ``detail``) for every refusal.
"""
from cairn_client.client import Client, is_job
from cairn_client.errors import (
    ApiError,
    BadRequest,
    CairnError,
    Conflict,
    ConnectionFailed,
    Forbidden,
    JobFailed,
    JobTimeout,
    NotFound,
    PreconditionRequired,
    RateLimited,
    Refused,
    ServerError,
    StaleVersion,
    Unauthorized,
)
from cairn_client.policy import Policy, RandomPolicy
from cairn_client.retry import NO_RETRIES, RetryPolicy

__all__ = [
    "NO_RETRIES", "ApiError", "BadRequest", "CairnError", "Client", "Conflict", "ConnectionFailed", "Forbidden",
    "JobFailed", "JobTimeout", "NotFound", "Policy", "PreconditionRequired", "RandomPolicy", "RateLimited",
    "Refused", "RetryPolicy", "ServerError", "StaleVersion", "Unauthorized", "is_job",
]
