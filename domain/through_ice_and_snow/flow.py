"""The order of play: setup (its steps are setup.py's), then rounds of Voyage, Action and Boarding phases, then
the final voyage.

``advance`` runs every automatic step until the game needs a decision (a
pending decision, an Action-phase turn, the setup choices) or a chance
outcome. It only ever runs inside ``apply``, so replaying the events replays
every consequence without deciding anything again.
"""
from __future__ import annotations

from collections.abc import Callable

from domain.through_ice_and_snow import voyage
from domain.through_ice_and_snow.board import (
    State,
    all_lost,
    arriving_inuit,
    clockwise,
    crew_count,
    event_number,
    join_inuit,
)
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.setup import choose, deal, extra_events, module_setup, reveal
from domain.through_ice_and_snow.tracks import demand_food, has_upgrade, raise_food

GALLEY_FOOD = 2
# A step of the order of play; False when the game waits. A part's wrapper of a step also takes ``base``, the
# step it wraps.
Step = Callable[[State], bool]


def round_start(state: State) -> bool:
    if not state["final_voyage"]:
        state["round"] += 1
    state["step"] = "leadership"
    return True


def _step(function: Callable[[State], None]) -> Step:
    def run(state: State) -> bool:
        function(state)
        return True
    run.__doc__ = function.__doc__
    return run


def action_start(state: State) -> bool:
    """TIS-ACT-1: the leader acts first, then clockwise. Event 28 (Orca sighting) ends Card setup first."""
    if state["orca"]:
        prey = CAT.events[event_number(state["event"])]["prey"]
        walrus = [card for card in state["revealed"]["hunting"] if CAT.hunting[card]["prey"] == prey]
        state["revealed"]["hunting"] = [card for card in state["revealed"]["hunting"] if card not in walrus]
        state["discards"]["hunting"].extend(walrus)
    for player in state["players"]:
        player["passed"] = False
        player["turns"] = 0
    for hook in state["parts"].hooks("action_start"):
        hook(state)
    state["turn"] = state["leader"]
    state["step"] = "action"
    return True


def action(state: State) -> bool:
    """TIS-ACT-4: the phase ends when every player has passed."""
    if all(player["passed"] for player in state["players"]):
        state["step"] = "action_end"
        state["turn"] = None
        return True
    return False


def next_turn(state: State) -> None:
    for seat in clockwise(state, state["turn"])[1:] + [state["turn"]]:
        if not state["players"][seat]["passed"]:
            state["turn"] = seat
            return


def action_end(state: State) -> bool:
    """Event cards 9 and 17 (and explorer events 47 and 53): the taker gains 1 Inuk and keeps the card at the end
    of the Action phase."""
    taker = state["event_taken"]
    effect = CAT.events[event_number(state["event"])]["effect"] if taker is not None else None
    if effect in ("inuk_card", "keep_card"):
        player = state["players"][taker]
        if effect == "inuk_card":
            join_inuit(state, player, 1)
        player["kept_events"].append(state["event"])
        state["event"] = None
    state["step"] = "boarding"
    return True


def boarding(state: State) -> bool:
    """TIS-BRD-1: Galley food first; every crew member comes back; hired Inuit join the crew."""
    for player in state["players"]:
        if has_upgrade(player, "galley"):
            raise_food(player, GALLEY_FOOD)
        player["crew"]["inuk"] += arriving_inuit(state, player, player["hired"])
        player["hired"] = 0
        player["free"] = dict(player["crew"])
    state["step"] = "next_leader"
    return True


def next_leader(state: State) -> bool:
    """TIS-BRD-2; TIS-LOSE-2 when nobody owns dynamite."""
    helm = voyage.next_helm(state, state["lead_taker"])
    if helm is None:
        all_lost(state, "TIS-LOSE-2", "nobody owns dynamite to take the helm")
        return True
    state["helm"] = helm
    state["step"] = "meal"
    return True


def meal(state: State) -> bool:
    """TIS-BRD-3: food -1 per crew member; food shortage otherwise."""
    for seat in clockwise(state, state["leader"]):
        demand_food(state, seat, crew_count(state["players"][seat]))
    state["step"] = "cleanup"
    return True


