"""What a check of a history reports: the first thing that is wrong, with its version."""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Finding:
    """One failed check. ``check`` is ``chain``, ``secret``, ``seed``, ``chance`` or ``adjudication``."""

    version: int
    check: str
    message: str
    recorded: object = None
    expected: object = None

    def to_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        return f"version {self.version}: {self.check}: {self.message}"
