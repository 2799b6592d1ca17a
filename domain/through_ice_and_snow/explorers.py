"""Legendary Expeditions, the explorers (spec 2.6, TIS-LEG-2 / TIS-LEG-6): the ability of each explorer card A-J,
for the player who kept it. Dealing and keeping is legendary.py's; the numbers are in legendary.json.

Played when the option ``legendary_expeditions`` lists ``"explorers"``.
"""
from __future__ import annotations

from domain.core import IllegalMove
from domain.core.parts import RulePart
from domain.through_ice_and_snow import actions, flow, legendary, voyage
from domain.through_ice_and_snow.board import State, push, score
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.decisions import Decision
from domain.through_ice_and_snow.tracks import raise_track

EXPLORERS = legendary.EXPLORERS
ROSS_MARK = "ross"


def ability(player: dict) -> dict | None:
    """The kept explorer card, once kept."""
    return EXPLORERS.get(player.get("explorer") or "")


def has(player: dict, name: str) -> dict | None:
    card = ability(player)
    return card if card is not None and card["ability"] == name else None


def add_state(state: State) -> None:
    state["explorers"] = {"belcher_uses": {}, "belcher_voyage": None, "mcclure_round": 0, "kellett": None}


# ---------------------------------------------------------------- A Franklin, B Parry, E McClintock, G Collinson


def franklin_bands(player: dict) -> list | None:
    """A Franklin: in the Voyage step, fuel bands 7-10 morale +1, 3-6 nothing, 0-2 discard."""
    card = has(player, "franklin")
    return card["fuel_bands"] if card else None


def parry_cabin(player: dict, amount: int) -> int | None:
    """B Parry / TV-2: the first 8 food lowered in Build Cabin give 1 VP each, the rest 1 per 2."""
    card = has(player, "parry")
    if card is None:
        return None
    full = card["cabin_full_vp"]
    return min(amount, full) + max(0, amount - full) // 2


def mcclintock_dogs(player: dict) -> int:
    """E McClintock / TV-3: one more dog counted for Explore's value."""
    card = has(player, "mcclintock")
    return card["extra_dogs"] if card else 0


def collinson_mapping(player: dict) -> int | None:
    """G Collinson: charting a region gives 3 VP instead of 1."""
    card = has(player, "collinson")
    return card["mapping_vp"] if card else None


def chart_moves(state: State, seat: int) -> list[dict]:
    """G Collinson / TIS-CMD-21: at any decision of his in a round, fuel -1 for a cartography token on an unmapped
    region holding an anchor a route leaves for from the current anchor (fuel and a token needed, ASSUMED)."""
    player = state["players"][seat]
    card = has(player, "collinson")
    if card is None or player["fuel"] < card["chart_fuel"] or state["supply"]["cartography"] < 1 \
            or state["over"] is not None:
        return []
    regions = {CAT.anchors[anchor]["region"] for anchor in voyage.destinations(state)} - set(state["mapped"])
    return [{"type": "collinson_chart", "region": region} for region in sorted(regions)]


def charted(state: State, seat: int, data: dict) -> None:
    player = state["players"][seat]
    card = has(player, "collinson")
    player["fuel"] -= card["chart_fuel"]
    state["supply"]["cartography"] -= 1
    state["mapped"][data["region"]] = state["seats"][seat]
    score(player, card["chart_vp"])


# ---------------------------------------------------------------- C Ross, I Back, J Amundsen


def ross_allows(player: dict, lead: tuple[str, ...]) -> bool:
    """C Ross: once per round any crew member may act as an Inuk for an action."""
    return has(player, "ross") is not None and "inuk" in lead and ROSS_MARK not in player["subst_used"]


def back_slots(state: State, seat: int, space_id: str, choices: list[dict]) -> list[dict]:
    """I Back: a tile built with Ship Upgrade goes in any empty slot (field ``slot``, 1-4), with that slot's
    bonus."""
    player = state["players"][seat]
    if space_id == actions.EVENT_SPACE or CAT.spaces[space_id]["action"] != "ship_upgrade" \
            or has(player, "back") is None:
        return choices
    return [{**choice, "slot": slot} for choice in choices for slot in empty_slots(player)]


def empty_slots(player: dict) -> list[int]:
    filled = player.get("filled_slots", list(range(1, len(player["upgrades"]) + 1)))
    return [slot for slot in range(1, len(CAT.slots) + 1) if slot not in filled]


def back_built(state: State, seat: int, command: dict) -> None:
    player = state["players"][seat]
    if "slot" in command:
        player["filled_slots"] = [*player.get("filled_slots", range(1, len(player["upgrades"]))), command["slot"]]


