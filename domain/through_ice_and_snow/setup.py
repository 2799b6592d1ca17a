"""The state right after ``game_created``, and the setup steps that deal the cards and wait for the choices.

A new state is made here alone: the table before any card is dealt, with what the match's parts add to it. The
setup steps then run inside ``flow.advance`` like every step of the order of play: the parts' setup draws, the
extra event cards, the investor and cartography deals (chance draws, each seen by its seat only), the secret
choices, and the reveal that gives the start bonuses and the helm.
"""
from __future__ import annotations

from domain.core.parts import Composition
from domain.through_ice_and_snow.board import State, gain, join_inuit
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.tracks import raise_food

# The steps before the setup cards are revealed: the view hides the kept cards and no move outside setup is open.
SETUP_STEPS = ("module_setup", "extra_events", "deal", "choose")
# A setup command -> (the player's key of the card kept, the key of the cards dealt, the rule).
SETUP_CHOICES = {"choose_investor": ("investor", "investor_dealt", "TIS-SETUP-16"),
                 "choose_cartography": ("carto", "carto_dealt", "TIS-SETUP-16")}


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


def module_setup(state: State) -> bool:
    """The parts' own setup draws (e.g. TIS-DUAL-1), before the base game's: each returns True while it still
    needs a chance draw or a decision it has just set up."""
    if not any(draw(state) for draw in state["parts"].hooks("setup_draws")):
        state["step"] = "extra_events"
    return True


def extra_events(state: State) -> bool:
    """TIS-SETUP-7 with extra cards 25-28 (spec 2.3): one card of the deck goes back to the box, unseen by every
    seat, for each extra card added to it."""
    for deck, numbers in state["extras_todo"].items():
        if numbers:
            state["chance"] = {"key": "extra_removal", "deck": deck, "count": len(numbers), "hidden": True}
            return True
    state["step"] = "deal"
    return True


def deal(state: State) -> bool:
    """TIS-SETUP-16: 2 investor cards, then 2 cartography cards, to each player (secret draws)."""
    index = state["deal_index"]
    n = state["n"]
    if not state["deal_investors"]:
        state["step"] = "choose"
        return True
    if index >= 2 * n:
        state["step"] = "choose"
        return True
    kind = "investor" if index < n else "cartography"
    state["chance"] = {"key": f"deal_{kind}", "deck": kind, "count": CAT.components["dealt"][kind],
                       "seat": index % n}
    return True


def choose(state: State) -> bool:
    """TIS-SETUP-16: everyone keeps one of each, in secret, at the same time (with the modules' own cards)."""
    if state["deal_investors"] and any(player["investor"] is None or player["carto"] is None
                                       for player in state["players"]):
        return False
    if any(owed(state, seat) for seat in range(state["n"])):
        return False
    state["step"] = "reveal"
    return True


def owed(state: State, seat: int) -> list[dict]:
    """The setup choice moves a seat still owes the parts (none when done)."""
    return [move for hook in state["parts"].hooks("setup_choices") for move in hook(state, seat)]


def reveal(state: State) -> bool:
    """TIS-SETUP-17 start bonuses, then TIS-SETUP-18 the helm to the most dynamite (a tie is a chance draw)."""
    for player in state["players"]:
        bonus = CAT.investors[player["investor"]]["bonus"] if player["investor"] else {}
        for key, amount in bonus.items():
            if key == "food":
                raise_food(player, amount)
            elif key == "inuk":
                join_inuit(state, player, amount)
            else:
                gain(state, player, key, amount)
    most = max(player["dynamite"] for player in state["players"])
    tied = [seat for seat, player in enumerate(state["players"]) if player["dynamite"] == most]
    state["step"] = "round_start"
    if len(tied) == 1:
        state["helm"] = tied[0]
    else:
        state["chance"] = {"key": "helm_tie", "seats": tied, "count": 1}
    return True
