"""Personal-board tracks and the effects they trigger (spec section 6)."""
from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

from domain.through_ice_and_snow.board import (
    State,
    all_lost,
    clockwise,
    crew_count,
    owned,
    pay,
    push,
    remove_crew,
    score,
)
from domain.through_ice_and_snow.catalogue import CAT, CREW_TYPES, RESOURCES

DEATH_VP = 5
DOG_FOOD, DOG_VP = 2, 2
SAILOR_FOOD, SAILOR_VP = 2, 5
MISSING_FOOD_VP = 5
SICK_PER_SCURVY = 2


def has_upgrade(player: dict, effect: str) -> bool:
    upgrades = player["upgrades"]  # mostly none: asked at every track move, Boarding and action
    return bool(upgrades) and any(CAT.upgrades[number]["effect"] == effect for number in upgrades)


def raise_track(player: dict, track: str, amount: int) -> None:
    """TIS-TRK-2: steps beyond the maximum of health or morale score 1 VP each; of fuel, raise morale. Black
    cylinders (TIS-SOLO-AMU-2) stop the cylinder below them, the excess counting as beyond the maximum."""
    top = min([CAT.tracks[track]["max"], *(space - 1 for space in player.get("black_cylinders", {}).get(track, ()))])
    excess = max(0, player[track] + amount - top)
    player[track] = min(top, player[track] + amount)
    if excess and track == "fuel":
        raise_track(player, "morale", excess)
    elif excess:
        score(player, excess)


def raise_food(player: dict, amount: int) -> None:
    """TIS-TRK-FOOD-1: food above 50 is marked by the 7th cylinder; the cap is ASSUMED data."""
    player["food"] = min(CAT.tracks["food"]["max"], player["food"] + amount)


def lower_track(state: State, seat: int, track: str, amount: int, effects: bool) -> None:
    """Lower health or morale (TIS-TRK-1); space effects only when ``effects`` (TIS-TRK-3).

    TIS-TRK-4 / TIS-AMB-5: space 0 always applies Death, whatever lowered it,
    then the cylinder moves to 1 without applying space 1.
    """
    player = state["players"][seat]
    player[track] = max(CAT.tracks[track]["min"], player[track] - amount)
    position = max(0, player[track] - curse(player, track))
    area = CAT.area(track, position)
    if area in ("death", "mutiny") or (track == "health" and position == 0):
        player["booth_ok"] = False
    if position == 0:
        death(state, seat, track)
    elif effects and area == "scurvy" and not has_upgrade(player, "treatment_room"):
        scurvy(state, seat)
    elif effects and area == "mutiny" and not has_upgrade(player, "saloon"):
        mutiny(state, seat)


def curse(player: dict, track: str) -> int:
    """TIS-MYTH-3 card 38 / TIS-AMB-6 / TIS-MYTH-4: a curse cylinder one space below health moves with it and
    triggers Scurvy and Death at its own position."""
    return 1 if track == "health" and player.get("cursed") else 0


def death(state: State, seat: int, track: str) -> None:
    """TIS-TRK-HEALTH-2 / TIS-TRK-MORALE-2: lose 5 VP, back to space 1, one sailor returns to the box. A cursed
    player's curse cylinder goes back to 1, health with it (TIS-MYTH-4, ASSUMED)."""
    player = state["players"][seat]
    player["vp"] -= DEATH_VP
    player[track] = 1 + curse(player, track)
    if player["crew"]["sailor"]:
        remove_crew(player, "sailor")
    elif player.get("rescued"):
        player["rescued"] -= 1  # TIS-SOLO-LOST-8 / TIS-AMB-17: a rescued sailor only when no own sailor is left


def sick_choices(player: dict, count: int, exclude: tuple[str, ...] = ()) -> list[dict]:
    """Every distinct group of ``count`` available crew members, none of the ``exclude`` types."""
    kinds = tuple(kind for kind in CREW_TYPES if kind not in exclude)
    result = []
    for group in _sick_groups(kinds, tuple(player["free"][kind] for kind in kinds), count):
        crew: dict[str, int] = {}
        for kind in group:
            crew[kind] = crew.get(kind, 0) + 1
        result.append(crew)
    return result


