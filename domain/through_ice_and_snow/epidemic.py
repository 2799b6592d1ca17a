"""Mysterious Epidemic, single-player scenario (spec 8.9, TIS-SOLO-EPI): officers fall ill at the end of every
Voyage phase unless the fleet consults the Inuit of a settlement, and treatments cure them.

Scenario data (settlement, disease and treatment cards, GAP-15) is in scenarios.json.
"""
from __future__ import annotations

from itertools import combinations

from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions, flow
from domain.through_ice_and_snow.board import State, join_inuit, push
from domain.through_ice_and_snow.catalogue import CAT, CREW_TYPES
from domain.through_ice_and_snow.decisions import Decision
from domain.through_ice_and_snow.tracks import sick_choices

NAME = "mysterious_epidemic"
DATA = CAT.scenarios[NAME]
NOT_ILL = ("inuk",)  # TIS-SOLO-EPI-7: Inuit never fall ill


def add_state(state: State) -> None:
    """TIS-SOLO-EPI-5: the settlement, disease and treatment decks (drawn, never shuffled up front)."""
    state["decks"].update(settlement=sorted(DATA["settlements"]), disease=sorted(DATA["diseases"]),
                          treatment=sorted(DATA["treatments"]))
    state["epidemic"] = {"settlement": None, "free_upgrade": False, "inuit_on": [], "diseases": [],
                         "treatments": [], "discards": {"disease": [], "treatment": []}, "checked_round": 0,
                         "turn": {"explore": None, "cabin": None}}


def setup(state: State) -> bool:
    """TIS-SOLO-EPI-5: one settlement card at random; TIS-SOLO-EPI-4 / TIS-CMD-25: a free upgrade tile."""
    epidemic = state["epidemic"]
    if epidemic["settlement"] is None:
        state["chance"] = {"key": "settlement", "deck": "settlement", "count": 1}
        return True
    if not epidemic["free_upgrade"]:
        push(state, 0, "free_upgrade")
        return True
    return False


def settlement_drawn(state: State, node: dict, outcome: list[str]) -> None:
    """TIS-SOLO-EPI-8: the East section is already placed, so its settlement anchors get their Inuk (ASSUMED)."""
    state["epidemic"]["settlement"] = outcome[0]
    for section in state["sections"]:
        settle(state, section)


def settle(state: State, section: str) -> None:
    """TIS-SOLO-EPI-8: an Inuk pawn (from the supply) on each of the section's anchors the card shows."""
    epidemic = state["epidemic"]
    for anchor in DATA["settlements"][epidemic["settlement"]]:
        if section in CAT.anchors[anchor]["sections"] and anchor not in epidemic["inuit_on"] \
                and state["supply"]["inuk"]:
            state["supply"]["inuk"] -= 1
            epidemic["inuit_on"].append(anchor)


def section_placed(state: State, entry: dict, command: dict) -> None:
    if entry["kind"] == "map_side":
        settle(state, command["section"])


def upgrade_moves(state: State, entry: dict) -> list[dict]:
    return [{"type": "choose_free_upgrade", "upgrade": int(number)}
            for number, left in sorted(state["tiles"].items(), key=lambda item: int(item[0])) if left]


def upgrade_chosen(state: State, entry: dict, command: dict) -> None:
    """TIS-SOLO-EPI-4: in the leftmost slot, no wood paid (no ship-card reward, TIS-LEG-3)."""
    state["tiles"][str(command["upgrade"])] -= 1
    state["players"][0]["upgrades"].append(command["upgrade"])
    state["epidemic"]["free_upgrade"] = True


def ill(state: State) -> dict[str, int]:
    counts = dict.fromkeys(CREW_TYPES, 0)
    for disease in state["epidemic"]["diseases"]:
        for kind, count in disease["crew"].items():
            counts[kind] += count
    return counts


def healthy(state: State) -> dict[str, int]:
    """Crew neither ill nor lost (sick-bay crew are healthy but busy)."""
    player = state["players"][0]
    sick = ill(state)
    return {kind: max(0, player["crew"][kind] - sick[kind]) for kind in CREW_TYPES}


def keep_ill_aside(state: State) -> None:
    """TIS-SOLO-EPI-7: ill crew stay on their disease card: they never act."""
    player = state["players"][0]
    for kind, count in healthy(state).items():
        player["free"][kind] = min(player["free"][kind], count)


