"""The two ways the domain says no: to a move, and to a data file."""
from __future__ import annotations


class IllegalMove(Exception):
    """A command the rules refuse.

    ``code`` is stable and machine-readable, ``rule_id`` names the rule of the
    game's specification that forbids the move (``None`` for refusals that
    come from the engine rather than the game, such as a malformed field), and
    ``field`` points at the part of the command at fault, so a client can show
    the player exactly what went wrong.
    """

    def __init__(self, code: str, message: str, rule_id: str | None = None, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule_id = rule_id
        self.field = field

    def to_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "message": self.message, "rule_id": self.rule_id, "field": self.field}


class DataError(Exception):
    """A game's data file is missing or malformed: the service must not start with it."""

    def __init__(self, path: str, field: str, message: str):
        super().__init__(f"{path}: {field}: {message}")
        self.path = path
        self.field = field
