"""One HTTP session to one Cairn service: tokens, retries, and failures turned into exceptions.

A single :class:`requests.Session` keeps its connections alive, so a bot
making thousands of moves opens a handful of connections, not thousands.
Every status the service answered is counted in :attr:`Transport.statuses`
(each attempt, retried or not), which is how a soak sees a 503 the client
rode out.
"""
from __future__ import annotations

import collections
from collections.abc import Mapping
from typing import Any

import requests
import urllib3

from cairn_client.errors import ConnectionFailed, error_for
from cairn_client.retry import RETRY_STATUSES, RETRY_STATUSES_IF_IDEMPOTENT, Budget, RetryPolicy, parse_retry_after

# Connect quickly or not at all; a read may wait for a slow page, never for ever.
DEFAULT_TIMEOUT = (5.0, 30.0)
USER_AGENT = "cairn-client/0.1"


class Transport:
    def __init__(self, base_url: str, token: str | None = None, *, timeout: tuple[float, float] = DEFAULT_TIMEOUT,
                 retry: RetryPolicy | None = None, session: requests.Session | None = None):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", USER_AGENT)
        self.statuses: collections.Counter[int] = collections.Counter()

    def close(self) -> None:
        self.session.close()

    def request(self, method: str, path: str, *, token: str | None = None, params: Mapping[str, Any] | None = None,
                json: Any = None, headers: Mapping[str, str] | None = None, idempotent: bool,
                stream: bool = False, timeout: tuple[float, float] | None = None) -> requests.Response:
        """The service's answer with a status below 400 (or 304), else the :class:`ApiError` it stands for.

        ``idempotent`` says whether sending the request twice is harmless; see :mod:`cairn_client.retry`.
        """
        sent = dict(headers or {})
        bearer = token or self.token
        if bearer:
            sent["Authorization"] = f"Bearer {bearer}"
        query = {key: value for key, value in (params or {}).items() if value is not None}
        budget = Budget(self.retry)
        while True:
            budget.start()
            try:
                response = self.session.request(method, self.base_url + path, params=query, json=json, headers=sent,
                                                stream=stream, timeout=timeout or self.timeout)
            except requests.RequestException as error:
                if not _may_resend(error, idempotent) or not budget.wait(None):
                    raise ConnectionFailed(f"{method} {path}: {error}") from error
                continue
            self.statuses[response.status_code] += 1
            if response.status_code < 400:
                return response
            retryable = response.status_code in RETRY_STATUSES or (
                idempotent and response.status_code in RETRY_STATUSES_IF_IDEMPOTENT)
            problem = _problem(response)
            if retryable and budget.wait(parse_retry_after(response.headers.get("Retry-After"))):
                continue
            raise error_for(response.status_code, problem)


def _may_resend(error: requests.RequestException, idempotent: bool) -> bool:
    """A connection never made is safe to try again; one that broke after sending is safe only if idempotent."""
    if isinstance(error, requests.ConnectTimeout) or _never_connected(error):
        return True
    return idempotent and isinstance(error, requests.ConnectionError | requests.Timeout
                                     | requests.exceptions.ChunkedEncodingError)


def _never_connected(error: requests.RequestException) -> bool:
    """A refused connection: requests wraps it as urllib3's NewConnectionError, the request never left."""
    reason = getattr(error.args[0], "reason", None) if error.args else None
    return isinstance(reason, urllib3.exceptions.NewConnectionError)


def _problem(response: requests.Response) -> dict[str, Any]:
    """The problem+json body; a proxy's error page in front of the service becomes its first 200 characters."""
    try:
        body = response.json()
    except ValueError:
        body = None
    text = response.text
    response.close()
    return body if isinstance(body, dict) else {"detail": text[:200]}