@cache
def _sick_groups(kinds: tuple[str, ...], free: tuple[int, ...], count: int) -> tuple[tuple[str, ...], ...]:
    """The groups of :func:`sick_choices`, sorted, for ``free`` members of each of ``kinds``: a pure function of
    a few small numbers, asked at every Scurvy and again while its decision waits."""
    pool = [kind for kind, available in zip(kinds, free, strict=True) for _ in range(available)]
    choices = {tuple(group) for group in combinations_with_replacement(kinds, count)
               if all(group.count(kind) <= pool.count(kind) for kind in CREW_TYPES)}
    return tuple(sorted(choices))


def send_to_sick_bay(player: dict, crew: dict) -> None:
    for kind, count in crew.items():
        player["free"][kind] -= count


def scurvy(state: State, seat: int) -> None:
    """TIS-TRK-HEALTH-1: 2 crew of the player's choice go to the sick bay (a decision when there is a choice). The
    parts' ``effect_applied`` hooks are told (e.g. guilt, TIS-WALK-18)."""
    for hook in state["parts"].hooks("effect_applied"):
        hook(state, seat, "scurvy")
    scurvy_like(state, seat, SICK_PER_SCURVY, ())


def scurvy_like(state: State, seat: int, count: int, exclude: tuple[str, ...]) -> None:
    """Crew of the player's choice to the sick bay (Scurvy, event 27); automatic when there is one choice."""
    player = state["players"][seat]
    count = min(count, sum(player["free"][kind] for kind in CREW_TYPES if kind not in exclude))
    if count == 0:
        return
    choices = sick_choices(player, count, exclude)
    if len(choices) == 1:
        send_to_sick_bay(player, choices[0])
    elif exclude:
        push(state, seat, "sick", count=count, exclude=list(exclude))
    else:
        push(state, seat, "sick", count=count)


