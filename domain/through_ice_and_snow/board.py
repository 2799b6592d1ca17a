"""The state of a game: one compact JSON-ready dict, and the small helpers every phase shares.

Seats are kept as indexes (0 = ``p1``) inside the state; crew are counted by
type, since pawns of one type are interchangeable (TIS-ACT-64). The state
also holds, under ``parts``, the composition of the rule parts its options
chose (parts.py), which the engine reads its hooks and tables from; it is no
part of the state's JSON, which has the options it is rebuilt from
(``Rules.state_to_json``).
"""
from __future__ import annotations

from domain.core.parts import Composition
from domain.through_ice_and_snow.catalogue import CAT

State = dict

def new_state(seats: list[str], options: dict, game: Composition) -> State:
    """The table before any card is dealt, with what the match's parts (``game``) add to it.

    TIS-SETUP-2 / TIS-SETUP-3: East section on its first side, fleet on its start point. TIS-SETUP-5,
    TIS-SETUP-6, TIS-SETUP-7, TIS-SETUP-8, TIS-SETUP-9: the decks exist as lists of the cards still in them (a
    draw is a chance node, so no order is stored); whale hunting cards are left out; the event decks are the
    multiplayer lists of events.json (TIS-AMB-1). TIS-SETUP-10: the shared supply (finite, ASSUMED). TIS-SETUP-11,
    TIS-SETUP-12, TIS-SETUP-13, TIS-SETUP-14, TIS-SETUP-15: personal boards, 10 VP, towing 0, start tracks,
    resources by player count, 3 dogs, three officers and the 3 sailors. TIS-SETUP-19: nothing else is in play.
    """
    n = len(seats)
    comp = CAT.components
    supply = dict(comp["supply"])
    start = comp["start_resources"][str(n)]
    tracks = CAT.tracks
    players = []
    for _ in seats:
        crew = {"captain": 1, "carpenter": 1, "scientist": 1, "sailor": comp["sailors"], "inuk": 0}
        players.append({
            "vp": 10, "food": tracks["food"]["start"], "health": tracks["health"]["start"],
            "morale": tracks["morale"]["start"], "fuel": tracks["fuel"]["start"], "sled": tracks["sled"]["start"],
            "dogs": tracks["dogs"]["start"], "inuit": tracks["inuit"]["start"], "towing": tracks["towing"]["start"],
            "dynamite": start["dynamite"], "wood": start["wood"], "rifle": start["rifle"],
            "crew": crew, "free": dict(crew), "hired": 0, "upgrades": [], "subst_used": [], "species": [],
            "cabins": 0, "investor_dealt": [], "investor": None, "carto_dealt": [], "carto": None,
            "passed": False, "turns": 0, "kept_events": [], "times_leader": 0, "explores": 0, "booth_ok": True,
        })
        for resource in ("dynamite", "wood", "rifle"):
            supply[resource] -= start[resource]
        supply["dog"] -= tracks["dogs"]["start"]
    # TIS-AMB-1: deck membership per game mode; a scenario's own lists (TIS-SOLO-LOST-2, TIS-SOLO-MAG-2,
    # TIS-SOLO-EPI-3)
    decks = CAT.event_decks[options.get("scenario") or "multiplayer"]
    east = CAT.map["sections"][0]
    state = {
        "n": n, "seats": list(seats), "options": options,
        "step": "module_setup", "over": None, "round": 0, "final_voyage": False,
        "helm": None, "leader": None, "anchor": CAT.map["start"], "destination": None, "route_extra": False,
        "sections": {east["id"]: east.get("first_side", east["sides"][0])},
        "dynamite_on": {}, "mapped": {}, "cabins_on": [],
        "decks": {
            "species": sorted(CAT.species),
            "hunting": sorted(card for card, data in CAT.hunting.items()
                              if (options.get("whale_hunting") or not data["whale"]) and not data.get("dual")),
            "coastal": [f"ev{number:02d}" for number in decks["coastal"]],
            "open_sea": [f"ev{number:02d}" for number in decks["open_sea"]],
            "investor": sorted(CAT.investors),
            "cartography": sorted(CAT.cartography),
        },
        "discards": {"species": [], "hunting": [], "events": [], "food_shortage": []},
        "revealed": {"hunting": [], "species": []},
        "event": None, "event_taken": None, "event_species": None, "voyage": None,
        "discovered": [], "warehouses": {column: {} for column in CAT.warehouses},
        "used": {}, "lead_taker": None, "freezing_wind": False, "turn": None,
        "supply": supply, "tiles": tile_supply(options),
        "pending": [], "chance": None, "deal_index": 0, "deal_investors": True,
        "extras_todo": {deck: [number for number in numbers if number in options.get("extra_events", [])]
                        for deck, numbers in CAT.extra_decks.items()},
        "removed_events": [], "known_top": {}, "map_variant": "base", "route_fuel": 0, "checks": [],
        "bottom": {"coastal": [], "open_sea": []}, "peek": [], "peeked": {},
        "previous_anchor": None, "fuel_loss": None, "boiler_used": [], "shoal_of_fish": False, "orca": False,
        "players": players, "parts": game,
    }
    for hook in game.hooks("new_state"):
        hook(state)
    return state


