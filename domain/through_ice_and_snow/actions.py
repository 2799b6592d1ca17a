"""The Action phase: action spaces, who may take them with which crew, and their effects (spec section 5)."""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from domain.core.canonical import canonical_json
from domain.core.errors import IllegalMove
from domain.through_ice_and_snow.board import State, event_number, gain, owned, pay, push, score
from domain.through_ice_and_snow.catalogue import CAT, CREW_TYPES, OFFICERS, RESOURCES
from domain.through_ice_and_snow.tracks import raise_food, raise_track

EVENT_SPACE = "event"
CABIN_VP = 5
DISCOVERY_VP = 5
DOCUMENT_VP_PER_TILE = 3
LABORATORY_VP = 7
INTERPRETER_CARD = 17
FREEZING_WIND_SLED_LOSS = 1
MOVE_KEYS = ("type", "space", "lead", "crew")
SHOAL_OF_FISH_FACTOR = 2

Option = tuple[tuple[str, ...] | None, int, int]
ChoiceHook = Callable[[State, int, str, list[dict]], list[dict]]
# The effect of an action space: (state, seat, player, space, command, crew placed). A part's wrapper of an
# effect also takes ``base``, the effect it wraps.
Effect = Callable[[State, int, dict, dict, dict, int], None]
BASE_CHOICES = {"card": "TIS-ACT-30", "upgrade": "TIS-ACT-22", "deposit": "TIS-ACT-41"}


def refuse(code: str, message: str, rule_id: str, field: str | None = None) -> IllegalMove:
    return IllegalMove(code, message, rule_id=rule_id, field=field)


def effective_sled(state: State, player: dict) -> int:
    """Event 4 (Freezing wind) lowers every sled by 1 for the round."""
    return player["sled"] - (FREEZING_WIND_SLED_LOSS if state["freezing_wind"] else 0)


def explore_value(state: State, player: dict) -> int:
    """TIS-ACT-11: the lower of the sled value and the dog value (GAP-6 tables), with the dogs a part counts
    beyond the track (McClintock)."""
    sled = CAT.tracks["sled"]["explore_vp"][str(effective_sled(state, player))]
    extra = sum(dogs(player) for dogs in state["parts"].hooks("explore_dogs"))
    counted = min(CAT.tracks["dogs"]["max"], dog_track(player) + extra)
    dogs = CAT.tracks["dogs"]["explore_vp"][str(counted)]
    return min(sled, dogs)


def dog_track(player: dict) -> int:
    """The dog track's level: the dogs placed, or a track always full (Amundsen, TIS-SOLO-AMU-3)."""
    return player.get("fixed_dogs") or player["dogs"]


def sled_wood(player: dict) -> int:
    """Improve Sled's wood (TIS-ACT-21); Amundsen ignores it (TIS-SOLO-AMU-3)."""
    return 0 if player.get("fixed_dogs") else 1


def box_total(state: State, column: str) -> int:
    return sum(state["warehouses"][column].values())


def final_round(state: State) -> bool:
    """TIS-ACT-5: the fleet is on a blue anchor point."""
    return CAT.anchors[state["anchor"]]["final_round"]


def event_card(state: State) -> dict | None:
    """This round's event card if it is an action card (TIS-ACT-63) still free."""
    if state["event"] is None or state["event_taken"] is not None:
        return None
    card = CAT.events[event_number(state["event"])]
    return card if "crew" in card else None


