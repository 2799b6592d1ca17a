"""Live following of a game as server-sent events, redacted for the reader like the event log.

Each event is sent with its version as the SSE ``id``, so a client that
reconnects with ``Last-Event-ID`` misses nothing and sees nothing twice.
A stream always ends with an ``end`` event that says why, so a follower never
has to guess whether it was cut: ``idle`` after ``STREAM_IDLE_SECONDS``
without an event, ``game_over`` once there is nothing left to follow, and
``store_unavailable`` or ``game_not_found`` when the record cannot be read, and
``token_rotated`` right after the event that replaced the token the stream was
opened with: the old token reads no more, on a stream no more than elsewhere.

With ``?view=1`` the stream also carries the reader's view (the body of
``GET /games/{id}``) as an ``event: view`` when it starts and after each read
of new events, so a follower needs no rules engine: the stream folds the
events it sends into a game of its own, one load when it starts.

Each open stream holds a server thread, so a process follows at most
``STREAM_MAX_OPEN`` streams and answers 503 ``too_many_streams`` beyond that,
which keeps threads free for moves and reads however many followers come.
"""
from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

import redis
from flask import Blueprint, Response, current_app, request
from flask.blueprints import BlueprintSetupState

from domain.core.match import Match, apply_event, start, view
from domain.registry import get_rules
from service.api import context
from service.api.auth import reader_for
from service.api.clocks import with_now
from service.api.context import game_meta, is_revealed, reader_name
from service.api.errors import ApiError
from service.api.schemas import StreamQuery, load
from service.store import EventStore, GameNotFound
from service.store.connection import Locations, StoreClient
from service.store.envelope import Envelope, redact_envelope

# A version as a client sends it back: ASCII digits only (str.isdigit also takes "²"), and no more of them
# than any version has.
DECIMAL = re.compile(r"[0-9]{1,16}")
blueprint = Blueprint("stream", __name__)
log = logging.getLogger("cairn.api")

KEEPALIVE = ": keep-alive\n\n"
# How much longer than the longest block the stream's Redis client waits for a reply before it gives up.
READ_MARGIN_SECONDS = 5.0
# Events sent per read, so a follower starting at version 1 of a long game is not answered in one reply.
EVENTS_PER_READ = 500


@dataclass
class Streams:
    """What one process's streams share: their Redis client, the open-stream slots and the timings."""

    client: StoreClient
    slots: threading.BoundedSemaphore
    limit: int
    keepalive: float
    idle: float


@blueprint.record_once
def _open_streams(state: BlueprintSetupState) -> None:
    """A Redis client of the streams' own, made once per app.

    ``XREAD BLOCK`` keeps a connection silent for the whole block, so the
    ordinary clients' read timeout would cut a waiting stream. This client's
    is longer than any block a stream asks for; like every client it does not
    retry: a follower is better told ``store_unavailable`` than kept waiting
    through back-offs.
    """
    config = state.app.config
    keepalive = float(config["STREAM_KEEPALIVE_SECONDS"])
    client = Locations.from_config(config).connect_store(read_timeout=keepalive + READ_MARGIN_SECONDS)
    limit = int(config["STREAM_MAX_OPEN"])
    state.app.extensions["cairn.streams"] = Streams(client, threading.BoundedSemaphore(limit), limit, keepalive,
                                                    float(config["STREAM_IDLE_SECONDS"]))


@blueprint.get("/games/<game_id>/stream")
def follow(game_id: str):
    meta = game_meta(game_id)
    store = context.store()
    reader = reader_for(store, game_id, required=False, allow_query=True)
    query = load(StreamQuery(), request.args.to_dict(), where="query")
    after = _last_seen(query, meta["version"])
    streams: Streams = current_app.extensions["cairn.streams"]
    if not streams.slots.acquire(blocking=False):
        raise ApiError(503, "too_many_streams", "Too many live streams",
                       f"this server process already follows {streams.limit} streams; retry later",
                       headers={"Retry-After": str(math.ceil(streams.keepalive))})
    following = _Following(store, streams, game_id, reader, after, ended=is_revealed(meta),
                           scored=meta["status"] == "scored", with_view=query.get("view", False))
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    response = Response(following.messages(), mimetype="text/event-stream", headers=headers)
    response.call_on_close(streams.slots.release)
    return response


