"""Server-sent events read from a line iterator, as the HTML standard's parser reads them.

A message ends at a blank line; ``data`` lines join with newlines; a line
starting with ``:`` is a comment (Cairn's keep-alive) and is skipped. A
message cut off by a dropped connection is never yielded: only whole ones are.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    event: str
    data: str
    id: str | None


def messages(lines: Iterable[str]) -> Iterator[Message]:
    event, last_id = "", None
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                yield Message(event or "message", "\n".join(data), last_id)
            event, data = "", []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            data.append(value)
        elif name == "event":
            event = value
        elif name == "id":
            last_id = value


def lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """Lines of a byte stream as they arrive; a line split across chunks (or inside a character) is joined first."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        *complete, pending = pending.split(b"\n")
        for line in complete:
            yield line.removesuffix(b"\r").decode("utf-8")