def space_refusal(state: State, seat: int, space_id: str) -> IllegalMove | None:
    """Why ``seat`` may not take ``space_id`` at all now, whatever crew it offers (the parts' own reasons last);
    None if it may."""
    player = state["players"][seat]
    if space_id == EVENT_SPACE:
        if event_card(state) is None:
            return refuse("no_event_action", "this round's event card is not an action space now", "TIS-ACT-63")
        return None
    absent = _absence(*_game_of(state), space_id)
    if absent is not None:
        return absent
    space = CAT.spaces[space_id]
    if space_id in state["used"] and not space.get("unlimited"):
        return refuse("space_taken", "each action space is used once per round", "TIS-ACT-2", "space")
    if space["position"] == "final" and not final_round(state):
        return refuse("not_final_round", "final-round actions need the fleet on a blue anchor", "TIS-ACT-5", "space")
    action = space["action"]
    if action == "lead" and state["leader"] == seat and player["turns"] == 0:
        return refuse("lead_first_turn", "the leader cannot take Lead on their first turn", "TIS-ACT-10", "space")
    if action == "explore":
        if dog_track(player) < 1:
            return refuse("no_dog", "Explore needs at least 1 dog", "TIS-ACT-11", "space")
        if effective_sled(state, player) < 1:
            return refuse("freezing_wind", "Freezing wind: sled level 0 cannot explore", "TIS-ACT-11", "space")
    if action == "hire_inuk" and (state["supply"]["inuk"] < 1 or player["inuit"] >= CAT.tracks["inuit"]["max"]):
        return refuse("no_inuk", "no Inuk pawn is left to hire", "TIS-ACT-14", "space")
    if action == "build_cabin" and (player["wood"] < 1 or player["cabins"] >= CAT.components["cabins_per_player"]):
        return refuse("cannot_build_cabin", "Build Cabin needs 1 wood and a cabin pawn left", "TIS-ACT-20", "space")
    if action == "improve_sled" and (player["wood"] < sled_wood(player) or player["sled"] >= CAT.tracks["sled"]["max"]):
        return refuse("cannot_improve_sled", "Improve Sled needs 1 wood and a sled below its maximum",
                      "TIS-ACT-21", "space")
    if action == "ship_upgrade" and not upgrade_choices(state, player):
        return refuse("no_upgrade", "no ship upgrade you can afford and do not own is left, or no slot",
                      "TIS-ACT-22", "space")
    if action == "recycle_wood" and player["fuel"] < 1:
        return refuse("no_fuel", "Recycle Ship Wood lowers fuel by 1: fuel must be at least 1", "TIS-ACT-23", "space")
    if action == "discover_species" and not species_choices(state, player):
        return refuse("no_species", "no species card is revealed", "TIS-ACT-30", "space")
    if action == "hunt" and not hunt_choices(state, player):
        return refuse("no_hunt", "no revealed hunting card you own enough rifles for", "TIS-ACT-31", "space")
    if action == "experiment" and player["wood"] < 1:
        return refuse("no_wood", "Experiment costs 1 wood", "TIS-ACT-32", "space")
    if action == "resource_exchange" and not any(owned(player, kind) for kind in RESOURCES):
        return refuse("nothing_to_deposit", "Resource Exchange needs a resource to deposit", "TIS-ACT-41", "space")
    if action == "resource_collection" and box_total(state, space["column"]) < 1:
        return refuse("empty_warehouse", "the warehouse box is empty", "TIS-ACT-42", "space")
    for hook in state["parts"].hooks("refusals"):
        refusal = hook(state, seat, space_id)
        if refusal is not None:
            return refusal
    return None


def _game_of(state: State) -> tuple[int, frozenset[str], str | None]:
    """What decides which spaces a game has at all: its player count, the options it is played with (each
    module by its name) and its scenario."""
    options = state["options"]
    return state["n"], frozenset(name for name, value in options.items() if value), options.get("scenario")


def _absence(players: int, options: frozenset[str], scenario: str | None, space_id: str) -> IllegalMove | None:
    """Why a game of ``players`` with these ``options`` and ``scenario`` has no space ``space_id`` at all."""
    space = CAT.spaces.get(space_id)
    if space is None or players not in space["player_counts"]:
        return refuse("no_such_space", f"no action space {space_id!r} with {players} players", "TIS-SETUP-1",
                      "space")
    module = space.get("module")
    if module and not (module in options or scenario == module):
        return refuse("no_such_space", f"{space_id!r} belongs to the {module} module, not in this game",
                      "TIS-CMD-1", "space")
    if scenario is not None and scenario in space.get("blocked_in", ()):
        rule = {"magnetic_north_pole": "TIS-SOLO-MAG-3", "mysterious_epidemic": "TIS-SOLO-EPI-2"}
        return refuse("space_blocked", f"a tile of this scenario covers {space_id!r}", rule[scenario], "space")
    return None


