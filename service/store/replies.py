"""Redis replies are bytes or str depending on the client's ``decode_responses``; the store works in str."""
from __future__ import annotations


def text(value: bytes | str | int) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def text_hash(reply: dict) -> dict[str, str]:
    return {text(key): text(value) for key, value in reply.items()}
