"""The shapes of Cairn's answers (``components/schemas`` of ``api_spec.yaml``), for type checkers and editors.

They are plain dicts at run time: the client hands on what the service sent,
so a field the service adds later is there before this module names it.
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class GameRules(TypedDict):
    name: str
    title: str
    rules_version: str
    player_counts: list[int]
    options_schema: dict[str, Any]


class RulesList(TypedDict):
    games: list[GameRules]


class Seat(TypedDict):
    seat: str
    name: str
    # In a created game's answer: the seat's token, None while the seat is open.
    token: NotRequired[str | None]
    open: NotRequired[bool]


class CreatedGame(TypedDict):
    game_id: str
    game: str
    version: int
    chance_mode: str
    seats: list[Seat]
    organiser_token: str


class GameSummary(TypedDict):
    game_id: str
    game: str
    status: str
    version: int
    chance_mode: str
    players: list[str]
    created_at: str
    updated_at: str | None
    open_seats: NotRequired[list[str]]


class GameIndex(TypedDict):
    games: list[GameSummary]
    total: int
    offset: int
    limit: int
    next_offset: int | None


class GameView(TypedDict):
    game_id: str
    reader: str
    game: str
    version: int
    status: str
    chance_mode: str
    seats: list[Seat]
    options: dict[str, Any]
    waiting_for: list[str]
    chance_pending: dict[str, Any] | None
    seed: str | None
    state: dict[str, Any]
    score: dict[str, Any] | None
    open_seats: NotRequired[list[str]]
    ended_by: NotRequired[dict[str, Any] | None]
    # {"mode", "as_of", "now", "seats": {seat: {"remaining_ms", "running"}}, ...settings}; None without a clock.
    clock: NotRequired[dict[str, Any] | None]
    current_version: NotRequired[int]
    takebacks: NotRequired[str]
    # The open takeback request ({"seat", "from_version", "to_version", "waiting_for"}), or None.
    takeback: NotRequired[dict[str, Any] | None]
    # The seat whose takeback request would be taken now, or None.
    may_take_back: NotRequired[str | None]
    # The versions taken back so far, each [first, last].
    taken_back: NotRequired[list[list[int]]]


class LegalMoves(TypedDict):
    game_id: str
    version: int
    seat: str
    moves: list[dict[str, Any]]


class Envelope(TypedDict):
    game_id: str
    version: int
    type: str
    seat: str | None
    data: dict[str, Any]
    command_id: str
    time: str
    rules_version: str
    prev_hash: str
    hash: str
    command: NotRequired[dict[str, Any]]
    redacted: NotRequired[list[str]]


class MoveResult(TypedDict):
    game_id: str
    first_version: int
    version: int
    status: str
    waiting_for: list[str]
    events: list[Envelope]


# ``from`` is a keyword, so this one is spelt the functional way.
EventPage = TypedDict("EventPage", {
    "game_id": str, "reader": str, "version": int, "from": int, "limit": int, "events": list[Envelope],
    "next_from": int | None,
})


class Job(TypedDict):
    job_id: str
    job_url: str
    kind: str
    game_id: str
    status: str
    progress: Any
    retries_left: int | None
    requeued: int
    enqueued_at: str | None
    started_at: str | None
    ended_at: str | None
    error: str | None
    result_url: str | None


class Score(TypedDict):
    game_id: str
    version: int
    score_sheet: dict[str, Any]


class Export(TypedDict):
    format: str
    version: int
    reader: str
    size: int
    etag: str
    content_type: str
    download_url: str


class ExportReady(TypedDict):
    status: str
    export: Export


class AuditReady(TypedDict):
    status: str
    report: dict[str, Any]
    report_url: str


class Integrity(TypedDict):
    game_id: str
    version: int
    ok: bool
    first_bad_version: int | None
    snapshot: dict[str, Any] | None


class SeatJoined(TypedDict):
    game_id: str
    version: int
    seat: str
    name: str
    token: str
    open_seats: list[str]
    events: list[Envelope]


class TokenRotated(TypedDict):
    game_id: str
    version: int
    reader: str
    token: str
    events: list[Envelope]
