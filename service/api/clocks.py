"""The server's time beside a game's clock (TABLE-CLOCK-2), in every view the API answers with."""
from __future__ import annotations

from service.store.store import now_iso


def with_now(shown: dict) -> dict:
    """A view whose game has a clock carries the server's time too (``clock.now``): a client counting the
    running clocks down from ``clock.as_of`` corrects its own clock by the difference."""
    if shown.get("clock") is None:
        return shown
    return {**shown, "clock": {**shown["clock"], "now": now_iso()}}
