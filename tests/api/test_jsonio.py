"""Request bodies are read strictly and exactly: what a client sends is what the game sees."""
from __future__ import annotations

import pytest

from service.api.jsonio import loads


def test_integers_beyond_64_bits_keep_their_value():
    assert loads(b'{"pool_slot": 123456789012345678901234567890}') == {"pool_slot": 123456789012345678901234567890}
    assert loads('[18446744073709551616, "x"]') == [18446744073709551616, "x"]


@pytest.mark.parametrize("body", [b'{"a": NaN}', b"[Infinity]", b'{"a": -Infinity, "b": 12345678901234567890}'])
def test_nan_and_infinity_are_not_json(body):
    with pytest.raises(ValueError):
        loads(body)