def _last_seen(query: dict, current: int) -> int:
    """The version the client already has: ``Last-Event-ID``, else ``from`` - 1, else the current version.

    A version the game has not reached is refused before the stream starts: waiting for it could
    last for ever, and a resumed follower that claims it would silently miss the events before it.
    """
    header = request.headers.get("Last-Event-ID")
    if header is not None:
        if not DECIMAL.fullmatch(header):
            raise ApiError(400, "invalid_last_event_id", "Invalid Last-Event-ID",
                           "Last-Event-ID must be the version of the last event received", field="Last-Event-ID")
        return _within(int(header), current, "Last-Event-ID", f"Last-Event-ID {header}")
    if "from_" in query:
        return _within(query["from_"] - 1, current, "from", f"'from' {query['from_']}")
    return current


def _within(seen: int, current: int, field: str, asked: str) -> int:
    if seen > current:
        raise ApiError(422, "version_out_of_range", "No such version",
                       f"the game is at version {current}; {asked} is beyond it (follow from at most "
                       f"{current + 1})", field=field, current_version=current)
    return seen


@dataclass
class _Following:
    """One follower's place in the game: the last version sent and what it has seen of the game's end.

    Once the game has ended its seed is public, so from then on every event is sent unredacted.
    """

    store: EventStore
    streams: Streams
    game_id: str
    reader: str | None
    after: int
    ended: bool
    scored: bool
    with_view: bool = False
    match: Match[Any] | None = None

    def messages(self) -> Iterator[str]:
        yield "retry: 1000\n\n"
        try:
            if self.with_view and self.after >= 1:
                self.match = self.store.load(self.game_id, at=self.after)
                yield self._view()
            reason = yield from self._follow()
        except redis.RedisError as error:
            log.warning("live stream of game %s ended at version %s: Redis failed (%s)", self.game_id, self.after,
                        error)
            reason = "store_unavailable"
        except GameNotFound:
            reason = "game_not_found"
        yield f"event: end\ndata: {json.dumps({'reason': reason, 'version': self.after})}\n\n"

    def _follow(self) -> Generator[str, None, str]:
        """Events as they come and a keep-alive comment after each quiet interval; returns the end reason.

        A scored game has nothing more to follow. An ended one still expects its ``game_scored`` event
        from a worker, so the stream waits for it up to the idle time, then ends as ``game_over`` anyway.
        """
        streams = self.streams
        deadline = time.monotonic() + streams.idle
        while not self.scored:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "game_over" if self.ended else "idle"
            envelopes = self.store.wait_for_events(
                self.game_id, self.after, max(1, int(min(streams.keepalive, remaining) * 1000)),
                client=streams.client, count=EVENTS_PER_READ,
            )
            if not envelopes:
                if deadline > time.monotonic():
                    yield KEEPALIVE
                continue
            for envelope in envelopes:
                yield self._message(envelope)
                if self._token_replaced(envelope):
                    if self.with_view:
                        yield self._view()
                    return "token_rotated"
            if self.with_view:
                yield self._view()
            deadline = time.monotonic() + streams.idle
        return "game_over"

    def _message(self, envelope: Envelope) -> str:
        shown = redact_envelope(envelope, self.reader, self.ended)
        self.after = envelope["version"]
        self.ended = self.ended or envelope["type"] == "game_ended"
        self.scored = self.scored or envelope["type"] == "game_scored"
        if self.with_view:
            self.match = (start(get_rules(envelope["data"]["game"]), envelope) if self.match is None
                          else apply_event(self.match, envelope, self.store.earlier(self.game_id)))
        return f"id: {envelope['version']}\ndata: {json.dumps(shown)}\n\n"

    def _token_replaced(self, envelope: Envelope) -> bool:
        """The event replaced the token this stream was opened with (TABLE-TOKEN-1)."""
        return envelope["type"] == "token_rotated" and self.reader is not None and \
            envelope["data"].get("reader") == self.reader

    def _view(self) -> str:
        """The reader's view as of the last event sent; no ``id``, so ``Last-Event-ID`` still names that event."""
        assert self.match is not None, "a view follows the load or the first event"
        shown = {"game_id": self.game_id, "reader": reader_name(self.reader), **with_now(view(self.match, self.reader))}
        return f"event: view\ndata: {json.dumps(shown)}\n\n"
