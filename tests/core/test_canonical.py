"""Canonical JSON is the standard library's form, whichever encoder wrote it: every stored hash depends on it."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.canonical import canonical_json

SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text() | st.sampled_from(["1e5", "é😀", "\u2028", "\x00", "card-9"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


def standard(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=1000)
@given(VALUES)
def test_canonical_json_is_the_standard_librarys_form(value):
    assert canonical_json(value) == standard(value)


def test_values_orjson_writes_otherwise_or_cannot_encode_take_the_standard_path():
    floats = [1e-7, 6.103515625e-05, 1e16, 2.5e-300, 12345678901234567.0]
    for value in ({1: "a", 2: "b"}, 2**70, {"name": "\ud800"}, floats, {"at": floats}):
        assert canonical_json(value) == standard(value)
