"""What the workers make, through the API: score sheets, exports and their downloads, audits, and jobs.

Heavy work never runs in a request: a request starts (or finds) a job and
answers 202 with the job's URL, or answers with the finished result when
one is already recorded. Results live outside RQ (the ``game_scored``
event, export files, audit reports in Redis), so they outlast RQ's job
records. Job ids are stable per task (see :mod:`workers.queues`), so asking
again while a job runs returns the same job.

Scoring is enqueued by the append that ends a game (the store's
``on_ended``, wired in :func:`service.app.create_app`); ``GET /score``
enqueues it again if it was lost.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import redis
from flask import Blueprint, Response, current_app, send_file, url_for
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from domain.core.events import ORGANISER
from service.api import context, negotiation
from service.api.auth import reader_for
from service.api.context import game_meta, is_revealed, json_body
from service.api.errors import ApiError
from service.api.keys import keyring
from workers.audit import audit_report
from workers.exports import export_game, find_export, game_folder, reader_class
from workers.formats import FORMAT_NAMES, formats
from workers.queues import REQUEUED, enqueue_audit, enqueue_export, enqueue_scoring, job_connection

blueprint = Blueprint("records", __name__)

RETRYABLE = (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED)
READER_CLASS = r"(?:all|public|organiser|p[1-9][0-9]*)"
FILE_NAME = re.compile(rf"^(?P<version>[1-9][0-9]*)-(?P<reader>{READER_CLASS})\.(?P<ext>[a-z]+)$")
# The only ids this service gives jobs (see workers.queues). Anything else names no job of ours, and RQ would
# refuse some (a dot) with an exception and read others (a colon) as another job's id.
_GAME = r"[A-Za-z0-9_-]{1,64}"
JOB_ID = re.compile(rf"^(?:score-{_GAME}|audit-{_GAME}-[1-9][0-9]*"
                    rf"|export-{_GAME}-[a-z]+-[1-9][0-9]*-{READER_CLASS})$")


def jobs_client() -> redis.Redis:
    """RQ pickles its payloads, so jobs need a client that does not decode replies; one per app."""
    extensions = current_app.extensions
    if "cairn.jobs" not in extensions:
        extensions["cairn.jobs"] = job_connection(context.services().queue_client)
    return extensions["cairn.jobs"]


def export_dir() -> Path:
    """``EXPORT_DIR`` from the app's config, else ``CAIRN_EXPORT_DIR``, else ``<DATA_DIR>/exports``; absolute,
    so the worker writes where the API reads, and two instances on two data folders never share exports
    (the working directory they were started from does not matter)."""
    configured = current_app.config.get("EXPORT_DIR") or os.environ.get("CAIRN_EXPORT_DIR")
    return Path(configured or Path(current_app.config["DATA_DIR"]) / "exports").resolve()


@blueprint.get("/games/<game_id>/score")
def get_score(game_id: str):
    meta = game_meta(game_id)
    if meta["status"] == "active":
        raise ApiError(409, "game_not_over", "Game not over", "a game is scored once it has ended",
                       current_version=meta["version"])
    match = context.store().load(game_id)
    if match.score is not None:
        return {"game_id": game_id, "version": match.version, "score_sheet": match.score}
    return pending(enqueue_scoring(jobs_client(), game_id))


@blueprint.post("/games/<game_id>/exports")
def post_export(game_id: str):
    meta = game_meta(game_id)
    reader = reader_for(context.store(), game_id, required=False)
    fmt = _export_format(json_body())
    version = meta["version"]
    cls = reader_class(reader, is_revealed(meta))
    saved = find_export(context.services().client, export_dir(), game_id, fmt, version, cls)
    if saved is not None:
        return {"status": "finished", "export": export_json(saved)}
    job = enqueue_export(jobs_client(), game_id, fmt, version, reader, cls, str(export_dir()))
    return pending(job)


def _export_format(body) -> str:
    """The ``format`` of an export request; any other field is refused, as an unknown move field is."""
    if not isinstance(body, dict):
        raise ApiError(422, "body_not_object", "Request body is not an object", "the JSON body must be an object")
    unknown = next((name for name in body if name != "format"), None)
    if unknown is not None:
        raise ApiError(422, "unknown_field", "Unknown field", f"an export request has no field {unknown!r}; "
                       "it takes only 'format'", field=unknown)
    fmt = body.get("format")
    if fmt not in FORMAT_NAMES:
        raise ApiError(422, "invalid_field", "Invalid field", f"format must be one of {', '.join(FORMAT_NAMES)}",
                       field="format")
    return fmt


@blueprint.get("/games/<game_id>/export")
def get_export(game_id: str):
    """The reader's record in the format ``Accept`` (or ``?format=``) asks for: the stored file when there
    is one; else, for an ended game of at most :data:`negotiation.BUILT_AT_ONCE` events, written now; else
    202 with the job that writes it."""
    meta = game_meta(game_id)
    reader = reader_for(context.store(), game_id, required=False)
    fmt, media_type = negotiation.chosen_format()
    version, revealed = meta["version"], is_revealed(meta)
    cls = reader_class(reader, revealed)
    client = context.services().client
    saved = find_export(client, export_dir(), game_id, fmt, version, cls)
    if saved is None and revealed and version <= negotiation.BUILT_AT_ONCE:
        saved = export_game(context.store(), client, game_id, fmt, version, reader, export_dir(), keyring())
    if saved is None:
        return pending(enqueue_export(jobs_client(), game_id, fmt, version, reader, cls, str(export_dir())))
    response = _send_export(game_id, saved, media_type)
    response.vary.update(("Accept", "Authorization"))
    return response


def _send_export(game_id: str, saved: dict, mimetype: str) -> Response:
    response = send_file(game_folder(export_dir(), game_id) / saved["file"], mimetype=mimetype, etag=saved["etag"],
                         conditional=True, download_name=f"{game_id}-{saved['file']}")
    response.headers["Cache-Control"] = "private, max-age=0, must-revalidate"
    return response


@blueprint.get("/games/<game_id>/exports/<file_name>")
def download_export(game_id: str, file_name: str):
    game_meta(game_id)
    parts = FILE_NAME.match(file_name)
    fmt = next((name for name, kind in formats().items() if parts and kind.extension == parts["ext"]), None)
    if parts is None or fmt is None:
        raise _no_export(file_name)
    if parts["reader"] not in ("all", "public"):
        reader = reader_for(context.store(), game_id, required=True)
        if reader not in (parts["reader"], ORGANISER):
            raise ApiError(403, "wrong_reader", "Not your export", f"this export was made for {parts['reader']}")
    saved = find_export(context.services().client, export_dir(), game_id, fmt, int(parts["version"]), parts["reader"])
    if saved is None:
        raise _no_export(file_name)
    mimetype = saved["content_type"].split(";")[0]  # Flask adds "; charset=utf-8" to text types itself
    return _send_export(game_id, saved, mimetype)


@blueprint.post("/games/<game_id>/audits")
def post_audit(game_id: str):
    meta = game_meta(game_id)
    reader_for(context.store(), game_id, required=True)
    report = audit_report(context.services().client, game_id, meta["version"])
    if report is not None:
        return {"status": "finished", "report": report, "report_url": audit_url(game_id, meta["version"])}
    return pending(enqueue_audit(jobs_client(), game_id, meta["version"]))


@blueprint.get("/games/<game_id>/audits/<int:version>")
def get_audit(game_id: str, version: int):
    game_meta(game_id)
    report = audit_report(context.services().client, game_id, version)
    if report is not None:
        return report
    job = _fetch(f"audit-{game_id}-{version}")
    if job is None:
        raise ApiError(404, "audit_not_found", "No such audit", f"game {game_id} has no audit at version {version}; "
                       "start one with POST /games/{id}/audits")
    return pending(job)


@blueprint.get("/jobs/<job_id>")
def get_job(job_id: str):
    job = _job_for_reader(job_id)
    return job_json(job)


@blueprint.post("/jobs/<job_id>/retry")
def retry_job(job_id: str):
    job = _job_for_reader(job_id)
    reader = reader_for(context.store(), job.meta["game_id"], required=True)
    if reader != ORGANISER:
        raise ApiError(403, "not_organiser", "Organiser only", "only the game's organiser may retry its jobs")
    if job.get_status() not in RETRYABLE:
        raise ApiError(409, "job_not_failed", "Job not failed",
                       f"job {job_id} is {job.get_status().value}; only failed or stopped jobs are retried")
    job.requeue()
    return pending(job)


def pending(job: Job):
    body = job_json(job)
    return body, 202, {"Location": body["job_url"], "Retry-After": "1"}


def job_json(job: Job) -> dict:
    meta = job.meta
    status = job.get_status()
    body = {
        "job_id": job.id,
        "job_url": url_for("records.get_job", job_id=job.id),
        "kind": meta.get("kind"),
        "game_id": meta.get("game_id"),
        "status": status.value,
        "progress": meta.get("progress"),
        "retries_left": job.retries_left,
        "requeued": meta.get(REQUEUED, 0),
        "enqueued_at": _iso(job.enqueued_at),
        "started_at": _iso(job.started_at),
        "ended_at": _iso(job.ended_at),
        "error": _error(job) if status == JobStatus.FAILED else None,
        "result_url": _result_url(job, meta) if status == JobStatus.FINISHED else None,
    }
    return body


def _result_url(job: Job, meta: dict) -> str | None:
    game_id = meta["game_id"]
    if meta["kind"] == "score":
        return url_for("records.get_score", game_id=game_id)
    if meta["kind"] == "audit":
        return audit_url(game_id, meta["version"])
    result = job.return_value()
    return url_for("records.download_export", game_id=game_id, file_name=result["file"]) if result else None


def export_json(saved: dict) -> dict:
    url = url_for("records.download_export", game_id=saved["game_id"], file_name=saved["file"])
    return {**{key: saved[key] for key in ("format", "version", "reader", "size", "etag", "content_type")},
            "download_url": url}


def audit_url(game_id: str, version: int) -> str:
    return url_for("records.get_audit", game_id=game_id, version=version)


def _error(job: Job) -> str | None:
    result = job.latest_result()
    text = result.exc_string if result is not None and result.exc_string else ""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "the job failed"


def _iso(moment) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _fetch(job_id: str) -> Job | None:
    if not JOB_ID.match(job_id):
        return None
    try:
        return Job.fetch(job_id, connection=jobs_client())
    except NoSuchJobError:
        return None


def _job_for_reader(job_id: str) -> Job:
    """The job, if the request may see it: a public job to anyone, a reader's job to that reader and the organiser."""
    job = _fetch(job_id)
    if job is None or "game_id" not in job.meta:
        raise ApiError(404, "job_not_found", "No such job", f"there is no job {job_id!r} (finished jobs are kept "
                       "for a day, failed ones for a week)")
    owner = job.meta.get("reader")
    if owner is not None:
        reader = reader_for(context.store(), job.meta["game_id"], required=True)
        if reader not in (owner, ORGANISER):
            raise ApiError(403, "wrong_reader", "Not your job", f"this job works for {owner}")
    return job


def _no_export(file_name: str) -> ApiError:
    return ApiError(404, "export_not_found", "No such export", f"no export {file_name!r} has been made; "
                    "start one with POST /games/{id}/exports")
