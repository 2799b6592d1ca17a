"""Cross-origin access, so that a table or a bot served from any other origin can use the API.

Every credential Cairn knows is a bearer token the client sends itself, never a cookie, so any origin may
call the API without credentials mode and no page can act with a token it was not given. ``CORS_ORIGINS``
(``CAIRN_CORS_ORIGINS``: ``*``, or origins separated by commas) narrows the origins allowed. A preflight
is answered here before the rate limiter and the store are consulted: it carries no token and changes nothing.

The headers are worked out once, when the app is made: the policy is the same for every path, and an
answer's headers then cost a dictionary update instead of a policy evaluation on every request (Flask-CORS
spent about 10 us a request doing that, a fortieth of a move).
"""
from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, Response, request

# What a move sends: its token, its expected version, its idempotency key; and a stream's resume point.
REQUEST_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key",
                   "Last-Event-ID", "Accept")
# What a client reads beyond the simple response headers.
RESPONSE_HEADERS = ("ETag", "Location", "Retry-After", "Idempotent-Replayed", "Link",
                    "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")
METHODS = ("GET", "POST", "OPTIONS")
PREFLIGHT_MAX_AGE = 600
ALLOW_ORIGIN = "Access-Control-Allow-Origin"


def origins(setting: str) -> str | list[str]:
    listed = [origin.strip() for origin in setting.split(",") if origin.strip()]
    return "*" if not listed or "*" in listed else listed


@dataclass(frozen=True)
class Policy:
    """Which origins may read the API's answers, and the headers each answer and each preflight carries."""

    allowed: str | frozenset[str]

    @property
    def exposed(self) -> dict[str, str]:
        return {"Access-Control-Expose-Headers": ", ".join(RESPONSE_HEADERS)}

    @property
    def preflight(self) -> dict[str, str]:
        return {"Access-Control-Allow-Headers": ", ".join(REQUEST_HEADERS),
                "Access-Control-Allow-Methods": ", ".join(METHODS),
                "Access-Control-Max-Age": str(PREFLIGHT_MAX_AGE)}

    def origin_for(self, origin: str | None) -> str | None:
        """What ``Access-Control-Allow-Origin`` says to a request from ``origin``: ``*`` to anyone when every
        origin is allowed, else the origin itself when it is listed (and nothing otherwise)."""
        if self.allowed == "*":
            return "*"
        return origin if origin is not None and origin in self.allowed else None


def register(app: Flask, setting: str) -> None:
    allowed = origins(setting)
    policy = Policy("*" if allowed == "*" else frozenset(allowed))
    exposed, preflight = policy.exposed, policy.preflight
    varies = policy.allowed != "*"

    @app.before_request
    def answer_preflight() -> Response | None:
        """A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) is answered at once."""
        if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
            return None
        answer = app.make_default_options_response()
        if request.headers["Access-Control-Request-Method"].upper() in METHODS:
            answer.headers.update(preflight)
        return answer

    @app.after_request
    def allow_origin(response: Response) -> Response:
        headers = response.headers
        if ALLOW_ORIGIN in headers:
            return response
        if varies:
            headers.add("Vary", "Origin")
        granted = policy.origin_for(request.environ.get("HTTP_ORIGIN"))
        if granted is not None:
            headers.add(ALLOW_ORIGIN, granted)
            headers.extend(exposed)
        return response
