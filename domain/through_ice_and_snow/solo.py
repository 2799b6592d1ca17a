"""What every single-player scenario shares (spec 8.7-8.10): one seat, Survival (TIS-SURV-1), no investor or
cartography cards, the scenario's own starting resources and event decks, prestige that is only ever lost, an
immediate loss at 0 prestige, and a win or a loss instead of a ranking.

A scenario is the option ``scenario``; these rules are played with each of them (the part ``single_player``),
and the scenario's own rules, its objectives among them, live in its own file.
"""
from __future__ import annotations

from domain.core.parts import RulePart
from domain.through_ice_and_snow.board import State
from domain.through_ice_and_snow.catalogue import CAT

# scenario option -> its rule prefix
SCENARIOS = {
    "lost_expedition": "TIS-SOLO-LOST",
    "magnetic_north_pole": "TIS-SOLO-MAG",
    "mysterious_epidemic": "TIS-SOLO-EPI",
    "amundsens_voyage": "TIS-SOLO-AMU",
}
NO_PRESTIGE_RULE = {"lost_expedition": "TIS-SOLO-LOST-6", "magnetic_north_pole": "TIS-SOLO-MAG-6",
                    "mysterious_epidemic": "TIS-SOLO-EPI-6", "amundsens_voyage": "TIS-SOLO-AMU-5"}


def scenario(state: State) -> str:
    return state["options"]["scenario"]


def add_state(state: State) -> None:
    """TIS-SOLO-LOST-1, TIS-SOLO-MAG-1, TIS-SOLO-EPI-1, TIS-SOLO-AMU-1: no investor or cartography cards are
    dealt; the scenario's starting resources replace those of the player count (the difference goes back to or
    comes from the supply); prestige is never gained (TIS-SOLO-LOST-6)."""
    name = scenario(state)
    state["deal_investors"] = False
    state["checks"].append("prestige")
    player = state["players"][0]
    player["no_vp_gains"] = True
    for resource, amount in CAT.scenarios[name]["start_resources"].items():
        state["supply"][resource] -= amount - player[resource]
        player[resource] = amount


def prestige_check(state: State) -> None:
    """TIS-SOLO-LOST-6 (and -MAG-6, -EPI-6, -AMU-5): prestige at 0 or below loses the game at once."""
    if state["over"] is not None or state["players"][0]["vp"] > 0:
        return
    state["over"] = {"outcome": "lost", "rule": NO_PRESTIGE_RULE[scenario(state)],
                     "detail": "prestige fell to 0 or below"}
    state["pending"] = []
    state["chance"] = None


def ending(state: State) -> dict:
    """The Northwest Passage is sailed: won if every objective of the scenario is met, lost otherwise. Each
    objective is the scenario part's (its ``objectives``): the rule, what is to be done, whether it is done."""
    missed = [rule for rule, _, met in state["parts"].hooks("objectives") if not met(state)]
    if missed:
        return {"outcome": "lost", "rule": missed[0], "detail": "objectives not met: " + ", ".join(missed)}
    return {"outcome": "won", "rule": NO_PRESTIGE_RULE[scenario(state)], "detail": "every objective met"}


def sheet(state: State) -> dict:
    """No final scoring in a scenario (TIS-SOLO-LOST-6): the outcome and each objective, met or not."""
    over = state["over"]
    seat = state["seats"][0]
    return {"outcome": "won" if over["outcome"] == "won" else "lost", "rule": over.get("rule"),
            "detail": over.get("detail"),
            "objectives": [{"rule": rule, "objective": label, "met": met(state)}
                           for rule, label, met in state["parts"].hooks("objectives")],
            "lines": [], "totals": {seat: state["players"][0]["vp"]}, "ranking": [], "tie_breaks": []}


PART = RulePart(
    "single_player",
    hooks={"new_state": (add_state,), "endings": (ending,), "score_sheets": (sheet,)},
    entries={"checks": {"prestige": prestige_check}},
)