def mutiny(state: State, seat: int) -> None:
    """TIS-TRK-MORALE-1: lower food by half the crew, rounded up; food shortage if it cannot."""
    for hook in state["parts"].hooks("effect_applied"):
        hook(state, seat, "mutiny")
    demand_food(state, seat, -(-crew_count(state["players"][seat]) // 2))


def demand_food(state: State, seat: int, need: int) -> None:
    """Lower food by ``need`` (TIS-TRK-FOOD-2: Meal, Mutiny, event 24), through the food-shortage ladder when
    food is short (TIS-TRK-FOOD-3)."""
    player = state["players"][seat]
    if player["food"] >= need:
        player["food"] -= need
    elif player["species"]:
        push(state, seat, "food_shortage", need=need)
    else:
        finish_food_shortage(state, seat, need)


def discard_species_for_food(state: State, seat: int, card: str, need: int) -> bool:
    """TIS-TRK-FOOD-3 step 1 (one card at a time, TIS-AMB-16); True once the need is met."""
    player = state["players"][seat]
    player["species"].remove(card)
    state["discards"]["food_shortage"].append(card)
    data = CAT.species[card]
    raise_food(player, data["food"])
    if data["health"]:
        raise_track(player, "health", data["health"])
    if player["food"] >= need:
        player["food"] -= need
        return True
    if not player["species"]:
        finish_food_shortage(state, seat, need)
        return True
    return False


def finish_food_shortage(state: State, seat: int, need: int) -> None:
    """TIS-TRK-FOOD-3 steps 2-4: dogs, then sailors, then 5 VP per missing food; the need is not recomputed."""
    player = state["players"][seat]
    while player["food"] < need and player["dogs"]:
        pay(state, player, "dog")
        player["food"] += DOG_FOOD
        player["vp"] -= DOG_VP
    while player["food"] < need and player["crew"]["sailor"]:
        remove_crew(player, "sailor")
        player["food"] += SAILOR_FOOD
        player["vp"] -= SAILOR_VP
    if player["food"] >= need:
        player["food"] -= need
    else:
        player["vp"] -= MISSING_FOOD_VP * (need - player["food"])
        player["food"] = 0


def discard_choices(player: dict, kinds: tuple[str, ...] = RESOURCES) -> list[str]:
    return [kind for kind in kinds if owned(player, kind)]


def owe_discard(state: State, seat: int, reason: str) -> None:
    """Discard 1 resource of the player's choice, if any (fuel band 0-3, event 7): a decision when it is one."""
    choices = discard_choices(state["players"][seat])
    if len(choices) == 1:
        pay(state, state["players"][seat], choices[0])
    elif choices:
        push(state, seat, "discard", reason=reason)


def fuel_band(state: State, seat: int) -> None:
    """TIS-TRK-FUEL-1: the band of the new fuel level after a Voyage-step fuel loss (a module may give a player
    other bands, e.g. Franklin, TIS-LEG-6)."""
    player = state["players"][seat]
    own = (hook(player) for hook in state["parts"].hooks("fuel_bands"))
    bands = next((bands for bands in own if bands), CAT.tracks["fuel"]["bands"])
    for band in bands:
        if band["low"] <= player["fuel"] <= band["high"]:
            if band["effect"] == "morale":
                raise_track(player, "morale", 1)
            elif band["effect"] == "discard" and not has_upgrade(player, "storehouse"):  # upgrade 12, TIS-WALK-13
                owe_discard(state, seat, "fuel_band")
            return


def lose_fuel(state: State, amounts: dict[int, int], bands: bool) -> None:
    """Lower fuel (TIS-TRK-FUEL-2), apply bands when asked, then tow any shortfall (TIS-TRK-FUEL-5)."""
    shortfalls: dict[int, int] = {}
    for seat in clockwise(state, state["leader"]):
        if seat not in amounts:
            continue
        player = state["players"][seat]
        missing = max(0, amounts[seat] - player["fuel"])
        player["fuel"] = max(0, player["fuel"] - amounts[seat])
        if missing:
            shortfalls[seat] = missing
        if bands:
            fuel_band(state, seat)
    if shortfalls:
        tow(state, shortfalls)


def towing_vp(level: int) -> int:
    return CAT.tracks["towing"]["vp"][str(level)]


def tow(state: State, shortfalls: dict[int, int]) -> None:
    """TIS-TRK-FUEL-4, the towing procedure; TIS-TRK-FUEL-6 / TIS-LOSE-3 when it cannot cover the shortfall.

    The queue runs clockwise from the leader (TIS-AMB-12).
    """
    order = clockwise(state, state["leader"])
    players = state["players"]
    towing = [seat for seat in order if seat not in shortfalls and players[seat]["fuel"] > 0]
    queue = [[seat, shortfalls[seat]] for seat in order if seat in shortfalls]
    if sum(shortfalls.values()) > sum(players[seat]["fuel"] for seat in towing):
        all_lost(state, "TIS-LOSE-3", "the towing players cannot cover the fleet's fuel shortfall (TIS-TRK-FUEL-6)")
        return
    low = CAT.tracks["towing"]["min"]
    high = CAT.tracks["towing"]["max"]
    for seat, _ in queue:
        towed = players[seat]
        towed["towing"] = max(low, towed["towing"] - 1)
        towed["vp"] -= towing_vp(towed["towing"])
    for seat in towing:
        tower = players[seat]
        supplied: list[int] = []
        for entry in queue:
            while entry[1] and tower["fuel"]:
                entry[1] -= 1
                tower["fuel"] -= 1
                if entry[0] not in supplied:
                    supplied.append(entry[0])
        if supplied:
            score(tower, sum(towing_vp(players[towed]["towing"]) for towed in supplied))
            tower["towing"] = min(high, tower["towing"] + 1)