@lru_cache(maxsize=64)
def spaces_in_play(players: int, options: frozenset[str], scenario: str | None) -> tuple[str, ...]:
    """The spaces such a game has, in the board's order: the same all game long, so listing the moves never
    asks after the others."""
    return tuple(space_id for space_id in CAT.spaces if _absence(players, options, scenario, space_id) is None)


def upgrade_choices(state: State, player: dict) -> list[int]:
    """TIS-ACT-22: tile types not owned, with a copy left, affordable, while a slot is empty."""
    if len(player["upgrades"]) >= player.get("tile_spaces", len(CAT.slots)):
        return []
    return [int(number) for number, left in state["tiles"].items()
            if left and int(number) not in player["upgrades"] and CAT.upgrades[int(number)]["cost"] <= player["wood"]]


def has_fishing_boat(player: dict) -> bool:
    return any(CAT.upgrades[number]["effect"] == "fishing_boat" for number in player["upgrades"])


def hunt_choices(state: State, player: dict) -> list[str]:
    """TIS-ACT-31 / TIS-AMB-25: revealed cards whose prey number the player's rifles reach (rifles are not spent);
    cards marked for the Fishing boat need that upgrade (whale cards, TIS-DUAL-2 dual species)."""
    boat = has_fishing_boat(player)
    rifles = player["rifle"] + rifle_bonus(state, player)
    return [card for card in state["revealed"]["hunting"] if CAT.hunting[card]["prey_number"] <= rifles
            and (boat or not CAT.hunting[card]["needs_fishing_boat"])]


def rifle_bonus(state: State, player: dict) -> int:
    """Rifles a part lets the player count for a prey number beyond those owned (explorer event 47)."""
    return sum(bonus(state, player) for bonus in state["parts"].hooks("rifle_bonus"))


def species_choices(state: State, player: dict) -> list[str]:
    """TIS-ACT-30: the revealed species cards; TIS-DUAL-2: with the Fishing boat, also revealed dual cards."""
    duals = [card for card in state["revealed"]["hunting"] if CAT.hunting[card].get("dual")]
    return state["revealed"]["species"] + (duals if duals and has_fishing_boat(player) else [])


def extras(state: State, seat: int, space_id: str, until: ChoiceHook | None = None) -> list[dict]:
    """The action-specific choices of a space (which card, tile or deposit), as the parts widen or narrow them
    (only the adjustments before ``until`` when given)."""
    choices = base_extras(state, seat, space_id)
    for hook in state["parts"].hooks("choices"):
        if hook is until:
            break
        choices = hook(state, seat, space_id, choices)
    return choices


def base_extras(state: State, seat: int, space_id: str) -> list[dict]:
    """The base game's action-specific choices of a space."""
    player = state["players"][seat]
    action = EVENT_SPACE if space_id == EVENT_SPACE else CAT.spaces[space_id]["action"]
    if action == "discover_species":
        return [{"card": card} for card in sorted(set(species_choices(state, player)))]
    if action == "hunt":
        return [{"card": card} for card in sorted(set(hunt_choices(state, player)))]
    if action == "ship_upgrade":
        return [{"upgrade": number} for number in upgrade_choices(state, player)]
    if action == "resource_exchange":
        return [{"deposit": kind} for kind in RESOURCES if owned(player, kind)]
    return [{}]


