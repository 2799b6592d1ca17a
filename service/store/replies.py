"""Redis replies are bytes or str depending on the client's ``decode_responses``; the store works in str."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def text(value: object) -> str:
    """A reply as str: bytes decoded, a number or a str as it is written."""
    return value.decode() if isinstance(value, bytes) else str(value)


def text_hash(reply: Mapping[Any, Any]) -> dict[str, str]:
    """A hash's fields and values as str (redis-py types each command's reply its own way)."""
    return {text(key): text(value) for key, value in reply.items()}
