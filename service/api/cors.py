"""Cross-origin access, so that a table or a bot served from any other origin can use the API.

Every credential Cairn knows is a bearer token the client sends itself, never a cookie, so any origin may
call the API without credentials mode and no page can act with a token it was not given. ``CORS_ORIGINS``
(``CAIRN_CORS_ORIGINS``: ``*``, or origins separated by commas) narrows the origins allowed. A preflight
is answered here before the rate limiter and the store are consulted: it carries no token and changes nothing.
"""
from __future__ import annotations

from flask import Flask
from flask_cors import CORS

# What a move sends: its token, its expected version, its idempotency key; and a stream's resume point.
REQUEST_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key",
                   "Last-Event-ID", "Accept")
# What a client reads beyond the simple response headers.
RESPONSE_HEADERS = ("ETag", "Location", "Retry-After", "Idempotent-Replayed", "Link",
                    "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")
PREFLIGHT_MAX_AGE = 600


def origins(setting: str) -> str | list[str]:
    listed = [origin.strip() for origin in setting.split(",") if origin.strip()]
    return "*" if not listed or "*" in listed else listed


def register(app: Flask, setting: str) -> None:
    allowed = origins(setting)
    CORS(app, origins=allowed, send_wildcard=allowed == "*", supports_credentials=False,
         allow_headers=list(REQUEST_HEADERS), expose_headers=list(RESPONSE_HEADERS), max_age=PREFLIGHT_MAX_AGE,
         methods=["GET", "POST", "OPTIONS"])
