"""What a check of a history reports: each thing that is wrong, with its version."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Finding:
    """One failed check. ``check`` is ``chain``, ``secret``, ``seed``, ``chance``, ``adjudication``, ``score``,
    ``header`` or ``signature``."""

    version: int
    check: str
    message: str
    recorded: object = None
    expected: object = None

    def to_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        return f"version {self.version}: {self.check}: {self.message}"


@dataclass
class Verdict:
    """What ``cairn verify`` found in one file, and how much it could check."""

    events: int = 0
    head_hash: str | None = None
    seed: str | None = None
    draws_checked: int = 0
    commands_checked: int = 0
    score_checked: bool = False
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings
