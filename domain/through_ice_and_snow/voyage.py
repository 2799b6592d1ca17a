"""The Voyage phase (TIS-VOY-*), the final voyage (TIS-END-1) and the voyage event cards (spec 2.3)."""
from __future__ import annotations

from domain.through_ice_and_snow.board import (
    State,
    all_lost,
    clockwise,
    crew_count,
    event_number,
    owned,
    pay,
    push,
    score,
)
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.tracks import (
    demand_food,
    lose_fuel,
    lower_track,
    owe_discard,
    raise_track,
    scurvy_like,
)

COASTAL, OPEN_SEA = "coastal", "open_sea"
VOYAGE_FUEL = {COASTAL: 2, OPEN_SEA: 1}
COASTAL_FUEL_PER_PLAYER = 2
GUIDE_CARD = 9
RATS_FOOD = 4
BEAR_RIFLES = 3


def routes(state: State, anchor: str | None = None) -> list[dict]:
    """TIS-VOY-2: one-way routes leaving the anchor (the current one by default) on placed sections, on the side
    placed."""
    return [route for route in CAT.routes_from.get(anchor or state["anchor"], []) if usable(state, route)]


def usable(state: State, route: dict) -> bool:
    """A route of a placed section on its side, of this game's sections (base or Walking on Ice's, TIS-WALK-1),
    that no module closes (TIS-WALK-3: walking routes before the ship is abandoned)."""
    return state["sections"].get(route["section"]) in route["sides"] \
        and route.get("variant", state["map_variant"]) == state["map_variant"] \
        and all(allows(state, route) for allows in state["parts"].hooks("route_filters"))


def destinations(state: State, anchor: str | None = None) -> list[str]:
    return sorted({route["to"] for route in routes(state, anchor)})


def unplaced_section(state: State, anchor: str) -> str | None:
    """A boundary anchor reached brings the next map section (TIS-VOY-2)."""
    return next((section for section in CAT.anchors[anchor]["sections"] if section not in state["sections"]), None)


def section_sides(section: str) -> list[str]:
    return next(entry["sides"] for entry in CAT.map["sections"] if entry["id"] == section)


def next_helm(state: State, lead_taker: int | None) -> int | None:
    """TIS-BRD-2: the Lead taker if they own dynamite, else the most dynamite; a tie goes to the tied player
    nearest clockwise after the current leader, who is excluded from the tie. None when nobody owns dynamite."""
    players = state["players"]
    if lead_taker is not None and players[lead_taker]["dynamite"]:
        return lead_taker
    most = max(player["dynamite"] for player in players)
    if most == 0:
        return None
    current = state["leader"] if state["leader"] is not None else state["helm"]
    tied = [seat for seat in clockwise(state, current) if players[seat]["dynamite"] == most]
    if len(tied) > 1 and current in tied:
        tied.remove(current)
    return tied[0]


def leadership(state: State) -> None:
    """TIS-VOY-1 (with TIS-AMB-14): the helm holder with dynamite leads; otherwise the helm passes as TIS-BRD-2."""
    helm = state["helm"]
    if not state["players"][helm]["dynamite"]:
        helm = next_helm(state, None)
        if helm is None:
            all_lost(state, "TIS-LOSE-2", "nobody owns dynamite to lead the expedition")
            return
    state["helm"] = state["leader"] = helm
    state["players"][helm]["times_leader"] += 1
    state["step"] = "destination"


def destination(state: State) -> None:
    push(state, state["leader"], "destination")
    state["step"] = "ice_breaking"


def ice_breaking(state: State) -> None:
    """TIS-VOY-3: 1 dynamite (+1 on marked routes) from the leader, then clockwise from whoever owns some."""
    required = 1 + (1 if state["route_extra"] else 0)
    payers = clockwise(state, state["leader"])
    for _ in range(required):
        payer = next((seat for seat in payers if state["players"][seat]["dynamite"]), None)
        if payer is None:
            all_lost(state, "TIS-LOSE-1", "nobody can pay the dynamite the ice requires")
            return
        state["players"][payer]["dynamite"] -= 1
        state["dynamite_on"][state["destination"]] = state["dynamite_on"].get(state["destination"], 0) + 1
    state["step"] = "attrition"


def attrition(state: State) -> None:
    """TIS-VOY-4: health -1 and morale -1 with the space effects reached."""
    for seat in clockwise(state, state["leader"]):
        lower_track(state, seat, "health", 1, effects=True)
        lower_track(state, seat, "morale", 1, effects=True)
    state["step"] = "voyage_type"


def voyage_choices(state: State) -> list[str]:
    """TIS-VOY-5 / TIS-TRK-FUEL-3: coastal needs total fuel >= 2 x players; an empty deck cannot be chosen, so
    once a deck runs out the other type is the only choice (TIS-SOLO-LOST-9)."""
    total_fuel = sum(player["fuel"] for player in state["players"])
    choices = []
    if total_fuel >= COASTAL_FUEL_PER_PLAYER * state["n"] and state["decks"][COASTAL]:
        choices.append(COASTAL)
    if state["decks"][OPEN_SEA] or not choices:
        choices.append(OPEN_SEA)
    return choices


