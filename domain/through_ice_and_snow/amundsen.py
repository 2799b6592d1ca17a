"""Amundsen's Voyage, single-player scenario (spec 8.10, TIS-SOLO-AMU): coastal voyages only, Amundsen's
explorer ability and the Gjøa, black cylinders capping health and morale, and Gjøa Haven to found.

Scenario data is in scenarios.json; card 55 (Gjøa Haven) in events.json; the Gjøa in legendary.json.
"""
from __future__ import annotations

from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions, flow, voyage
from domain.through_ice_and_snow.board import State, all_lost, crew_count, event_number
from domain.through_ice_and_snow.catalogue import CAT

NAME = "amundsens_voyage"
DATA = CAT.scenarios[NAME]


def add_state(state: State) -> None:
    """TIS-SOLO-AMU-2: the black cylinders; TIS-SOLO-AMU-3: Amundsen (a dog track always full to 7, no dog
    pawns, Improve Sled without wood) and the Gjøa (fuel +1 per upgrade built, GAP-14); TIS-SOLO-AMU-4: the
    open-sea deck goes back to the box."""
    player = state["players"][0]
    state["supply"]["dog"] += player["dogs"]
    player.update(dogs=0, fixed_dogs=DATA["dog_track"], ship=DATA["ship"],
                  black_cylinders={track: list(spaces) for track, spaces in DATA["black_cylinders"].items()})
    state["removed_events"].extend(state["decks"][voyage.OPEN_SEA])
    state["decks"][voyage.OPEN_SEA] = []
    state["extras_todo"] = {deck: [] for deck in state["extras_todo"]}  # the scenario names its decks (ASSUMED)
    state["amundsen"] = {"decks_ready": False, "gjoa_haven": False, "diet": []}


def setup_draw(state: State) -> bool:
    """TIS-SOLO-AMU-4: 2 random coastal cards to the box (unseen), then Gjøa Haven and Amundsen's event 53 join
    the 10 left (the standard coastal deck, TIS-AMB-1)."""
    if state["amundsen"]["decks_ready"]:
        return False
    state["chance"] = {"key": "amundsen_removal", "deck": voyage.COASTAL, "count": DATA["coastal_removed"],
                       "hidden": True}
    return True


def removed(state: State, node: dict, outcome: list[str]) -> None:
    state["removed_events"].extend(outcome)
    state["decks"][voyage.COASTAL].extend(f"ev{number:02d}" for number in DATA["coastal_added"])
    state["amundsen"]["decks_ready"] = True


def voyage_type(state: State, base: flow.Step) -> bool:
    """TIS-SOLO-AMU-6 / TIS-AMB-19: never open sea; a round that cannot sail coastal (fuel or cards) is lost;
    the card-less final voyage is resolved as usual."""
    if state["final_voyage"]:
        return base(state)
    state["step"] = "fuel"
    if voyage.COASTAL in voyage.voyage_choices(state):
        state["voyage"] = voyage.COASTAL
    else:
        all_lost(state, "TIS-SOLO-AMU-6", "the expedition cannot sail along the coast (fuel or coastal cards)")
        state["over"]["outcome"] = "lost"
    return True


def explore(state: State, seat: int, player: dict, space: dict, command: dict, placed: int,
            base: actions.Effect) -> None:
    """TIS-SOLO-AMU-9 / TIS-AMB-22: an Explore worth 7 or more removes the right morale black cylinder, worth 10
    or more the leftmost; both are checked after every Explore.

    The source says which Explore frees which cylinder but not when in the action. They are taken as the
    Explore's VP are earned, which is the first half of its effect, so before its morale +2 (TIS-ACT-11: VP, then
    morale): the +2 may climb into the spaces they leave. The right one (the lower space) is checked first; the
    two conditions are independent, so the order between them changes nothing."""
    value = actions.explore_value(state, player)
    cylinders = player["black_cylinders"]["morale"]
    for space_number, threshold in DATA["morale_explore"].items():
        if value >= threshold and int(space_number) in cylinders:
            cylinders.remove(int(space_number))
    base(state, seat, player, space, command, placed)


def answered(state: State, entry: dict, command: dict) -> None:
    """TIS-SOLO-AMU-7: Gjøa Haven is founded by a Build Cabin lowering food by at least the crew count in the round
    its card is revealed. TIS-SOLO-AMU-8: a varied diet (2 different species discarded to raise food, over the
    game, ASSUMED) removes the health black cylinder."""
    player = state["players"][0]
    if entry["kind"] == "cabin_food" and state["event"] is not None \
            and event_number(state["event"]) == DATA["gjoa_haven_card"] and command["amount"] >= crew_count(player):
        state["amundsen"]["gjoa_haven"] = True
    if entry["kind"] == "food_shortage":
        diet = state["amundsen"]["diet"]
        name = CAT.species[command["card"]]["species"]
        if name not in diet:
            diet.append(name)
        if len(diet) >= DATA["varied_diet"]:
            player["black_cylinders"]["health"] = []


PART = RulePart(
    NAME,
    hooks={"new_state": (add_state,), "public_keys": ("amundsen",), "setup_draws": (setup_draw,),
           "answered": (answered,),
           "objectives": (
               ("TIS-SOLO-AMU-5", "found Gjøa Haven", lambda state: state["amundsen"]["gjoa_haven"]),
               ("TIS-SOLO-AMU-5", "find the Northwest Passage", lambda state: state["step"] == "finished"))},
    entries={"chance_handlers": {"amundsen_removal": removed}},
    wraps={"steps": {"voyage_type": voyage_type}, "effects": {"explore": explore}},
)
