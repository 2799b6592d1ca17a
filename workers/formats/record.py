"""The ``json`` record and the ``ndjson`` event stream (docs/replay-format.md).

Both are written one envelope at a time, never as one big value in memory.
"""
from __future__ import annotations

import json

from service.signing import signed_head
from workers.formats import ExportInput, TextOut

RECORD_FORMAT = "cairn-record/1"


def write_json(out: TextOut, source: ExportInput) -> None:
    header = source.header
    out.write('{"format": ' + json.dumps(RECORD_FORMAT))
    out.write(',\n "header": ' + json.dumps(header, ensure_ascii=False, sort_keys=True))
    for key in ("seed", "score_sheet", "head_hash"):
        out.write(f',\n "{key}": ' + json.dumps(header[key], ensure_ascii=False, sort_keys=True))
    out.write(',\n "events": [')
    for index, envelope in enumerate(source.redacted()):
        out.write(("\n  " if index == 0 else ",\n  ") + json.dumps(envelope, ensure_ascii=False, sort_keys=True))
    out.write("\n ]\n}\n")


def write_ndjson(out: TextOut, source: ExportInput) -> None:
    """The envelopes, then one last line with the signed head: a stream cut short lacks it."""
    for envelope in source.redacted():
        out.write(json.dumps(envelope, ensure_ascii=False, sort_keys=True) + "\n")
    header = source.header
    if "signature" in header:
        head = signed_head(header["game_id"], header["version"], header["head_hash"], header["seed_hash"])
        trailer = {"signed_head": head, "signature": header["signature"], "keys": header["keys"]}
        out.write(json.dumps(trailer, ensure_ascii=False, sort_keys=True) + "\n")