def voyage_type(state: State) -> None:
    """TIS-END-1: the final voyage is open-sea only."""
    if state["final_voyage"]:
        state["voyage"] = OPEN_SEA
    else:
        push(state, state["leader"], "voyage_type")
    state["step"] = "fuel"


def fuel(state: State) -> None:
    """TIS-VOY-5 (a): the fleet moves; every player lowers fuel with bands, towing if needed."""
    state["previous_anchor"] = state["anchor"]
    state["anchor"] = state["destination"]
    amount = VOYAGE_FUEL[state["voyage"]] + state["route_fuel"]  # TIS-WALK-3: broken-ice and ice routes cost more
    voyage_fuel_loss(state, dict.fromkeys(range(state["n"]), amount), True, "mapping")


def voyage_fuel_loss(state: State, amounts: dict[int, int], bands: bool, then: str) -> None:
    """A fuel loss of the Voyage step. Upgrade 8 (Boiler, TIS-AMB-7): once per Voyage step its owner may pay
    1 wood instead of 1 fuel, so owners who can are asked first; the loss itself is the ``fuel_loss`` step."""
    state["fuel_loss"] = {"amounts": {str(seat): amount for seat, amount in amounts.items()}, "bands": bands,
                          "then": then}
    for seat in clockwise(state, state["leader"]):
        player = state["players"][seat]
        if (amounts.get(seat) and player["wood"] and seat not in state["boiler_used"]
                and any(CAT.upgrades[number]["effect"] == "boiler" for number in player["upgrades"])):
            push(state, seat, "boiler")
    state["step"] = "fuel_loss"


def fuel_loss(state: State) -> None:
    loss = state["fuel_loss"]
    state["fuel_loss"] = None
    state["step"] = loss["then"]
    lose_fuel(state, {int(seat): amount for seat, amount in loss["amounts"].items()}, bands=loss["bands"])


def map_region(state: State) -> None:
    """TIS-VOY-5 (b) / TIS-AMB-2: a region is mapped once; the leader gains 1 VP; no token left, no mapping."""
    region = CAT.anchors[state["anchor"]]["region"]
    if region in state["mapped"] or state["supply"]["cartography"] < 1:
        return
    state["supply"]["cartography"] -= 1
    state["mapped"][region] = state["seats"][state["leader"]]
    leader = state["players"][state["leader"]]
    own = (hook(leader) for hook in state["parts"].hooks("mapping_vp"))  # e.g. Collinson's
    score(leader, next((vp for vp in own if vp is not None), 1))


def mapping(state: State) -> None:
    leader = state["players"][state["leader"]]
    if state["final_voyage"]:
        final = CAT.anchors[state["anchor"]].get("final_vp", {})
        side = state["sections"].get(CAT.anchors[state["anchor"]]["sections"][0])
        score(leader, final.get(side, 0))
        state["step"] = "finished"
        return
    region = CAT.anchors[state["anchor"]]["region"]
    if state["voyage"] == COASTAL:
        map_region(state)
    elif (any(event_number(card) == GUIDE_CARD for card in leader["kept_events"])
          and region not in state["mapped"] and state["supply"]["cartography"]):
        push(state, state["leader"], "inuk_guide")
    state["step"] = "event"


def draw_event(state: State) -> None:
    """TIS-VOY-5 (c): the top card of the chosen deck, revealed now (a chance draw).

    Upgrade 9 (Mast upgrade): its owner, as leader, sees the top 2 cards instead (a draw only they see) and
    keeps one (TIS-CMD-10); the other goes to the bottom. With fewer than 2 cards above the bottom ones the
    draw is the normal one (ASSUMED).
    """
    deck = state["voyage"]
    state["step"] = "card_setup"
    if not state["decks"][deck]:
        return
    state["step"] = "event_effect"
    leader = state["players"][state["leader"]]
    above_bottom = [card for card in state["decks"][deck] if card not in state["bottom"][deck]]
    if len(above_bottom) >= 2 and any(CAT.upgrades[number]["effect"] == "mast" for number in leader["upgrades"]):
        state["chance"] = {"key": "mast", "deck": deck, "count": 2, "seat": state["leader"]}
    else:
        state["chance"] = {"key": "event", "deck": deck, "count": 1}


def event_effect(state: State) -> None:
    """The revealed card's effect: the base game's (EVENT_EFFECTS) or the one a part gives its own cards."""
    state["step"] = "card_setup"
    card = CAT.events[event_number(state["event"])]
    effects = state["parts"].table("event_effects")
    if card["effect"] in effects:
        effects[card["effect"]](state, card)


def card_setup(state: State) -> None:
    """TIS-VOY-6: hunting cards by player count, species cards by the region's species icons."""
    count = min(CAT.components["hunting_reveal"][str(state["n"])], len(state["decks"]["hunting"]))
    state["step"] = "card_setup_species"
    if count:
        state["chance"] = {"key": "hunting_setup", "deck": "hunting", "count": count}


def card_setup_species(state: State) -> None:
    """TIS-VOY-6: species cards by the region's species icons, and the more a part reveals (the translator's
    variant, TIS-VOY-5)."""
    extra = sum(more(state) for more in state["parts"].hooks("extra_species"))
    count = min(CAT.anchors[state["anchor"]]["species_icons"] + extra, len(state["decks"]["species"]))
    state["step"] = "action_start"
    if count:
        state["chance"] = {"key": "species_setup", "deck": "species", "count": count}


def _everyone(state: State) -> list[int]:
    return clockwise(state, state["leader"])


def _aurora(state: State, card: dict) -> None:
    for player in state["players"]:
        raise_track(player, "morale", 1)


def _fuel_loss(state: State, card: dict) -> None:
    """Events 2, 6, 14, 15: towing but no fuel band (TIS-AMB-20, TIS-TRK-FUEL-5)."""
    voyage_fuel_loss(state, dict.fromkeys(affected(state, card), card["amount"]), False, state["step"])


def _good_weather(state: State, card: dict) -> None:
    for player in state["players"]:
        raise_track(player, "fuel", 1)


def _freezing_wind(state: State, card: dict) -> None:
    state["freezing_wind"] = True


def _endless_dusk(state: State, card: dict) -> None:
    for seat in _everyone(state):
        lower_track(state, seat, "morale", 1, effects=True)


def affected(state: State, card: dict) -> list[int]:
    """Seats an event card hits: upgrade 13 (Deck upgrade, TIS-WALK-13) spares its owner events 2, 6, 7, 14, 15."""
    return [seat for seat in _everyone(state) if not any(card["number"] in CAT.upgrades[number].get("immune_events", ())
                                                         for number in state["players"][seat]["upgrades"])]


def _great_storm(state: State, card: dict) -> None:
    for seat in affected(state, card):
        owe_discard(state, seat, "great_storm")


def _rats(state: State, card: dict) -> None:
    """Event 12: as far as possible, no food shortage (TV-7 c)."""
    for player in state["players"]:
        player["food"] = max(0, player["food"] - RATS_FOOD)
        if player["wood"]:
            pay(state, player, "wood")


def _hull_damage(state: State, card: dict) -> None:
    short = {}
    for seat in _everyone(state):
        player = state["players"][seat]
        if player["wood"]:
            pay(state, player, "wood")
        else:
            short[seat] = 1
    if short:
        voyage_fuel_loss(state, short, False, state["step"])


def _sedna(state: State, card: dict) -> None:
    for player in state["players"]:
        player["free"]["inuk"] = 0


def _pack_ice(state: State, card: dict) -> None:
    for player in state["players"]:
        if owned(player, "dynamite"):
            pay(state, player, "dynamite")


def _trapped(state: State, card: dict) -> None:
    for seat in _everyone(state):
        demand_food(state, seat, crew_count(state["players"][seat]))


def _animal_tracks(state: State, card: dict) -> None:
    if state["decks"]["species"]:
        state["chance"] = {"key": "event_species", "deck": "species", "count": 1}


def _damaged_compass(state: State, card: dict) -> None:
    """Event 25 / TIS-AMB-21: the player left of the leader may move this round's dynamite to another anchor
    reachable from the previous one, and the fleet goes there (TIS-CMD-12); declining keeps the destination."""
    others = [anchor for anchor in destinations(state, state["previous_anchor"]) if anchor != state["anchor"]]
    if others:
        push(state, (state["leader"] + 1) % state["n"], "compass", choices=others)


def _shoal_of_fish(state: State, card: dict) -> None:
    """Event 26: Ice Fishing counts twice this round."""
    state["shoal_of_fish"] = True


def _bear_attack(state: State, card: dict) -> None:
    """Event 27: owners of 3 rifles or fewer put 1 non-Inuk crew member in the sick bay."""
    for seat in _everyone(state):
        if state["players"][seat]["rifle"] <= BEAR_RIFLES:
            scurvy_like(state, seat, 1, ("inuk",))


def _orca(state: State, card: dict) -> None:
    """Event 28: the revealed walrus hunting cards go at the end of this Card-setup step (flow.action_start)."""
    state["orca"] = True


# The effects of the base game's event cards; a match's are the ``event_effects`` table of its composition.
EVENT_EFFECTS = {
    "aurora": _aurora, "fuel_loss": _fuel_loss, "good_weather": _good_weather, "freezing_wind": _freezing_wind,
    "endless_dusk": _endless_dusk, "great_storm": _great_storm, "rats": _rats, "hull_damage": _hull_damage,
    "sedna": _sedna, "pack_ice": _pack_ice, "trapped": _trapped, "animal_tracks": _animal_tracks,
    "damaged_compass": _damaged_compass, "shoal_of_fish": _shoal_of_fish, "bear_attack": _bear_attack,
    "orca": _orca,
}
