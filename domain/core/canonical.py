"""Canonical JSON: one byte string per value, so hashes and comparisons are stable.

The canonical form is the standard library's ``json.dumps`` with sorted
keys, no spaces and UTF-8 kept; anyone can reproduce it offline with
nothing but Python. Every appended event is hashed in this form, so it is
produced by orjson, several times faster, wherever orjson writes the very
same bytes: it writes some floats differently (``1e-7``, not ``1e-07``;
``0.00006``, not ``6e-05``) and refuses what it cannot encode (keys that are not strings,
integers over 64 bits, lone surrogates), and those values take the
standard library's path. NaN and the infinities, which JSON has no form
for, never get here: request bodies are parsed strictly.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import orjson

# What orjson may write otherwise than the standard library: a number in exponent form, below 1e-4 or from
# 1e16 up, where a value starts. A string that holds such a thing (say ":1e5") merely takes the slower path;
# hashes, salts and times do not.
_FLOAT_FORMS_APART = re.compile(rb"(?:^|[:,\[])-?(?:\d+(?:\.\d+)?[eE]|0\.0000|\d{16})")


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept: the form every hash in Cairn is taken over."""
    try:
        encoded = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return _standard(value)
    if _FLOAT_FORMS_APART.search(encoded):
        return _standard(value)
    return encoded.decode()


def _standard(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
