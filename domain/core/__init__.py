"""What every game shares: the rules interface, chance decisions, events, rule parts and the match engine."""
from domain.core.chance import SERVER, TABLE, ChanceNode
from domain.core.errors import DataError, IllegalMove
from domain.core.events import ORGANISER, Event, full_data, make_event
from domain.core.rules import Rules

__all__ = [
    "ORGANISER",
    "SERVER",
    "TABLE",
    "ChanceNode",
    "DataError",
    "Event",
    "IllegalMove",
    "Rules",
    "full_data",
    "make_event",
]