def requirements(state: State, seat: int, space_id: str, extra: dict) -> list[Option]:
    """Crew options (lead slot types, crew min, crew max) for a space with its choices made.

    TIS-AMB-3: two-space actions give each space its own requirement (action_board.json); parts may adjust
    them (e.g. a creature's extra crew), each hook paired with the rule that makes the change.
    """
    options = space_requirements(state, seat, space_id, extra)
    if space_id == EVENT_SPACE:  # an action card's requirement is the card's own
        return options
    for hook, _ in state["parts"].hooks("requirements"):
        options = hook(state, seat, space_id, options)
    return options


def space_requirements(state: State, seat: int, space_id: str, extra: dict) -> list[Option]:
    """The requirement of the space itself (and of a kept event that adds a way to take it), before the parts'."""
    if space_id == EVENT_SPACE:
        card = event_card(state)
        if card is None:  # no action card is free this round: its space has no requirement to meet
            return []
        return [(tuple(card["lead"]) if card.get("lead") else None, card["crew"], card.get("crew_max", card["crew"]))]
    space = CAT.spaces[space_id]
    options: list[Option] = []
    for option in space["options"]:
        lead = tuple(option["lead"]) if option["lead"] else None
        low = option["crew"]
        high = option.get("crew_max", low)
        if space["action"] == "hunt":
            low = high = CAT.hunting[extra["card"]]["prey_number"] - 1
        if space["action"] == "resource_collection":
            high = min(high, box_total(state, space["column"]) - 1)
        options.append((lead, low, high))
    player = state["players"][seat]
    if space["action"] == "visit_inuit" and any(event_number(card) == INTERPRETER_CARD
                                                for card in player["kept_events"]):
        options.append((("inuk",), 1, 1))
    return options


def substitute(player: dict, role: str) -> int | None:
    """TIS-ACT-61: an owned upgrade 1/4/5 for ``role`` not yet used this round (once per round, TIS-AMB-7)."""
    for number in player["upgrades"]:
        tile = CAT.upgrades[number]
        if tile["effect"] == "substitute" and tile.get("role") == role and number not in player["subst_used"]:
            return number
    return None


def lead_types(state: State, player: dict, lead: tuple[str, ...]) -> list[str]:
    """Pawn types that may fill a named slot: the named ones (TIS-ACT-60) or any with a substitute (TIS-ACT-61),
    or when a part lets any pawn fill it now (Ross as an Inuk)."""
    substituted = (lead[0] in OFFICERS and substitute(player, lead[0])) \
        or any(allows(player, lead) for allows, _ in state["parts"].hooks("lead_substitutes"))
    allowed = CREW_TYPES if substituted else lead
    return [kind for kind in allowed if player["free"][kind]]


def groups(pool: dict, low: int, high: int) -> list[dict]:
    """Every multiset of crew from ``pool`` with a size in [low, high] (TIS-ACT-62: officers may fill crew slots)."""
    counts = tuple((kind, pool[kind]) for kind in CREW_TYPES if pool[kind])
    return [dict(group) for group in _groups(counts, low, high)]


