"""Replay exports: a game at one version, in one format, for one class of reader, written once.

The reader class is the reader (``public``, ``p1``.., ``organiser``) while the
game runs, and ``all`` once it has ended (then every secret is public, so every
reader gets the same file). The file goes to
``<export_dir>/<game>/<version>-<reader class>.<ext>``, written atomically,
and its record (path, size, content type, ETag = sha256 of the bytes) is kept
in the game's hash ``cairn:{G}:exports``; an export already recorded, whose
file is still there, is reused instead of written again.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from domain.core.canonical import sha256_hex
from domain.registry import get_rules
from service.signing import Keyring, keyring_from_environment
from service.store import EventStore
from service.store.connection import StoreClient
from service.store.envelope import Envelope
from service.store.replies import text
from workers.context import current_store, current_store_client, report_progress
from workers.files import atomic_text_file
from workers.formats import ExportInput, formats, make_header, signed_header

PAGE_SIZE = 500
SAFE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def exports_key(game_id: str) -> str:
    return f"cairn:{{{game_id}}}:exports"


def reader_class(reader: str | None, revealed: bool) -> str:
    return "all" if revealed else (reader or "public")


def file_name(version: int, cls: str, fmt: str) -> str:
    return f"{version}-{cls}.{formats()[fmt].extension}"


def game_folder(export_dir: Path, game_id: str) -> Path:
    return export_dir / (game_id if SAFE_NAME.match(game_id) else sha256_hex(game_id)[:32])


def find_export(client: StoreClient, export_dir: Path, game_id: str, fmt: str, version: int, cls: str) -> dict | None:
    """The recorded export, if its file is still on disk."""
    raw = client.hget(exports_key(game_id), f"{fmt}:{version}:{cls}")
    if raw is None:
        return None
    record = json.loads(text(raw))
    return record if (game_folder(export_dir, game_id) / record["file"]).is_file() else None


def export_game(store: EventStore, client: StoreClient, game_id: str, fmt: str, version: int,
                reader: str | None, export_dir: Path, keyring: Keyring | None = None) -> dict:
    """Write (or find) the export; its header is signed by ``keyring``, by default the service's own."""
    kind = formats()[fmt]
    header, revealed = header_at(store, game_id, version, reader)
    existing = find_export(client, export_dir, game_id, fmt, version, header["reader"])
    if existing is not None:
        return existing
    header = signed_header(header, keyring or keyring_from_environment())
    source = ExportInput(header, lambda: envelopes_up_to(store, game_id, version), reader, revealed)
    name = file_name(version, header["reader"], fmt)
    with atomic_text_file(game_folder(export_dir, game_id) / name) as out:
        kind.write(out, source)
    record = {"game_id": game_id, "format": fmt, "version": version, "reader": header["reader"], "file": name,
              "size": out.size, "etag": out.digest.hexdigest(), "content_type": kind.content_type}
    client.hset(exports_key(game_id), f"{fmt}:{version}:{header['reader']}", json.dumps(record))
    return record


def header_at(store: EventStore, game_id: str, version: int, reader: str | None) -> tuple[dict, bool]:
    """The record's header at ``version``, and whether the game had ended by then, from three events.

    No fold of the history is needed: an ended game takes no further command
    (the engine refuses with ``game_over``), so its ``game_ended`` event is
    the last one or, once scored, the one before ``game_scored``.
    """
    created = store.read(game_id, 1, 1)[0]["data"]
    last_two = store.read(game_id, max(1, version - 1), version)
    if not last_two or last_two[-1]["version"] != version:
        raise ValueError(f"game {game_id} has no version {version}")
    ended = next((event for event in last_two if event["type"] == "game_ended"), None)
    scored = last_two[-1]["data"]["score_sheet"] if last_two[-1]["type"] == "game_scored" else None
    status = "scored" if scored is not None else "ended" if ended is not None else "active"
    header = make_header(
        game_id, created, title=get_rules(created["game"]).title, version=version, status=status,
        seed=ended["data"].get("seed") if ended else None, head_hash=last_two[-1]["hash"], score_sheet=scored,
        reader_class=reader_class(reader, ended is not None),
    )
    return header, ended is not None


def envelopes_up_to(store: EventStore, game_id: str, version: int) -> Iterator[Envelope]:
    """The stored envelopes 1..``version``, a page at a time, reporting progress per page.

    Pages are bounded by ``version`` (``iter_pages`` reads to the head), so a
    game that moved on after the export was asked for is exported as it was.
    """
    start = 1
    while start <= version:
        page = store.read(game_id, start, to_version=version, limit=PAGE_SIZE)
        if not page:
            raise ValueError(f"game {game_id} has no version {start}")
        yield from page
        start = page[-1]["version"] + 1
        report_progress(page[-1]["version"], version)


def export_job(game_id: str, fmt: str, version: int, reader: str | None, export_dir: str) -> dict:
    return export_game(current_store(), current_store_client(), game_id, fmt, version, reader, Path(export_dir))
