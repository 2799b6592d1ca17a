"""Which record format a ``GET /games/{id}/export`` asks for: ``?format=``, else its ``Accept`` header.

Each format has one media type (the notation's own is ``text/x-cairn``;
``text/plain`` is taken to mean it too); a request without ``Accept`` gets
JSON, a browser (``text/html`` first) the replay page, and one that accepts
none of them a 406 listing what there is.
"""
from __future__ import annotations

from flask import request

from service.api.errors import ApiError

# The formats in order of preference when the client has none (``*/*``), each with its media type.
MEDIA_TYPES = {
    "application/json": "json",
    "application/x-ndjson": "ndjson",
    "text/x-cairn": "cairn",
    "text/plain": "cairn",
    "text/html": "html",
}
FORMAT_MEDIA_TYPES = {"json": "application/json", "ndjson": "application/x-ndjson", "cairn": "text/x-cairn",
                      "html": "text/html"}
# An ended game with at most this many events is written during the request; a longer one by a worker.
BUILT_AT_ONCE = 3000


def chosen_format() -> tuple[str, str]:
    """``(format, media type)``; 400 for an unknown ``format``, 406 when ``Accept`` allows no format."""
    asked = request.args.get("format")
    if asked is not None:
        if asked not in FORMAT_MEDIA_TYPES:
            raise ApiError(400, "invalid_query", "Invalid query parameter",
                           f"format: must be one of {', '.join(FORMAT_MEDIA_TYPES)}", field="format",
                           formats=offered())
        return asked, FORMAT_MEDIA_TYPES[asked]
    accept = request.accept_mimetypes
    if not accept:
        return "json", FORMAT_MEDIA_TYPES["json"]
    media_type = accept.best_match(list(MEDIA_TYPES))
    if media_type is None:
        raise ApiError(406, "not_acceptable", "Not acceptable",
                       f"no record format matches Accept: {request.headers.get('Accept')}; "
                       f"accept one of {', '.join(FORMAT_MEDIA_TYPES.values())} or ask for ?format=",
                       field="Accept", formats=offered())
    return MEDIA_TYPES[media_type], media_type


def offered() -> list[dict[str, str]]:
    return [{"format": fmt, "media_type": media_type} for fmt, media_type in FORMAT_MEDIA_TYPES.items()]
