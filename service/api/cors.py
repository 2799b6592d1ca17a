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

from flask import Flask, Response, request

from service.api.vary import vary_on

# What a move sends: its token, its expected version, its idempotency key; and a stream's resume point.
REQUEST_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key",
                   "Last-Event-ID", "Accept")
# What a client reads beyond the simple response headers.
RESPONSE_HEADERS = ("ETag", "Location", "Retry-After", "Idempotent-Replayed", "Link",
                    "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")
METHODS = ("GET", "POST", "OPTIONS")
PREFLIGHT_MAX_AGE = 600
ALLOW_ORIGIN = "Access-Control-Allow-Origin"
EXPOSED = {"Access-Control-Expose-Headers": ", ".join(RESPONSE_HEADERS)}
PREFLIGHT = {"Access-Control-Allow-Headers": ", ".join(REQUEST_HEADERS),
             "Access-Control-Allow-Methods": ", ".join(METHODS),
             "Access-Control-Max-Age": str(PREFLIGHT_MAX_AGE)}


def origins(setting: str) -> str | list[str]:
    listed = [origin.strip() for origin in setting.split(",") if origin.strip()]
    return "*" if not listed or "*" in listed else listed


def register(app: Flask, setting: str) -> None:
    allowed = origins(setting)
    listed = None if allowed == "*" else frozenset(allowed)

    @app.before_request
    def answer_preflight() -> Response | None:
        """A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) is answered at once."""
        if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
            return None
        answer = app.make_default_options_response()
        if request.headers["Access-Control-Request-Method"].upper() in METHODS:
            answer.headers.update(PREFLIGHT)
        return answer

    @app.after_request
    def allow_origin(response: Response) -> Response:
        """``*`` to any request when every origin is allowed; else the request's origin when it is listed,
        and ``Vary: Origin`` on every answer, since the header then depends on it."""
        headers = response.headers
        if ALLOW_ORIGIN in headers:
            return response
        if listed is None:
            granted: str | None = "*"
        else:
            vary_on(response, "Origin")
            origin = request.environ.get("HTTP_ORIGIN")
            granted = origin if origin in listed else None
        if granted is not None:
            headers.add(ALLOW_ORIGIN, granted)
            headers.extend(EXPOSED)
        return response