def kept(state: State, seat: int, data: dict) -> None:
    """J Amundsen: the dog track always full to 7; his dogs go back to the supply and none is ever placed."""
    player = state["players"][seat]
    if data["kind"] == "explorer" and has(player, "amundsen"):
        state["supply"]["dog"] += player["dogs"]
        player.update(dogs=0, fixed_dogs=has(player, "amundsen")["dog_track"])


# ---------------------------------------------------------------- F McClure, H Belcher


def meal(state: State, base: flow.Step) -> bool:
    """F McClure / TIS-CMD-20: in each Boarding phase, before the Meal (ASSUMED), food -3 for morale +1, as many
    times as he likes."""
    explorers = state["explorers"]
    if explorers["mcclure_round"] != state["round"]:
        explorers["mcclure_round"] = state["round"]
        for seat, player in enumerate(state["players"]):
            card = has(player, "mcclure")
            if card and player["food"] >= card["food"]:
                push(state, seat, "mcclure")
                return True
    return base(state)


def mcclure_moves(state: State, entry: dict) -> list[dict]:
    player = state["players"][entry["seat"]]
    return [{"type": "mcclure_trade", "times": times}
            for times in range(player["food"] // has(player, "mcclure")["food"] + 1)]


def mcclure_traded(state: State, entry: dict, command: dict) -> None:
    player = state["players"][entry["seat"]]
    card = has(player, "mcclure")
    player["food"] -= card["food"] * command["times"]
    raise_track(player, "morale", card["morale"] * command["times"])


def belcher_offer(state: State, entry: dict, command: dict) -> None:
    """H Belcher: twice per game, not leading, after the leader's destination, he may make the leader choose
    another route (TIS-CMD-8)."""
    explorers = state["explorers"]
    if entry["kind"] != "destination" or "choices" in entry or state["final_voyage"]:
        return
    others = [anchor for anchor in voyage.destinations(state) if anchor != command["anchor"]]
    for seat, player in enumerate(state["players"]):
        card = has(player, "belcher")
        if card and seat != state["leader"] and others \
                and explorers["belcher_uses"].get(str(seat), 0) < card["uses"]:
            state["pending"].insert(1, {"seat": seat, "kind": "belcher", "anchor": command["anchor"]})
            return


def belcher_moves(state: State, entry: dict) -> list[dict]:
    return [{"type": "belcher_override", "use": True}, {"type": "belcher_override", "use": False}]


def belcher_answered(state: State, entry: dict, command: dict) -> None:
    """Overriding: the leader chooses again among the other routes (a section the first choice needed is not
    placed), and Belcher chooses this round's voyage type."""
    if not command["use"]:
        return
    explorers = state["explorers"]
    key = str(entry["seat"])
    explorers["belcher_uses"][key] = explorers["belcher_uses"].get(key, 0) + 1
    explorers["belcher_voyage"] = entry["seat"]
    state["pending"] = [other for other in state["pending"] if other["kind"] != "map_side"]
    others = [anchor for anchor in voyage.destinations(state) if anchor != entry["anchor"]]
    state.update(destination=None, route_extra=False)
    state["pending"].insert(1, {"seat": state["leader"], "kind": "destination", "choices": others})


def voyage_type(state: State, base: flow.Step) -> bool:
    """H Belcher chooses the voyage type in the round he overrode the route."""
    explorers = state["explorers"]
    if explorers["belcher_voyage"] is None or state["final_voyage"]:
        return base(state)
    push(state, explorers["belcher_voyage"], "voyage_type")
    explorers["belcher_voyage"] = None
    state["step"] = "fuel"
    return True


# ---------------------------------------------------------------- D Kellett

KELLETT_SPACES = {"species": "discover_species", "hunting": "hunt"}


def peek_moves(state: State, seat: int) -> list[dict]:
    """D Kellett: on his Action-phase turn, before a Discover Species or a Hunt he could take, he may look at the
    top card of that deck (a draw he alone sees) and then take that action with it or another card."""
    explorers = state["explorers"]
    if has(state["players"][seat], "kellett") is None or state["step"] != "action" \
            or state["turn"] != seat or state["pending"] or explorers["kellett"] is not None:
        return []
    return [{"type": "kellett_peek", "deck": deck} for deck, action in KELLETT_SPACES.items()
            if state["decks"][deck] and any(actions.space_moves(state, seat, space_id)
                                            for space_id in spaces_of(action))]


def spaces_of(action: str) -> list[str]:
    return [space_id for space_id, space in CAT.spaces.items() if space["action"] == action]


def peeked(state: State, seat: int, data: dict) -> None:
    state["explorers"]["kellett"] = {"seat": seat, "deck": data["deck"]}
    state["chance"] = {"key": "kellett_peek", "deck": data["deck"], "count": 1, "seat": seat}


def top_seen(state: State, node: dict, outcome: list[str]) -> None:
    """The card looked at stays on top of its deck (ASSUMED, spec 12.2), known to Kellett alone (``known_top``
    is in no view but his ``seen_on_top``)."""
    state["decks"][node["deck"]].append(outcome[0])
    state["known_top"][node["deck"]] = outcome[0]


def peek_choices(state: State, seat: int, space_id: str, choices: list[dict]) -> list[dict]:
    """The card looked at is one more choice of the action (a Hunt needs the rifles for it)."""
    peek = state["explorers"]["kellett"]
    if not peek or peek["seat"] != seat or space_id == actions.EVENT_SPACE \
            or CAT.spaces[space_id]["action"] != KELLETT_SPACES[peek["deck"]]:
        return choices
    card = state["known_top"].get(peek["deck"])
    player = state["players"][seat]
    if card is None:
        return choices
    if peek["deck"] == "hunting" and (CAT.hunting[card]["prey_number"] > player["rifle"] + actions.rifle_bonus(
            state, player) or (
            CAT.hunting[card]["needs_fishing_boat"] and not actions.has_fishing_boat(player))):
        return choices
    return [*choices, {"card": card}]


def peek_turn(state: State, seat: int, moves: list[dict]) -> list[dict]:
    """After looking, the turn is that action."""
    peek = state["explorers"]["kellett"]
    if not peek or peek["seat"] != seat:
        return moves
    return [move for move in moves if move["type"] == "take_action" and move["space"] != actions.EVENT_SPACE
            and CAT.spaces[move["space"]]["action"] == KELLETT_SPACES[peek["deck"]]]


def peek_check(state: State, seat: int, command: dict) -> None:
    peek = state["explorers"]["kellett"]
    if peek and peek["seat"] == seat and (command["space"] == actions.EVENT_SPACE or CAT.spaces[
            command["space"]]["action"] != KELLETT_SPACES[peek["deck"]]):
        raise IllegalMove("must_act", "after looking at the top card, take that action", rule_id="TIS-LEG-6",
                          field="space")


def take_top(state: State, seat: int, command: dict) -> None:
    """Taking the card looked at takes it off the top of its deck; it is then revealed like any card taken."""
    explorers = state["explorers"]
    peek = explorers["kellett"]
    if not peek or peek["seat"] != seat:
        return
    explorers["kellett"] = None
    card = state["known_top"][peek["deck"]]
    if command.get("card") == card:
        state["decks"][peek["deck"]].remove(card)
        del state["known_top"][peek["deck"]]
        state["revealed"][peek["deck"]].append(card)


def known_cards(state: State) -> dict[int, set[str]]:
    """The card on top a Kellett player has seen is his secret while it stays in the deck."""
    result: dict[int, set[str]] = {}
    for seat, player in enumerate(state["players"]):
        if has(player, "kellett"):
            result[seat] = set(state["known_top"].values())
    return result


PART = RulePart(
    "explorers",
    hooks={"new_state": (add_state,), "public_keys": ("explorers",), "secret_cards": (known_cards,),
           "card_kept": (kept,), "fuel_bands": (franklin_bands,), "cabin_vp": (parry_cabin,),
           "explore_dogs": (mcclintock_dogs,), "mapping_vp": (collinson_mapping,),
           "lead_substitutes": ((ross_allows, ROSS_MARK),), "choices": (peek_choices, back_slots),
           "cards_taken": (take_top,), "after_effect": (back_built,), "turn_filters": (peek_turn,),
           "action_checks": (peek_check,), "answered": (belcher_offer,)},
    entries={"extra_moves": {"collinson_chart": chart_moves, "kellett_peek": peek_moves},
             "chance_handlers": {"kellett_peek": top_seen}, "module_choices": {"slot": "TIS-LEG-6"},
             "decisions": {"mcclure": Decision("mcclure_trade", "TIS-CMD-20", mcclure_moves, mcclure_traded),
                           "belcher": Decision("belcher_override", "TIS-CMD-8", belcher_moves, belcher_answered)}},
    wraps={"steps": {"meal": meal, "voyage_type": voyage_type}},
)
