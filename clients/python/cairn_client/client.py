"""The Cairn API as Python methods: one per operation of ``api_spec.yaml``, plus the loops every client needs.

Each method marked with :func:`operation` performs exactly one operation of
the contract (its name is the operation's ``operationId`` in snake case).
Beside them sit the loops that otherwise every client writes again: paging
(:meth:`Client.iter_events`, :meth:`Client.iter_games`), following a game
through dropped connections (:meth:`Client.follow_game`), and waiting for
worker jobs (:meth:`Client.wait_for_job`, :meth:`Client.export`,
:meth:`Client.audit`, :meth:`Client.wait_for_score`).

The client remembers the last version it saw of each game (from views,
legal moves, moves, pages, streams and stale-version refusals), so
:meth:`Client.submit_move` sends ``If-Match`` without being told. It keeps
the last view of each game it read for each token, with the ``ETag`` the
service gave it, and reads the game again with that tag in ``If-None-Match``:
while the game has not moved the service answers 304 with no body, and the
kept view is the answer.
"""
from __future__ import annotations

import json
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator, Mapping
from typing import Any, TypeVar, cast

import requests

from cairn_client import sse
from cairn_client.errors import ConnectionFailed, JobFailed, JobTimeout, NotFound, StaleVersion
from cairn_client.retry import Budget, RetryPolicy
from cairn_client.transport import DEFAULT_TIMEOUT, Transport
from cairn_client.types import (
    AuditReady,
    CreatedGame,
    Envelope,
    EventPage,
    ExportReady,
    GameIndex,
    GameSummary,
    GameView,
    Integrity,
    Job,
    LegalMoves,
    MoveResult,
    RulesList,
    Score,
    SeatJoined,
    TokenRotated,
)

F = TypeVar("F", bound=Callable[..., Any])
ProgressCallback = Callable[[Job], None]

# Longer than the service's keep-alive interval (15 s by default), so a quiet but live stream never times out.
STREAM_READ_TIMEOUT = 60.0
# A stream ends by itself with these reasons for good; any other end (``idle``, ``store_unavailable``) is resumed.
FINAL_END_REASONS = frozenset({"game_over", "game_not_found", "token_rotated"})
JOB_DONE = "finished"
JOB_FAILED = frozenset({"failed", "stopped", "canceled"})
# Views kept for revalidation, the least recently read dropped first: enough for a bot's seats in many games.
KEPT_VIEWS = 256


def operation(method: str, path: str) -> Callable[[F], F]:
    """Mark the method that performs the operation ``method path`` of the contract."""

    def mark(func: F) -> F:
        func.operation = (method, path)  # type: ignore[attr-defined]
        return func

    return mark


def is_job(answer: Mapping[str, object]) -> bool:
    """Whether an answer of the records operations is a job still making the result (a 202) rather than it."""
    return "job_id" in answer and "job_url" in answer