def tile_supply(options: dict) -> dict[str, int]:
    """TIS-SETUP-4: tiles 1-6; 7-11 with all upgrades; 7 whenever whale hunting cards are used."""
    sets = {"base", "extra"} if options.get("all_upgrades") else {"base"}
    return {str(tile["number"]): tile["copies"] for tile in CAT.upgrades.values()
            if tile["set"] in sets or (options.get("whale_hunting") and tile["effect"] == "fishing_boat")}


def drawable(state: State, deck: str) -> list[str]:
    """Event cards that can come off the top: cards put on the bottom (Mast upgrade) come last, in order."""
    bottom = state["bottom"][deck]
    return [card for card in state["decks"][deck] if card not in bottom] or bottom[:1]


def clockwise(state: State, first: int) -> list[int]:
    """Seat indexes clockwise starting with ``first`` itself."""
    n = state["n"]
    return [(first + k) % n for k in range(n)]


def event_number(card_id: str) -> int:
    return int(card_id[2:])


def crew_count(player: dict) -> int:
    """Crew members on the player's ship (officers, sailors, Inuit pawns); hired Inuit join at Boarding. Sailors
    rescued in the Lost Expedition are fed too (TIS-SOLO-LOST-8)."""
    return sum(player["crew"].values()) + player.get("rescued", 0)


def owned(player: dict, resource: str) -> int:
    return player["dogs"] if resource == "dog" else player.get(resource, 0)


def gain(state: State, player: dict, resource: str, amount: int) -> int:
    """Take from the shared supply (TIS-TRK-5); a gain the finite supply cannot give is lost (ASSUMED)."""
    room = state["supply"][resource]
    if resource == "dog" and player.get("fixed_dogs"):
        return 0  # Amundsen never places dogs (TIS-SOLO-AMU-3)
    if resource == "dog":
        room = min(room, CAT.tracks["dogs"]["max"] - player["dogs"])
    taken = max(0, min(amount, room))
    state["supply"][resource] -= taken
    if resource == "dog":
        player["dogs"] += taken
    else:
        player[resource] += taken
    return taken


def score(player: dict, amount: int) -> None:
    """Prestige gained or lost. In the single-player scenarios prestige is never gained, only lost
    (TIS-SOLO-LOST-6, TIS-SOLO-MAG-6, TIS-SOLO-EPI-6, TIS-SOLO-AMU-5): the player board says so."""
    if amount > 0 and player.get("no_vp_gains"):
        return
    player["vp"] += amount


def join_inuit(state: State, player: dict, amount: int) -> None:
    """An Inuk pawn joins the crew at once (investor bonus, event cards 9 and 17) and the Inuit track rises."""
    taken = max(0, min(amount, state["supply"]["inuk"], CAT.tracks["inuit"]["max"] - player["inuit"]))
    state["supply"]["inuk"] -= taken
    player["inuit"] += taken
    joining = arriving_inuit(state, player, taken)
    player["crew"]["inuk"] += joining
    player["free"]["inuk"] += joining


def arriving_inuit(state: State, player: dict, count: int) -> int:
    """Inuk pawns a player receives join the crew, unless a module holds them elsewhere (TIS-MYTH-3, card 37)."""
    for hook in state["parts"].hooks("inuit_arrival"):
        count = hook(state, player, count)
    return count


def pay(state: State, player: dict, resource: str, amount: int = 1) -> None:
    """Return to the shared supply (TIS-TRK-5); a dog always leaves from the highest space (TIS-TRK-DOG-1)."""
    if resource == "dog":
        player["dogs"] -= amount
    else:
        player[resource] -= amount
    state["supply"][resource] += amount


def remove_crew(player: dict, kind: str) -> None:
    """A pawn leaves the game; one already used or sick this round goes first (ASSUMED)."""
    player["crew"][kind] -= 1
    player["free"][kind] = min(player["free"][kind], player["crew"][kind])


def push(state: State, seat: int, kind: str, **details) -> None:
    """Queue a decision the rules ask of ``seat``; the game waits for it before any automatic step."""
    state["pending"].append({"seat": seat, "kind": kind, **details})


def all_lost(state: State, rule_id: str, detail: str) -> None:
    """A catastrophe (TIS-LOSE-*): the game ends at once and every player loses."""
    state["over"] = {"outcome": "all_lost", "rule": rule_id, "detail": detail}
    state["pending"] = []
    state["chance"] = None
