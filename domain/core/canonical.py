"""Canonical JSON: one byte string per value, so hashes and comparisons are stable."""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import orjson

# orjson writes a float below 1e-4 as 0.00001 or 1e-9 where Python's json writes 1e-05 and 1e-09: the
# canonical form is Python's (every stored hash was taken over it), so an answer holding either pattern
# is encoded again the slow way. A cheap test of the bytes comes first; only when it finds the pattern
# does a second ask whether it begins a number (at the start, or after "[", ":" or ",": the form has no
# spaces). A uuid's "4e-" or a time's "00.0000" inside a string is no float; a string that does look
# like one costs only the second encoding.
_SMALL_EXPONENT, _SMALL_FRACTION = b"e-", b"0.0000"
_SMALL_FLOAT = re.compile(rb"(?:\A|[\[:,])-?(?:[0-9][0-9.]*e-|0\.0000)")


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept: the form every hash in Cairn is taken over.

    orjson gives the same bytes as ``json.dumps`` for everything a record holds, ten times faster on the
    hot path of every append; what it cannot encode the same way (non-string keys, integers beyond 64
    bits, lone surrogates, tiny floats) goes through ``json.dumps``, which defines the form.
    """
    try:
        encoded = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return _python_canonical_json(value)
    if (_SMALL_EXPONENT in encoded or _SMALL_FRACTION in encoded) and _SMALL_FLOAT.search(encoded):
        return _python_canonical_json(value)
    return encoded.decode()


def _python_canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