@lru_cache(maxsize=4096)
def _groups(counts: tuple[tuple[str, int], ...], low: int, high: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """:func:`groups` over a pool given as (kind, count) pairs, remembered: listing the moves asks for the same
    few pools and sizes at every space of every turn."""
    result: list[tuple[tuple[str, int], ...]] = []

    def walk(index: int, chosen: tuple[tuple[str, int], ...], size: int) -> None:
        if index == len(counts):
            if size >= low:
                result.append(chosen)
            return
        kind, available = counts[index]
        for count in range(min(available, high - size) + 1):
            walk(index + 1, (*chosen, (kind, count)) if count else chosen, size + count)

    walk(0, (), 0)
    return tuple(result)


def placements(state: State, player: dict, options: list[Option]) -> list[tuple[str | None, dict]]:
    """Every (lead, crew) the player may place for one of the options."""
    found: list[tuple[str | None, dict]] = []
    for lead, low, high in options:
        if lead is None:
            found.extend((None, crew) for crew in groups(player["free"], low, high))
            continue
        for kind in lead_types(state, player, lead):
            pool = dict(player["free"])
            pool[kind] -= 1
            found.extend((kind, crew) for crew in groups(pool, low, high))
    return found


def space_moves(state: State, seat: int, space_id: str) -> list[dict]:
    """The moves of one space, as the parts narrow or extend them (given a way to recompute the base moves)."""
    moves = base_space_moves(state, seat, space_id)
    for hook in state["parts"].hooks("move_filters"):
        moves = hook(state, seat, space_id, moves, base_space_moves)
    return moves


def base_space_moves(state: State, seat: int, space_id: str) -> list[dict]:
    if space_refusal(state, seat, space_id) is not None:
        return []
    player = state["players"][seat]
    moves: dict[tuple, dict] = {}
    for extra in extras(state, seat, space_id):
        choice = repr(sorted(extra.items()))
        for lead, crew in placements(state, player, requirements(state, seat, space_id, extra)):
            # Two crew options may offer the same placement: each move once.
            moves.setdefault((choice, lead, tuple(crew.items())),
                             {"type": "take_action", "space": space_id, "lead": lead, "crew": crew, **extra})
    return list(moves.values())


def action_moves(state: State, seat: int) -> list[dict]:
    """TIS-ACT-1..4: every action the seat may take now, then passing (TIS-AMB-4), as the parts narrow the turn
    (after Kellett's look, that action)."""
    moves: list[dict] = []
    for space_id in [*spaces_in_play(*_game_of(state)), EVENT_SPACE]:
        moves.extend(space_moves(state, seat, space_id))
    moves.append({"type": "pass"})
    for hook in state["parts"].hooks("turn_filters"):
        moves = hook(state, seat, moves)
    return moves


def check_crew(state: State, player: dict, options: list[Option], lead, crew) -> None:
    """TIS-ACT-3 / TIS-ACT-6: the placed crew must be free (not sick, not already placed) and meet an option."""
    if not isinstance(crew, dict) or any(kind not in CREW_TYPES for kind in crew) or any(
            type(count) is not int or count < 1 for count in crew.values()):
        raise refuse("invalid_crew", "crew maps crew types to positive counts", "TIS-CMD-13", "crew")
    if lead is not None and lead not in CREW_TYPES:
        raise refuse("invalid_lead", f"lead must be one of {list(CREW_TYPES)} or null", "TIS-CMD-13", "lead")
    for need_lead, low, high in options:
        if (need_lead is None) != (lead is None):
            continue
        pool = dict(player["free"])
        if lead is not None and need_lead is not None:  # both or neither, by the check above
            if lead not in lead_types(state, player, need_lead):
                continue
            pool[lead] -= 1
        if all(crew[kind] <= pool[kind] for kind in crew) and low <= sum(crew.values()) <= high:
            return
    raise refuse("requirement_not_met", "that crew does not meet the space's requirement with free crew "
                 "(crew in the sick bay or already placed cannot be used, TIS-ACT-6)", "TIS-ACT-3", "crew")


def check_action(state: State, seat: int, command: dict) -> None:
    """The base game's checks, without the parts' own move fields (e.g. a creature payment), then the parts'."""
    game = state["parts"]
    fields = game.hooks("move_fields")
    base_check(state, seat, {key: value for key, value in command.items() if key not in fields})
    for hook in game.hooks("action_checks"):
        hook(state, seat, command)


def base_check(state: State, seat: int, command: dict) -> None:
    space_id = command.get("space")
    if not isinstance(space_id, str):
        raise refuse("invalid_field", "'space' must be an action space id", "TIS-CMD-13", "space")
    refusal = space_refusal(state, seat, space_id)
    if refusal:
        raise refusal
    choices = extras(state, seat, space_id)
    if not choices:
        raise refuse("no_choice", "no choice of this space can be paid for now", "TIS-SURV-3", "space")
    keys = set(choices[0])
    fields = {"type", "space", "lead", "crew", *keys}
    if set(command) != fields:
        unknown = sorted(set(command) - fields)
        listed = f"take_action on {space_id} has the fields type, space, lead, crew" + "".join(
            f", {key}" for key in sorted(keys))
        if unknown:
            raise refuse("unknown_field", f"'{unknown[0]}' is not a field here: {listed}", "TIS-CMD-13", unknown[0])
        raise refuse("invalid_fields", listed, "TIS-CMD-13")
    extra = {key: command[key] for key in keys}
    if canonical_json(extra) not in {canonical_json(choice) for choice in choices}:
        rule, key = choice_fault(state, space_id, extra, choices)
        raise refuse("invalid_choice", f"{key}={command[key]!r} is not available here now", rule, key)
    player = state["players"][seat]
    try:
        check_crew(state, player, requirements(state, seat, space_id, extra), command["lead"], command["crew"])
    except IllegalMove as refusal:
        raise adjusted_refusal(state, seat, space_id, extra, command) or refusal from None


def adjusted_refusal(state: State, seat: int, space_id: str, extra: dict, command: dict) -> IllegalMove | None:
    """A crew that meets the space's own requirement but not a part's added one (Sedna's extra crew) is refused
    with the rule that adds it: a refusal names the rule that forbids the move."""
    player = state["players"][seat]
    options = space_requirements(state, seat, space_id, extra)
    if space_id == EVENT_SPACE:
        return None
    for hook, rule_id in state["parts"].hooks("requirements"):
        adjusted = hook(state, seat, space_id, options)
        if meets(state, player, options, command) and not meets(state, player, adjusted, command):
            return refuse("requirement_not_met", "that crew meets the space's own requirement but not the one "
                          f"{rule_id} adds", rule_id, "crew")
        options = adjusted
    return None


def meets(state: State, player: dict, options: list[Option], command: dict) -> bool:
    try:
        check_crew(state, player, options, command["lead"], command["crew"])
    except IllegalMove:
        return False
    return True


def offered(command: dict, moves: list[dict]) -> bool:
    """Whether the command is one of the moves, compared as JSON (``True`` is not ``1``)."""
    key = canonical_json(command)
    return any(canonical_json(move) == key for move in moves)


def choice_fault(state: State, space_id: str, extra: dict, choices: list[dict]) -> tuple[str, str]:
    """The rule and field to blame for a choice not offered: the base choice if no offered choice has it,
    else the part's own field (e.g. a Survival deposit the player cannot make)."""
    base_part = {key: value for key, value in extra.items() if key in BASE_CHOICES}
    offered = [{key: value for key, value in choice.items() if key in BASE_CHOICES} for choice in choices]
    if base_part not in offered or len(base_part) == len(extra):
        key = next(iter(base_part))
        rule = "TIS-ACT-31" if key == "card" and CAT.spaces[space_id]["action"] == "hunt" else BASE_CHOICES[key]
        return rule, key
    key = next(key for key in sorted(extra) if key not in BASE_CHOICES)
    return state["parts"].table("module_choices")[key], key


def acquire_species(state: State, player: dict, card: str) -> None:
    """TIS-ACT-30 / TIS-AMB-23: the first acquirer of a species (any copy) discovers it for 5 VP."""
    player["species"].append(card)
    name = CAT.species[card]["species"]
    if name not in state["discovered"]:
        state["discovered"].append(name)
        score(player, DISCOVERY_VP)


def space_choice(state: State, command: dict) -> dict:
    """The action-specific choice a take_action made (its card, tile, deposit ...), without the parts' own move
    fields."""
    fields = state["parts"].hooks("move_fields")
    return {key: value for key, value in command.items() if key not in MOVE_KEYS and key not in fields}


def place_crew(state: State, seat: int, command: dict) -> int:
    """Put the crew on the space; a lead of a type no option names uses the substitute tile (TIS-ACT-61)."""
    player = state["players"][seat]
    lead = command["lead"]
    if lead is not None:
        player["free"][lead] -= 1
        extra = space_choice(state, command)
        named = {kind for option_lead, _, _ in requirements(state, seat, command["space"], extra)
                 for kind in option_lead or ()}
        if lead not in named:
            role = next((kind for kind in OFFICERS if kind in named), None)
            tile = substitute(player, role) if role else None
            player["subst_used"].append(tile if tile is not None else next(
                mark for allows, mark in state["parts"].hooks("lead_substitutes")
                if allows(player, tuple(sorted(named)))))
    for kind, count in command["crew"].items():
        player["free"][kind] -= count
    return (1 if lead is not None else 0) + sum(command["crew"].values())


def take_action(state: State, seat: int, command: dict) -> None:
    """Apply a checked take_action: place crew, pay, apply the effect (TIS-ACT-3). The parts' hooks run first
    with the cards they set aside taken (Kellett's), then before the effect (their payments), and after it."""
    player = state["players"][seat]
    space_id = command["space"]
    placed = place_crew(state, seat, command)
    player["turns"] += 1
    game = state["parts"]
    for hook in (*game.hooks("cards_taken"), *game.hooks("before_effect")):
        hook(state, seat, command)
    if space_id == EVENT_SPACE:
        state["event_taken"] = seat
        event_action(state, seat, command)
        return
    placed -= sum(hook(state, seat, command) for hook in game.hooks("uncounted_crew"))
    state["used"][space_id] = seat
    space = CAT.spaces[space_id]
    game.table("effects")[space["action"]](state, seat, player, space, command, placed)
    for hook in game.hooks("after_effect"):
        hook(state, seat, command)


def event_action(state: State, seat: int, command: dict) -> None:
    """TIS-ACT-63: only the taker is affected. Inuk cards (9, 17) pay out at the end of the Action phase. Some
    cards give per crew member (or pawn) placed (explorer events 45 and 52)."""
    player = state["players"][seat]
    card = CAT.events[event_number(state["event"])]
    crew = sum(command["crew"].values())
    pawns = crew + (command["lead"] is not None)
    gains = dict(card.get("gain", {}))
    for key, amount in card.get("per_crew", {}).items():
        gains[key] = gains.get(key, 0) + amount * crew
    for key, amount in card.get("per_pawn", {}).items():
        gains[key] = gains.get(key, 0) + amount * pawns
    grant(state, player, gains)
    if card["effect"] == "animal_tracks" and state["event_species"]:
        acquire_species(state, player, state["event_species"])
        state["event_species"] = None
    own = state["parts"].table("event_actions")  # a part's event cards, after their data-driven gains
    if card["effect"] in own:
        own[card["effect"]](state, seat)


def _lead(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    state["lead_taker"] = seat


def _explore(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    score(player, explore_value(state, player))
    raise_track(player, "morale", 2)
    player["explores"] += 1


def _visit_inuit(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-12: a dog to the lowest empty space (none if the track is full, ASSUMED), then fuel +2."""
    gain(state, player, "dog", 1)
    raise_track(player, "fuel", 2)


def _hire_inuk(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-TRK-INUIT-1: the track rises now; the pawn joins at Boarding."""
    state["supply"]["inuk"] -= 1
    player["inuit"] += 1
    player["hired"] += 1


def _build_cabin(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-20 / TIS-AMB-24: every anchor has a cabin square; the food lowered is chosen next."""
    pay(state, player, "wood")
    player["cabins"] += 1
    state["cabins_on"].append([state["anchor"], state["seats"][seat]])
    score(player, CABIN_VP)
    if player["food"]:
        push(state, seat, "cabin_food")


def _improve_sled(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-21 / TIS-TRK-SLED-1: the sled level feeds Explore's value."""
    if sled_wood(player):
        pay(state, player, "wood", sled_wood(player))
    player["sled"] += 1


def _ship_upgrade(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-22: leftmost empty slot (or the one a module lets the player choose), then that slot's bonus
    (GAP-7)."""
    number = command["upgrade"]
    pay(state, player, "wood", CAT.upgrades[number]["cost"])
    score(player, CAT.upgrades[number].get("vp", 0))  # tiles 10 and 11
    state["tiles"][str(number)] -= 1
    bonus = CAT.slots[command.get("slot", len(player["upgrades"]) + 1) - 1]
    player["upgrades"].append(number)
    if bonus.get("morale"):
        raise_track(player, "morale", bonus["morale"])
    if bonus.get("wood"):
        gain(state, player, "wood", bonus["wood"])


def _recycle_wood(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    player["fuel"] -= 1
    gain(state, player, "wood", placed)


def _discover_species(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    state["revealed"]["species"].remove(command["card"])
    acquire_species(state, player, command["card"])


def _hunt(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    card = CAT.hunting[command["card"]]
    state["revealed"]["hunting"].remove(command["card"])
    state["discards"]["hunting"].append(command["card"])
    raise_food(player, card["food"])
    raise_track(player, "health", card["health"])


def _experiment(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    pay(state, player, "wood")
    raise_track(player, "fuel", 2)
    gain(state, player, "dynamite", 1)


def _exchange(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-40 / TIS-ACT-41: the deposit stays in that column's warehouse box (TIS-TRK-5 exception) and is
    never cleared between rounds (TIS-AMB-15); the warehouse's own resource comes from the supply."""
    kind = command["deposit"]
    if kind == "dog":
        player["dogs"] -= 1
    else:
        player[kind] -= 1
    box = state["warehouses"][space["column"]]
    box[kind] = box.get(kind, 0) + 1
    gain(state, player, CAT.warehouses[space["column"]], 1)


def _collect(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-42: one resource from the box per crew placed, chosen one at a time."""
    push(state, seat, "collect", column=space["column"], left=placed)


def _ice_fishing(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-43: food + crew placed; the space is unlimited (action_board.json). Event 26: twice. Modules may
    apply it more times (TIS-SHEL-5)."""
    times = (SHOAL_OF_FISH_FACTOR if state["shoal_of_fish"] else 1) + sum(
        bonus(state, seat) for bonus in state["parts"].hooks("fishing_bonus"))
    raise_food(player, placed * times)


def _trace_map(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-50: 1 VP per cartography token on the map."""
    score(player, len(state["mapped"]))


def _document(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-51: 3 VP per ship upgrade tile."""
    score(player, DOCUMENT_VP_PER_TILE * len(player["upgrades"]))


def _laboratory(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-52."""
    score(player, LABORATORY_VP)


def _vow(state: State, seat: int, player: dict, space: dict, command: dict, placed: int) -> None:
    """TIS-ACT-53: 1 VP per owned resource of the space's type; nothing is paid."""
    score(player, owned(player, CAT.vow_resources[space["id"]]))


# The effects of the base game's action spaces, by action; a match's are the ``effects`` table of its
# composition, with its parts' spaces and wrappers.
EFFECTS = {
    "lead": _lead, "explore": _explore, "visit_inuit": _visit_inuit, "hire_inuk": _hire_inuk,
    "build_cabin": _build_cabin, "improve_sled": _improve_sled, "ship_upgrade": _ship_upgrade,
    "recycle_wood": _recycle_wood, "discover_species": _discover_species, "hunt": _hunt,
    "experiment": _experiment, "resource_exchange": _exchange, "resource_collection": _collect,
    "ice_fishing": _ice_fishing, "trace_map": _trace_map, "document_construction": _document,
    "laboratory_research": _laboratory, "vow_of_silence": _vow,
}


def grant(state: State, player: dict, gains: dict[str, int]) -> None:
    """Give a card's rewards, each the way its kind is gained: points, the food track, a track, or a supply."""
    for key, amount in gains.items():
        if key == "vp":
            score(player, amount)
        elif key == "food":
            raise_food(player, amount)
        elif key in ("health", "morale", "fuel"):
            raise_track(player, key, amount)
        else:
            gain(state, player, key, amount)
