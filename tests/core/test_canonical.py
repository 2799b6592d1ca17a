"""Canonical JSON is the form every stored hash was taken over: the fast encoder must give its exact text."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core import canonical
from domain.core.canonical import canonical_json

SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text())
KEYS = st.text() | st.integers(min_value=-10, max_value=10)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                      max_leaves=20)


def python_form(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def either_form(encode, value: object) -> str:
    """The text, or the refusal: keys of mixed types cannot be sorted by either encoder."""
    try:
        return encode(value)
    except TypeError as refusal:
        return f"TypeError: {refusal}"


@settings(max_examples=2000)
@given(VALUES)
def test_canonical_json_is_the_text_of_pythons_sorted_compact_json_for_any_value(value):
    assert either_form(canonical_json, value) == either_form(python_form, value)


def test_the_values_where_the_fast_encoder_writes_other_text_still_get_pythons_form():
    awkward = {"tiny": [1e-05, 2.5e-09, -4.2e-07], "big": 2**70, "keys": {3: "a", -2: "b"}, "lone": "\ud800",
               "controls": "\x00\x0b\x1f\x7f\u2028", "float": 1e16, "text": "0.0000 e-1"}
    for name, value in awkward.items():
        assert canonical_json({name: value}) == python_form({name: value}), name


def test_an_envelope_whose_ids_and_times_look_like_tiny_floats_is_encoded_once(monkeypatch):
    """A uuid's ``4e-`` and a time's ``00.0000`` sit inside strings: they are no float, and need no second
    encoding (an append seals two envelopes in five with such an id)."""
    def second_encoding(value):
        raise AssertionError(f"encoded twice: {value!r}")

    monkeypatch.setattr(canonical, "_python_canonical_json", second_encoding)
    envelope = {"game_id": "3f2a1c4e-9b1d-4e2e-a7fe-0c9d8e7f6a5e", "time": "2026-12-07T09:30:00.000012Z",
                "scores": [0.5, 12.25], "note": "e-mail"}
    assert canonical_json(envelope) == python_form(envelope)