class Client:
    """A client of one Cairn service; ``token`` is used wherever a call names none.

    One client holds one HTTP session: keep one per thread, and reuse it.
    """

    def __init__(self, base_url: str, token: str | None = None, *, timeout: tuple[float, float] = DEFAULT_TIMEOUT,
                 retry: RetryPolicy | None = None, session: requests.Session | None = None):
        self.transport = Transport(base_url, token, timeout=timeout, retry=retry, session=session)
        self.versions: dict[str, int] = {}
        self._views = KeptViews(KEPT_VIEWS)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.transport.close()

    # The service and its games

    @operation("GET", "/rules")
    def list_rules(self) -> RulesList:
        return self._json("GET", "/rules")

    @operation("GET", "/openapi.yaml")
    def get_spec(self) -> str:
        return self.transport.request("GET", "/openapi.yaml", idempotent=True).text

    @operation("GET", "/")
    def get_front_page(self) -> str:
        """The front page (HTML): the newest games, each linked to its table page and, once over, its replay."""
        return self.transport.request("GET", "/", idempotent=True).text

    @operation("GET", "/docs")
    def get_docs(self) -> str:
        return self.transport.request("GET", "/docs", idempotent=True).text

    @operation("GET", "/health")
    def get_health(self) -> dict[str, Any]:
        """The serving process answers (it asks nothing of Redis)."""
        return self._json("GET", "/health")

    @operation("GET", "/ready")
    def get_ready(self) -> dict[str, Any]:
        """Whether the service can do its work: the 200 answer, or the 503 ``not_ready`` problem, whose
        ``failed`` names the checks that failed. Asked once and never retried, as a probe should be."""
        transport = self.transport
        return transport.session.get(transport.base_url + "/ready", timeout=transport.timeout).json()

    @operation("GET", "/keys")
    def list_keys(self) -> dict[str, Any]:
        """The public keys that sign game heads; ``cairn verify --key`` checks an export against them."""
        return self._json("GET", "/keys")

    # Games

    @operation("POST", "/games")
    def create_game(self, game: str, players: list[str], *, options: dict[str, Any] | None = None,
                    chance_mode: str | None = None, seed: str | None = None,
                    open_seats: list[str] | None = None, takebacks: str | None = None,
                    clock: dict[str, int] | None = None) -> CreatedGame:
        """A new game; its seat tokens and organiser token are in this answer only. ``open_seats`` get no
        token: whoever takes one with :meth:`join_seat` does. ``takebacks`` says who answers a takeback
        request: ``"seats"`` (the default), ``"organiser"`` or ``"off"``. ``clock`` is a time control:
        ``{"initial_seconds": N, "increment_seconds": M}`` or ``{"turn_seconds": N}``."""
        body: dict[str, Any] = {"game": game, "players": players}
        body.update({key: value for key, value in
                     (("options", options), ("chance_mode", chance_mode), ("seed", seed),
                      ("open_seats", open_seats), ("takebacks", takebacks), ("clock", clock)) if value is not None})
        created: CreatedGame = self._json("POST", "/games", json=body, idempotent=False)
        self._saw(created["game_id"], created["version"])
        return created

    @operation("GET", "/games")
    def list_games(self, *, game: str | None = None, status: str | None = None, player: str | None = None,
                   created_after: str | None = None, created_before: str | None = None, offset: int | None = None,
                   limit: int | None = None, open: bool | None = None) -> GameIndex:
        """One page of the game index, newest first. ``status="ended"`` finds every game that is over, the
        scored ones included (scoring follows the end within moments); ``"scored"`` only those scored.
        ``open=True`` lists the active games with a seat to take (with ``game`` at most)."""
        params = {"game": game, "status": status, "player": player, "created_after": created_after,
                  "created_before": created_before, "offset": offset, "limit": limit,
                  "open": None if open is None else str(open).lower()}
        return self._json("GET", "/games", params=params)

    def iter_games(self, *, limit: int | None = None, **filters: Any) -> Iterator[GameSummary]:
        """Every game of the index matching ``filters`` (those of :meth:`list_games`), page after page."""
        offset: int | None = 0
        while offset is not None:
            page = self.list_games(offset=offset, limit=limit, **filters)
            yield from page["games"]
            offset = page["next_offset"]

    @operation("GET", "/games/{game_id}/table")
    def get_table(self, game_id: str) -> str:
        """The game's live table page (HTML); a person opens it with ``?token=`` to play a seat."""
        return self.transport.request("GET", f"/games/{game_id}/table", idempotent=True).text

    @operation("GET", "/games/{game_id}")
    def get_game(self, game_id: str, *, token: str | None = None) -> GameView:
        """The game as the token's reader sees it.

        A game read before is asked for with the tag of the view kept from then (a tag names the version and
        the reader, so it is kept per token); a 304 answers with that view, a fresh copy of it.
        """
        path = f"/games/{game_id}"
        reader = token or self.transport.token
        kept = self._views.get(path, reader)
        headers = {"If-None-Match": kept.etag} if kept is not None else None
        response = self.transport.request("GET", path, token=token, headers=headers, idempotent=True)
        if response.status_code == 304 and kept is not None:
            return kept.view()
        body = response.content
        view: GameView = json.loads(body)
        etag = response.headers.get("ETag")
        if etag:
            self._views.keep(path, reader, KeptView(etag, body))
        self._saw(game_id, view["version"])
        return view

    @operation("GET", "/games/{game_id}/legal-moves")
    def get_legal_moves(self, game_id: str, *, token: str | None = None, seat: str | None = None) -> LegalMoves:
        """What the token's seat may submit now; the organiser may ask for a ``seat``'s moves."""
        moves: LegalMoves = self._json("GET", f"/games/{game_id}/legal-moves", token=token, params={"seat": seat})
        self._saw(game_id, moves["version"])
        return moves

    @operation("POST", "/games/{game_id}/moves")
    def submit_move(self, game_id: str, move: dict[str, Any], *, token: str | None = None,
                    expected_version: int | None = None, idempotency_key: str | None = None) -> MoveResult:
        """Submit ``move`` as decided against ``expected_version`` (default: the last version this client saw).

        One ``Idempotency-Key`` (``idempotency_key``, else a new one) goes with every attempt, so a move
        retried after a timeout, a dropped connection, a 503 or a 429 is applied once. A stale version
        raises :class:`StaleVersion` and is never retried: the move must be decided again.
        """
        version = expected_version if expected_version is not None else self._known_version(game_id, token)
        headers = {"If-Match": f'"{version}"', "Idempotency-Key": idempotency_key or uuid.uuid4().hex}
        try:
            result: MoveResult = self._json("POST", f"/games/{game_id}/moves", token=token, json=move,
                                            headers=headers, idempotent=True)
        except StaleVersion as stale:
            if stale.current_version is not None:
                self._saw(game_id, stale.current_version)
            raise
        self._saw(game_id, result["version"])
        return result

    def resign(self, game_id: str, *, token: str | None = None, expected_version: int | None = None,
               idempotency_key: str | None = None) -> MoveResult:
        """The token's seat resigns: the game ends at once, this seat ranked last (a move like any other)."""
        return self.submit_move(game_id, {"type": "resign"}, token=token, expected_version=expected_version,
                                idempotency_key=idempotency_key)

    def claim_timeout(self, game_id: str, flagged: str, *, token: str | None = None,
                      expected_version: int | None = None, idempotency_key: str | None = None) -> MoveResult:
        """Claim that ``flagged``'s clock has run out (a seat's token, the flagged one's included, or the
        organiser's): the server judges it by its own clock, and a granted claim ends the game with that seat
        ranked last. Refused with ``clock_running`` (time left, in the detail) or ``not_on_clock``."""
        return self.submit_move(game_id, {"type": "claim_timeout", "flagged": flagged}, token=token,
                                expected_version=expected_version, idempotency_key=idempotency_key)

    def abandon(self, game_id: str, *, reason: str | None = None, token: str | None = None,
                expected_version: int | None = None, idempotency_key: str | None = None) -> MoveResult:
        """The organiser ends the game unfinished: it is scored as abandoned, nobody ranked."""
        move: dict[str, Any] = {"type": "abandon", **({"reason": reason} if reason is not None else {})}
        return self.submit_move(game_id, move, token=token, expected_version=expected_version,
                                idempotency_key=idempotency_key)

    def request_takeback(self, game_id: str, *, token: str | None = None, expected_version: int | None = None,
                         idempotency_key: str | None = None) -> MoveResult:
        """The token's seat asks to take back its own last commands; the other seats (or the organiser) answer
        with :meth:`accept_takeback` or :meth:`decline_takeback`. A solo game's request is granted at once."""
        return self.submit_move(game_id, {"type": "request_takeback"}, token=token,
                                expected_version=expected_version, idempotency_key=idempotency_key)

    def accept_takeback(self, game_id: str, *, token: str | None = None, expected_version: int | None = None,
                        idempotency_key: str | None = None) -> MoveResult:
        """Accept the open takeback request; the last acceptance rewinds the game (``moves_taken_back``)."""
        return self.submit_move(game_id, {"type": "accept_takeback"}, token=token,
                                expected_version=expected_version, idempotency_key=idempotency_key)

    def decline_takeback(self, game_id: str, *, token: str | None = None, expected_version: int | None = None,
                         idempotency_key: str | None = None) -> MoveResult:
        """Decline the open takeback request: it closes and nothing is taken back."""
        return self.submit_move(game_id, {"type": "decline_takeback"}, token=token,
                                expected_version=expected_version, idempotency_key=idempotency_key)

    # Seats

    @operation("POST", "/games/{game_id}/seats/{seat}/join")
    def join_seat(self, game_id: str, seat: str, *, name: str | None = None) -> SeatJoined:
        """Take an open seat; its token is in this answer only. Never retried once sent: a join that went
        through would make its retry ``seat_taken`` (:class:`Conflict`), and the token could not be shown
        again (the organiser then rotates it, :meth:`rotate_token`)."""
        body = {"name": name} if name is not None else {}
        joined: SeatJoined = self._json("POST", f"/games/{game_id}/seats/{seat}/join", json=body, idempotent=False)
        self._saw(game_id, joined["version"])
        return joined

    @operation("POST", "/games/{game_id}/seats/{seat}/token")
    def rotate_token(self, game_id: str, reader: str, *, token: str | None = None) -> TokenRotated:
        """Give ``reader`` (a seat, or ``"organiser"``) a new token; the old one is refused at once. The organiser
        rotates any, a seat its own. Not retried, as for :meth:`join_seat`: keep the answer's token, since
        a seat that rotated the token this client sends by default must pass the new one from then on."""
        rotated: TokenRotated = self._json("POST", f"/games/{game_id}/seats/{reader}/token", token=token,
                                           idempotent=False)
        self._saw(game_id, rotated["version"])
        return rotated

    # History

    @operation("GET", "/games/{game_id}/state")
    def get_state(self, game_id: str, *, at: int | None = None, token: str | None = None) -> GameView:
        return self._json("GET", f"/games/{game_id}/state", token=token, params={"at": at})

    @operation("GET", "/games/{game_id}/events")
    def get_events(self, game_id: str, *, from_version: int | None = None, limit: int | None = None,
                   token: str | None = None) -> EventPage:
        page: EventPage = self._json("GET", f"/games/{game_id}/events", token=token,
                                     params={"from": from_version, "limit": limit})
        self._saw(game_id, page["version"])
        return page

    def iter_events(self, game_id: str, *, from_version: int = 1, limit: int | None = None,
                    token: str | None = None) -> Iterator[Envelope]:
        """Every event from ``from_version`` to the last one, oldest first, following ``next_from``."""
        next_from: int | None = from_version
        while next_from is not None:
            page = self.get_events(game_id, from_version=next_from, limit=limit, token=token)
            yield from page["events"]
            next_from = page["next_from"]

    @operation("GET", "/games/{game_id}/stream")
    def follow_game(self, game_id: str, *, token: str | None = None, from_version: int | None = None,
                    last_event_id: int | None = None, resume: bool = True,
                    on_view: Callable[[GameView], None] | None = None) -> Generator[Envelope, None, None]:
        """The game's events as they happen, each once and in order, until the game is over.

        Starts after ``last_event_id``, else at ``from_version``, else after the current version. When
        the service ends the stream for a pause (``idle``) or an outage (``store_unavailable``), or the
        connection drops, the client reconnects with ``Last-Event-ID`` and goes on where it was (with
        ``resume=False`` it stops instead). It stops after ``game_over``; dropped connections are retried
        under the client's retry policy, counted afresh after each event received.

        With ``on_view`` the stream also carries the reader's view (``?view=1``) and ``on_view`` hears each
        one: when the stream starts and after each batch of events, so a follower shows the game as it is
        without reading it again or folding events itself. A view is heard before the next event is yielded.
        """
        after = last_event_id
        budget = Budget(self.transport.retry)
        while True:
            headers = {"Accept": "text/event-stream"}
            params: dict[str, Any] = {"view": "1"} if on_view is not None else {}
            if after is not None:
                headers["Last-Event-ID"] = str(after)
            elif from_version is not None:
                params["from"] = from_version
            response = self.transport.request("GET", f"/games/{game_id}/stream", token=token, params=params,
                                              headers=headers, idempotent=True, stream=True,
                                              timeout=(self.transport.timeout[0], STREAM_READ_TIMEOUT))
            reason = None
            try:
                for message in sse.messages(sse.lines(response.iter_content(chunk_size=None))):
                    data = json.loads(message.data)
                    if message.event == "end":
                        reason = data.get("reason")
                        after = data.get("version", after)
                        break
                    if message.event == "view":
                        if on_view is not None:
                            on_view(cast(GameView, data))
                        continue
                    budget = Budget(self.transport.retry)
                    after = data["version"]
                    self._saw(game_id, after)
                    yield data
            except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError):
                reason = None
            finally:
                response.close()
            if reason == "game_not_found":
                raise NotFound(404, {"code": "game_not_found", "detail": f"game {game_id} no longer exists"})
            if reason in FINAL_END_REASONS or not resume:
                return
            if reason == "idle":
                budget = Budget(self.transport.retry)
                continue
            budget.start()
            if not budget.wait(None):
                raise ConnectionFailed(f"the stream of game {game_id} kept failing (last end: {reason or 'a drop'})")

    @operation("GET", "/games/{game_id}/integrity")
    def check_integrity(self, game_id: str) -> Integrity:
        return self._json("GET", f"/games/{game_id}/integrity")

    # Records made by workers

    @operation("GET", "/games/{game_id}/score")
    def get_score(self, game_id: str) -> Score | Job:
        """The score sheet, or the scoring job while a worker makes it (see :func:`is_job`)."""
        return self._json("GET", f"/games/{game_id}/score")

    def wait_for_score(self, game_id: str, *, timeout: float = 120.0,
                       on_progress: ProgressCallback | None = None) -> Score:
        answer = self.get_score(game_id)
        if is_job(answer):
            self.wait_for_job(cast(Job, answer), timeout=timeout, on_progress=on_progress)
            answer = self.get_score(game_id)
        return cast(Score, answer)

    @operation("POST", "/games/{game_id}/exports")
    def export_game(self, game_id: str, format: str, *, token: str | None = None) -> ExportReady | Job:
        """The export for the token's reader if made already, else the job making it (see :func:`is_job`)."""
        return self._json("POST", f"/games/{game_id}/exports", token=token, json={"format": format})

    @operation("GET", "/games/{game_id}/exports/{file_name}")
    def download_export(self, game_id: str, file_name: str, *, token: str | None = None) -> bytes:
        return self.transport.request("GET", f"/games/{game_id}/exports/{file_name}", token=token,
                                      idempotent=True).content

    @operation("GET", "/games/{game_id}/export")
    def get_export(self, game_id: str, format: str, *, token: str | None = None) -> bytes | Job:
        """The reader's record in ``format`` (``json``, ``ndjson``, ``cairn``, ``html``) by one GET: the file, or
        the job still writing it (see :func:`is_job`; ask again once it has finished)."""
        response = self.transport.request("GET", f"/games/{game_id}/export", token=token, params={"format": format},
                                          idempotent=True)
        if response.status_code == 202:
            return cast(Job, response.json())
        return response.content

    def export(self, game_id: str, format: str, *, token: str | None = None, timeout: float = 120.0,
               on_progress: ProgressCallback | None = None) -> bytes:
        """The file of an export (``json``, ``ndjson``, ``cairn``, ``html``): started, waited for, downloaded."""
        answer = self.export_game(game_id, format, token=token)
        if is_job(answer):
            url = self.wait_for_job(cast(Job, answer), token=token, timeout=timeout,
                                    on_progress=on_progress)["result_url"]
        else:
            url = cast(ExportReady, answer)["export"]["download_url"]
        return self.download_export(game_id, str(url).rsplit("/", 1)[-1], token=token)

    @operation("POST", "/games/{game_id}/audits")
    def audit_game(self, game_id: str, *, token: str | None = None) -> AuditReady | Job:
        """The audit of the current version if made already, else the job making it (see :func:`is_job`)."""
        return self._json("POST", f"/games/{game_id}/audits", token=token)

    @operation("GET", "/games/{game_id}/audits/{version}")
    def get_audit(self, game_id: str, version: int) -> dict[str, Any] | Job:
        return self._json("GET", f"/games/{game_id}/audits/{version}")

    def audit(self, game_id: str, *, token: str | None = None, timeout: float = 120.0,
              on_progress: ProgressCallback | None = None) -> dict[str, Any]:
        """The audit report of the game's current version (``ok``, ``first_failure``, ...), waited for."""
        answer = self.audit_game(game_id, token=token)
        if not is_job(answer):
            return cast(AuditReady, answer)["report"]
        url = str(self.wait_for_job(cast(Job, answer), token=token, timeout=timeout,
                                    on_progress=on_progress)["result_url"])
        return cast(dict, self.get_audit(game_id, int(url.rsplit("/", 1)[-1])))

    @operation("GET", "/jobs/{job_id}")
    def get_job(self, job_id: str, *, token: str | None = None) -> Job:
        return self._json("GET", f"/jobs/{job_id}", token=token)

    @operation("POST", "/jobs/{job_id}/retry")
    def retry_job(self, job_id: str, *, token: str | None = None) -> Job:
        """Queue a failed job again (the organiser's token)."""
        return self._json("POST", f"/jobs/{job_id}/retry", token=token, idempotent=False)

    def wait_for_job(self, job: Job | str, *, token: str | None = None, timeout: float = 120.0,
                     on_progress: ProgressCallback | None = None, max_poll: float = 1.0) -> Job:
        """The job once finished; ``on_progress`` hears of every change of its status or progress.

        Raises :class:`JobFailed` when it fails for good (a failed attempt with retries left shows as
        ``scheduled`` and is waited for) and :class:`JobTimeout` after ``timeout`` seconds.
        """
        current = self.get_job(job if isinstance(job, str) else job["job_id"], token=token)
        deadline = time.monotonic() + timeout
        pause, seen = 0.05, None
        while True:
            if on_progress is not None and (current["status"], current["progress"]) != seen:
                seen = (current["status"], current["progress"])
                on_progress(current)
            if current["status"] == JOB_DONE:
                return current
            if current["status"] in JOB_FAILED:
                raise JobFailed(dict(current))
            if time.monotonic() + pause > deadline:
                raise JobTimeout(dict(current), timeout)
            time.sleep(pause)
            pause = min(max_poll, pause * 2)
            current = self.get_job(current["job_id"], token=token)

    # Plumbing

    def _json(self, method: str, path: str, *, idempotent: bool = True, **kwargs: Any) -> Any:
        return self.transport.request(method, path, idempotent=idempotent, **kwargs).json()

    def _saw(self, game_id: str, version: int) -> None:
        self.versions[game_id] = max(version, self.versions.get(game_id, 0))

    def _known_version(self, game_id: str, token: str | None) -> int:
        if game_id not in self.versions:
            self.get_game(game_id, token=token)
        return self.versions[game_id]


class KeptView:
    """A view's body as the service sent it, and its ``ETag``; each answer from it is parsed afresh, so a caller
    that changes the view it got never changes what is kept."""

    __slots__ = ("etag", "body")

    def __init__(self, etag: str, body: bytes) -> None:
        self.etag = etag
        self.body = body

    def view(self) -> GameView:
        return json.loads(self.body)


class KeptViews:
    """The last view read of each URL for each token, at most ``size`` of them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, str | None], KeptView] = OrderedDict()

    def get(self, path: str, token: str | None) -> KeptView | None:
        kept = self._kept.get((path, token))
        if kept is not None:
            self._kept.move_to_end((path, token))
        return kept

    def keep(self, path: str, token: str | None, view: KeptView) -> None:
        self._kept[(path, token)] = view
        self._kept.move_to_end((path, token))
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
