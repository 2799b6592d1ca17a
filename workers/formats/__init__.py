"""The export formats: what each writes, its file extension and content type.

Every writer gets the same :class:`ExportInput`: the record's header and a
way to iterate the full envelopes up to the exported version, page by page
from the store, so memory stays flat however long the game. Each writer
redacts for the export's reader itself (the HTML page needs the full events to
rebuild the state, and shows only the reader's view of it), by the rule of
the API's events endpoint, so an export shows a reader what that endpoint does.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from service.signing import Keyring, signed_head
from service.store.envelope import Envelope, redact_envelope


class TextOut(Protocol):
    """Where a format writes its text: a file, or the writer that hashes what passes on to one."""

    def write(self, text: str, /) -> int: ...


@dataclass(frozen=True)
class ExportInput:
    header: dict
    envelopes: Callable[[], Iterable[Envelope]]
    reader: str | None
    revealed: bool

    def shown(self, envelope: Envelope) -> Envelope:
        """As the events endpoint shows it to this reader."""
        return redact_envelope(envelope, self.reader, self.revealed)

    def redacted(self) -> Iterator[Envelope]:
        for envelope in self.envelopes():
            yield self.shown(envelope)


def make_header(game_id: str, created: dict, *, title: str, version: int, status: str, seed: str | None,
                head_hash: str, score_sheet: dict | None, reader_class: str) -> dict:
    """The record's header, from the data of its ``game_created`` event and the game's state at ``version``."""
    return {
        "game_id": game_id,
        "game": created["game"],
        "title": title,
        "rules_version": created["rules_version"],
        "data_versions": created["data_versions"],
        "players": created["seats"],
        "options": created["options"],
        "chance_mode": created["chance_mode"],
        # Who answers takebacks, only when the game was created with other than the default (TABLE-TAKEBACK-2).
        **({"takebacks": created["takebacks"]} if "takebacks" in created else {}),
        "seed_hash": created["seed_hash"],
        "seed": seed,
        "status": status,
        "version": version,
        "head_hash": head_hash,
        "score_sheet": score_sheet,
        "reader": reader_class,
        # A game with a clock (TABLE-CLOCK-1) says so; a record of one without is what it was before clocks.
        **({"clock": created["clock"]} if "clock" in created else {}),
    }


def signed_header(header: dict, keyring: Keyring) -> dict:
    """The header with the service's signature over its head and the keys that may have signed it."""
    head = signed_head(header["game_id"], header["version"], header["head_hash"], header["seed_hash"])
    return {**header, "signature": keyring.sign(head), "keys": keyring.listing()}


def words(name: str) -> str:
    """An event or field name as words: ``card_swapped`` -> ``card swapped``."""
    return name.replace("_", " ").replace("-", " ")


@dataclass(frozen=True)
class Format:
    name: str
    extension: str
    content_type: str
    write: Callable[[TextOut, ExportInput], None]


def formats() -> dict[str, Format]:
    from workers.formats.html_page import write_html
    from workers.formats.notation import write_notation
    from workers.formats.record import write_json, write_ndjson

    return {
        "json": Format("json", "json", "application/json", write_json),
        "ndjson": Format("ndjson", "ndjson", "application/x-ndjson", write_ndjson),
        "cairn": Format("cairn", "cairn", "text/plain; charset=utf-8", write_notation),
        "html": Format("html", "html", "text/html; charset=utf-8", write_html),
    }


FORMAT_NAMES = ("json", "ndjson", "cairn", "html")