def end_of_voyage(state: State, base: flow.Step) -> bool:
    """TIS-SOLO-EPI-7 / TIS-SOLO-EPI-8: at the end of each Voyage phase, a fleet on a settlement anchor of a mapped
    region consults the Inuit (the Inuk joins the crew and a treatment card is drawn); otherwise a disease card."""
    epidemic = state["epidemic"]
    if epidemic["checked_round"] == state["round"]:
        return base(state)
    epidemic["checked_round"] = state["round"]
    anchor = state["anchor"]
    if anchor in epidemic["inuit_on"] and CAT.anchors[anchor]["region"] in state["mapped"]:
        epidemic["inuit_on"].remove(anchor)
        state["supply"]["inuk"] += 1
        join_inuit(state, state["players"][0], 1)
        draw(state, "treatment")
    else:
        draw(state, "disease")
    return True


def draw(state: State, deck: str) -> None:
    """TIS-SOLO-EPI-9: an empty deck takes its discard pile back."""
    discards = state["epidemic"]["discards"]
    if not state["decks"][deck]:
        state["decks"][deck] = sorted(discards[deck])
        discards[deck] = []
    if state["decks"][deck]:
        state["chance"] = {"key": deck, "deck": deck, "count": 1}


def disease_drawn(state: State, node: dict, outcome: list[str]) -> None:
    """TIS-SOLO-EPI-7: the officer shown falls ill; if already ill, 2 other crew members (not Inuit) instead."""
    card = outcome[0]
    officer = DATA["diseases"][card]
    disease = {"card": card, "crew": {}}
    state["epidemic"]["diseases"].append(disease)
    if healthy(state)[officer]:
        disease["crew"] = {officer: 1}
    else:
        count = min(DATA["second_illness"], sum(n for kind, n in healthy(state).items() if kind not in NOT_ILL))
        choices = illness_choices(state, count)
        if len(choices) == 1:
            disease["crew"] = choices[0]
        else:
            push(state, 0, "fall_ill", count=count)
    settle_disease(state)


def illness_choices(state: State, count: int) -> list[dict]:
    return sick_choices({"free": healthy(state)}, count, NOT_ILL)


def ill_moves(state: State, entry: dict) -> list[dict]:
    return [{"type": "choose_sick_crew", "crew": crew} for crew in illness_choices(state, entry["count"])]


def fell_ill(state: State, entry: dict, command: dict) -> None:
    state["epidemic"]["diseases"][-1]["crew"] = dict(command["crew"])
    settle_disease(state)


def settle_disease(state: State) -> None:
    """A disease card holding nobody goes to its discard pile; the ill leave the free crew."""
    epidemic = state["epidemic"]
    waiting = any(entry["kind"] == "fall_ill" for entry in state["pending"])
    for disease in list(epidemic["diseases"]):
        if not any(disease["crew"].values()) and not (waiting and disease is epidemic["diseases"][-1]):
            epidemic["diseases"].remove(disease)
            epidemic["discards"]["disease"].append(disease["card"])
    keep_ill_aside(state)


def treatment_drawn(state: State, node: dict, outcome: list[str]) -> None:
    state["epidemic"]["treatments"].append(outcome[0])


def new_turn(state: State, seat: int, command: dict) -> None:
    state["epidemic"]["turn"] = {"explore": None, "cabin": None}


def explore(state: State, seat: int, player: dict, space: dict, command: dict, placed: int,
            base: actions.Effect) -> None:
    """TIS-AMB-22: the Explore value computed, though no prestige is gained."""
    state["epidemic"]["turn"]["explore"] = actions.explore_value(state, player)
    base(state, seat, player, space, command, placed)


def after_action(state: State, seat: int, command: dict) -> None:
    """TIS-SOLO-EPI-9 (ASSUMED: the qualifying action is this turn's): a treatment may be activated right after
    the action (after a cabin's food is chosen)."""
    if not any(entry["kind"] == "cabin_food" for entry in state["pending"]) \
            and treatment_moves(state, {}):
        push(state, 0, "treatment")


def cabin_answered(state: State, entry: dict, command: dict) -> None:
    if entry["kind"] != "cabin_food":
        return
    state["epidemic"]["turn"]["cabin"] = command["amount"]
    if treatment_moves(state, {}):
        state["pending"].insert(1, {"seat": 0, "kind": "treatment"})