def cleanup(state: State) -> bool:
    """TIS-BRD-4: untaken cards to their discard piles, round effects end; a blue anchor means the final voyage."""
    state["discards"]["hunting"].extend(state["revealed"]["hunting"])
    state["discards"]["species"].extend(state["revealed"]["species"])
    state["revealed"] = {"hunting": [], "species": []}
    if state["event"] is not None:
        state["discards"]["events"].append(state["event"])
    if state["event_species"]:
        state["discards"]["species"].append(state["event_species"])
    state.update(event=None, event_taken=None, event_species=None, voyage=None, destination=None,
                 route_extra=False, used={}, lead_taker=None, freezing_wind=False, boiler_used=[],
                 shoal_of_fish=False, orca=False, previous_anchor=None, route_fuel=0)
    for player in state["players"]:
        player["subst_used"] = []
    if CAT.anchors[state["anchor"]]["final_round"]:
        state["final_voyage"] = True
    state["step"] = "round_start"
    return True


def finished(state: State) -> bool:
    """TIS-END-1: after the final voyage the expedition has passed the Northwest Passage; a part may give the end
    another outcome than a ranking (the single-player scenarios)."""
    endings = state["parts"].hooks("endings")
    state["over"] = next((over for over in (ending(state) for ending in endings) if over), {"outcome": "ranked"})
    return True


PHASES = {
    "module_setup": "setup", "extra_events": "setup", "fuel_loss": "voyage", "deal": "setup", "choose": "setup",
    "reveal": "setup",
    "round_start": "voyage", "leadership": "voyage",
    "destination": "voyage", "ice_breaking": "voyage", "attrition": "voyage", "voyage_type": "voyage",
    "fuel": "voyage", "mapping": "voyage", "event": "voyage", "event_effect": "voyage", "card_setup": "voyage",
    "card_setup_species": "voyage", "action_start": "action", "action": "action", "action_end": "action",
    "boarding": "boarding", "next_leader": "boarding", "meal": "boarding", "cleanup": "boarding",
    "finished": "final_voyage",
}


def phase(state: State) -> str:
    """The phase a reader sees: setup, voyage, action, boarding, final_voyage or over."""
    if state["over"] is not None:
        return "over"
    if state["final_voyage"] and PHASES[state["step"]] == "voyage":
        return "final_voyage"
    return PHASES[state["step"]]


# The base game's steps, by the name ``state["step"]`` holds; a match runs them as its parts wrap them (the
# ``steps`` table of its composition).
STEPS: dict[str, Step] = {
    "module_setup": module_setup, "extra_events": extra_events, "fuel_loss": _step(voyage.fuel_loss), "deal": deal,
    "choose": choose,
    "reveal": reveal, "round_start": round_start,
    "leadership": _step(voyage.leadership), "destination": _step(voyage.destination),
    "ice_breaking": _step(voyage.ice_breaking), "attrition": _step(voyage.attrition),
    "voyage_type": _step(voyage.voyage_type), "fuel": _step(voyage.fuel), "mapping": _step(voyage.mapping),
    "event": _step(voyage.draw_event), "event_effect": _step(voyage.event_effect),
    "card_setup": _step(voyage.card_setup), "card_setup_species": _step(voyage.card_setup_species),
    "action_start": action_start, "action": action, "action_end": action_end, "boarding": boarding,
    "next_leader": next_leader, "meal": meal, "cleanup": cleanup, "finished": finished,
}


def advance(state: State) -> State:
    """Run the match's steps (the base game's, as its parts wrap them); the checks the state names (e.g. an
    immediate loss) run before every step."""
    game = state["parts"]
    checks = [game.table("checks")[name] for name in state["checks"]] if state["checks"] else ()
    steps = game.table("steps")
    for check in checks:
        check(state)
    while state["over"] is None and state["chance"] is None and not state["pending"]:
        if not steps[state["step"]](state):
            break
        for check in checks:
            check(state)
    return state
