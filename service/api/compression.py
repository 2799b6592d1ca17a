"""gzip for answers worth compressing, when the client says it takes gzip.

A replay page runs to megabytes and a view of a long game to hundreds of
kilobytes; both shrink several times over. Answers under
:data:`MIN_BYTES` go out as they are: the header costs more than it saves.
The live stream and ``application/x-ndjson`` records are never compressed:
gzip would hold each line back until enough followed it. A stored export
file (a replay page, a JSON record) is read and compressed whole.

ETags are left as they are: they name a game's version (or a file's
content), which the client sends back in ``If-Match`` whatever encoding it
was shown; ``Vary: Accept-Encoding`` keeps caches from mixing encodings.
"""
from __future__ import annotations

import gzip

from flask import Response, request

from service.api.vary import vary_on

MIN_BYTES = 1024
# Answers with a whole body; a 206 holds a range of the uncompressed bytes, a 304 nothing.
COMPRESSED_STATUSES = frozenset({200, 201, 202})
LEVEL = 5
# The live stream and a record read line by line as it arrives must not wait for gzip's blocks.
NOT_COMPRESSED = frozenset({"text/event-stream", "application/x-ndjson", "application/gzip", "image/png",
                            "image/jpeg"})


def compress(response: Response) -> Response:
    if not _worth_it(response):
        return response
    vary_on(response, "Accept-Encoding")
    # Most API clients (bots, scripts) send no Accept-Encoding: their answers need no parse of the header.
    if "HTTP_ACCEPT_ENCODING" not in request.environ or request.accept_encodings["gzip"] <= 0:
        return response
    if response.direct_passthrough:
        response.direct_passthrough = False  # a file: read it whole to compress it
    body = response.get_data()
    if len(body) < MIN_BYTES:
        return response
    response.set_data(gzip.compress(body, compresslevel=LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    response.headers.pop("Accept-Ranges", None)  # ranges would count the bytes of the uncompressed file
    return response


def _worth_it(response: Response) -> bool:
    headers = response.headers
    if response.status_code not in COMPRESSED_STATUSES or "Content-Encoding" in headers:
        return False
    mimetype = headers.get("Content-Type", "").partition(";")[0].strip().lower()
    if mimetype in NOT_COMPRESSED or (response.is_streamed and not response.direct_passthrough):
        return False
    length = headers.get("Content-Length")
    return length is None or not length.isdigit() or int(length) >= MIN_BYTES