def met(state: State, requirement: dict) -> bool:
    turn = state["epidemic"]["turn"]
    if requirement["kind"] == "species":
        return len(state["players"][0]["species"]) >= requirement["at_least"]
    value = turn[requirement["kind"]]
    return value is not None and value >= requirement["at_least"]


def treatment_moves(state: State, entry: dict) -> list[dict]:
    """TIS-SOLO-EPI-9 / TIS-CMD-23: each treatment card with a requirement met (one per card), the ill crew it
    cures (1 or 2, as many as are ill) and the species cards discarded (GAP-17: any species)."""
    sick = ill(state)
    if not any(sick.values()):
        return []
    moves: list[dict] = []
    for card in state["epidemic"]["treatments"]:
        for index, requirement in enumerate(DATA["treatments"][card], start=1):
            if not met(state, requirement):
                continue
            cured = min(requirement["cure"], sum(sick.values()))
            held = state["players"][0]["species"]
            groups = combinations(held, requirement["at_least"]) if requirement["kind"] == "species" else [()]
            for group in sorted({tuple(sorted(group)) for group in groups}):
                for crew in sick_choices({"free": sick}, cured):
                    moves.append({"type": "activate_treatment", "card": card, "requirement": index, "crew": crew,
                                  "species": list(group)})
    return moves


def decision_moves(state: State, entry: dict) -> list[dict]:
    return [*treatment_moves(state, entry), {"type": "activate_treatment", "card": None}]


def activated(state: State, entry: dict, command: dict) -> None:
    """TIS-SOLO-EPI-9: the cured crew return to the board (usable this turn); the treatment card and any disease
    card left empty go to their discard piles; species cards discarded go to the species discard pile."""
    if command["card"] is None:
        return
    epidemic = state["epidemic"]
    player = state["players"][0]
    for card in command["species"]:
        player["species"].remove(card)
        state["discards"]["species"].append(card)
    for kind, count in command["crew"].items():
        for _ in range(count):
            disease = next(disease for disease in epidemic["diseases"] if disease["crew"].get(kind))
            disease["crew"][kind] -= 1
            if not disease["crew"][kind]:
                del disease["crew"][kind]
            player["free"][kind] += 1
    epidemic["treatments"].remove(command["card"])
    epidemic["discards"]["treatment"].append(command["card"])
    settle_disease(state)


def boarding(state: State, base: flow.Step) -> bool:
    """Crew come back at Boarding, but the ill stay on their disease cards (TIS-SOLO-EPI-7)."""
    result = base(state)
    keep_ill_aside(state)
    return result


def cleanup(state: State, base: flow.Step) -> bool:
    """TIS-SOLO-EPI-6: at the end of every Boarding phase at least 1 healthy crew member who is not an Inuk."""
    result = base(state)
    if not any(count for kind, count in healthy(state).items() if kind not in NOT_ILL):
        state["over"] = {"outcome": "lost", "rule": "TIS-SOLO-EPI-6",
                         "detail": "no healthy crew member but Inuit at the end of the Boarding phase"}
    return result


PART = RulePart(
    NAME,
    hooks={"new_state": (add_state,), "public_keys": ("epidemic",), "setup_draws": (setup,),
           "before_effect": (new_turn,), "after_effect": (after_action,), "answered": (section_placed, cabin_answered),
           "objectives": (
               ("TIS-SOLO-EPI-6", "a healthy crew member who is not an Inuk at the end of every Boarding phase",
                lambda state: state["over"] is None or state["over"].get("rule") != "TIS-SOLO-EPI-6"),
               ("TIS-SOLO-EPI-6", "find the Northwest Passage", lambda state: state["step"] == "finished"))},
    entries={"chance_handlers": {"settlement": settlement_drawn, "disease": disease_drawn,
                                 "treatment": treatment_drawn},
             "decisions": {"free_upgrade": Decision("choose_free_upgrade", "TIS-CMD-25", upgrade_moves, upgrade_chosen),
                           "fall_ill": Decision("choose_sick_crew", "TIS-SOLO-EPI-7", ill_moves, fell_ill),
                           "treatment": Decision("activate_treatment", "TIS-CMD-23", decision_moves, activated)}},
    wraps={"steps": {"action_start": end_of_voyage, "boarding": boarding, "cleanup": cleanup},
           "effects": {"explore": explore}},
)
