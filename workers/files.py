"""Files that appear whole or not at all.

An export is written to a hidden temporary file in its final folder, flushed
to disk, then renamed over the final name (``os.replace`` is atomic on one
file system), so a reader never sees half a file, even if the worker is
killed mid-write. What a killed writer leaves behind is only a hidden
``.*.part`` file, which :func:`sweep_partial_files` removes.
"""
from __future__ import annotations

import hashlib
import io
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from workers.liveness import process_exists

PARTIAL_SUFFIX = ".part"


class HashingWriter(io.TextIOBase):
    """Text out to a file, counting bytes and hashing them on the way (the download's ETag)."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle
        self.digest = hashlib.sha256()
        self.size = 0

    def write(self, text: str) -> int:
        data = text.encode("utf-8")
        self.digest.update(data)
        self.size += len(data)
        self.handle.write(text)
        return len(text)


def partial_name(path: Path) -> str:
    """``.<name>~<host>~<pid>~<random>.part``: hidden, and naming who writes it."""
    return f".{path.name}~{socket.gethostname()}~{os.getpid()}~{os.urandom(4).hex()}{PARTIAL_SUFFIX}"


@contextmanager
def atomic_text_file(path: Path) -> Iterator[HashingWriter]:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.parent / partial_name(path)
    try:
        with partial.open("w", encoding="utf-8", newline="\n") as handle:
            writer = HashingWriter(handle)
            yield writer
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
        _fsync_folder(path.parent)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def _fsync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def sweep_partial_files(root: Path, older_than: float) -> list[Path]:
    """Remove partial files no writer can still be writing: their writer process on this host is gone,
    or they are older than ``older_than`` seconds (longer than any export may run)."""
    removed: list[Path] = []
    if not root.is_dir():
        return removed
    host = socket.gethostname()
    cutoff = time.time() - older_than
    for partial in root.rglob(f".*{PARTIAL_SUFFIX}"):
        parts = partial.name.removesuffix(PARTIAL_SUFFIX).rsplit("~", 3)
        writer_gone = len(parts) == 4 and parts[1] == host and parts[2].isdigit() and not process_exists(int(parts[2]))
        try:
            if writer_gone or partial.stat().st_mtime < cutoff:
                partial.unlink()
                removed.append(partial)
        except FileNotFoundError:
            continue
    return removed


