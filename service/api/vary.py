"""``Vary``: the request headers an answer depends on, for caches between the API and its clients."""
from __future__ import annotations

from flask import Response


def vary_on(response: Response, field: str) -> None:
    """``field`` added to the answer's ``Vary``, once. werkzeug's ``response.vary`` parses the header into a
    set and writes it back on every change, which the hooks that add to it on every answer need not pay."""
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = field
    elif field.lower() not in (name.strip().lower() for name in vary.split(",")):
        response.headers["Vary"] = f"{vary}, {field}"
