"""Running the script: the steps queued in ``state["script"]`` run, front first, until the game waits.

A step is run by the module of what it is in the game: the dig's last collapse, the logbook's
events, a decision that resolves itself, the rest by :class:`~domain.ice_expedition.flow.Flow`.
This module alone knows them all, so none of them imports another to queue a step.
"""
from __future__ import annotations

from collections.abc import Callable

from domain.ice_expedition import dig, logbook
from domain.ice_expedition.decisions import auto_resolve
from domain.ice_expedition.flow import Flow

STEPS: dict[str, Callable[[Flow, dict], None]] = {
    "logbook": logbook.step_logbook,
    "log_prismatics": logbook.step_log_prismatics,
    "log_smilodon": logbook.step_log_smilodon,
    "log_recruit": logbook.step_log_recruit,
    "dig_end": dig.finish,
}


def advance(flow: Flow) -> None:
    """Run steps until the game waits for a chance outcome, a seat's decision, or the active player's turn."""
    state = flow.state
    script = state["script"]
    while not state["chance"] and script:
        step = script[0]
        do = step["do"]
        if do == "wait":
            if not auto_resolve(flow, step):
                return
            continue
        script.pop(0)
        run = STEPS.get(do)
        if run is not None:
            run(flow, step)
        else:
            getattr(flow, "step_" + do)(step)
