"""Live following of a game as server-sent events, redacted for the reader like the event log.

Each event is sent with its version as the SSE ``id``, so a client that
reconnects with ``Last-Event-ID`` misses nothing and sees nothing twice. A
stream ends after ``STREAM_IDLE_SECONDS`` without an event (with a final
``end`` event), so an idle follower never holds a server worker for ever.
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request

from service.api import context
from service.api.auth import reader_for
from service.api.context import game_meta, is_revealed
from service.api.errors import ApiError
from service.api.schemas import StreamQuery, load
from service.store.envelope import redact_envelope

blueprint = Blueprint("stream", __name__)


@blueprint.get("/games/<game_id>/stream")
def follow(game_id: str):
    meta = game_meta(game_id)
    store = context.store()
    reader = reader_for(store, game_id, required=False, allow_query=True)
    query = load(StreamQuery(), request.args.to_dict(), where="query")
    after = _last_seen(query, meta["version"])
    settings = current_app.config
    events = _events(store, game_id, reader, after, is_revealed(meta),
                     float(settings["STREAM_IDLE_SECONDS"]), float(settings["STREAM_POLL_SECONDS"]))
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(events, mimetype="text/event-stream", headers=headers)


def _last_seen(query: dict, current: int) -> int:
    """The version the client already has: ``Last-Event-ID``, else ``from`` - 1, else the current version."""
    header = request.headers.get("Last-Event-ID")
    if header is not None:
        if not header.isdigit():
            raise ApiError(400, "invalid_last_event_id", "Invalid Last-Event-ID",
                           "Last-Event-ID must be the version of the last event received", field="Last-Event-ID")
        return int(header)
    if "from_" in query:
        return query["from_"] - 1
    return current


def _events(store, game_id: str, reader: str | None, after: int, revealed: bool, idle: float,
            poll: float) -> Iterator[str]:
    yield "retry: 1000\n\n"
    deadline = time.monotonic() + idle
    while (remaining := deadline - time.monotonic()) > 0:
        envelopes = store.wait_for_events(game_id, after, max(1, int(min(poll, remaining) * 1000)))
        if not envelopes:
            yield ": waiting\n\n"
            continue
        for envelope in envelopes:
            yield f"id: {envelope['version']}\ndata: {json.dumps(redact_envelope(envelope, reader, revealed))}\n\n"
            revealed = revealed or envelope["type"] == "game_ended"
            after = envelope["version"]
        deadline = time.monotonic() + idle
    yield f"event: end\ndata: {json.dumps({'reason': 'idle', 'version': after})}\n\n"
