"""Through Ice and Snow behind Cairn's game interface: the base game for 2-4 players with the optional base-box
components, the modules (Survival, Shelter Building, Dual Animal Species, Walking on Ice, Inuit Myths, Legendary
Expeditions) and the single-player scenarios, each a game option."""
from __future__ import annotations

from domain.core import ORGANISER, ChanceNode, IllegalMove, Rules, full_data, make_event
from domain.core.commands import extra_field, unknown_move, unoffered_field
from domain.through_ice_and_snow import actions, decisions, explorers, flow, legendary, parts, scoring, solo, walking
from domain.through_ice_and_snow.board import State, drawable, event_number
from domain.through_ice_and_snow.catalogue import CAT
from domain.through_ice_and_snow.setup import SETUP_CHOICES, SETUP_STEPS, new_state, owed

# TIS-CMD-1: the game options, one per module, scenario and variant; seats and seat order come from the game's
# creation. The options choose the rule parts of the match (parts.py).
# Legendary Expeditions card types (TIS-LEG-1).
LEGENDARY_TYPES = ("explorers", "ships", "explorer_events")
# The single-player scenario of a 1-player game that names none (option ``scenario``).
SOLO_DEFAULT = "lost_expedition"
MODULE_OPTIONS = {
    "survival": "Survival module (TIS-SURV)",
    "shelter_building": "Shelter Building module (TIS-SHEL)",
    "dual_species": "Dual Animal Species module (TIS-DUAL)",
    "inuit_myths": "Inuit Myths (TIS-MYTH, Myths & Legends)",
    "walking_on_ice": "Walking on Ice (TIS-WALK, Myths & Legends)",
}
CHOICE_EVENTS = {
    "choose_destination": "destination_chosen",
    "place_map_section": "map_section_placed",
    "choose_voyage_type": "voyage_type_chosen",
    "inuk_guide_map": "inuk_guide_answered",
    "choose_discard": "resource_discarded",
    "choose_sick_crew": "crew_sent_to_sick_bay",
    "resolve_food_shortage": "species_discarded_for_food",
    "lower_food_for_cabin": "food_lowered_for_cabin",
    "collect_resource": "resource_collected",
    "use_boiler": "boiler_answered",
    "mast_choose": "mast_card_kept",
    "damaged_compass_redirect": "compass_answered",
    "choose_start_anchor": "start_anchor_chosen",
    "choose_free_upgrade": "free_upgrade_chosen",
    "activate_treatment": "treatment_answered",
    "mcclure_trade": "mcclure_traded",
    "belcher_override": "belcher_answered",
    "abandon_ship": "abandon_answered",
    "choose_cargo": "cargo_chosen",
    "return_upgrade": "upgrade_returned",
}
# The optional components of the base box (spec 2.3, 2.5, GAP-10) and the translator's variant.
BASE_BOX_OPTIONS = {
    "extra_events": {"type": "array", "items": {"enum": [25, 26, 27, 28]}, "uniqueItems": True, "default": [],
                     "description": "extra event cards added to their decks (TIS-SETUP-7)"},
    "all_upgrades": {"type": "boolean", "default": False, "description": "ship upgrades 7-11 (TIS-SETUP-4)"},
    "whale_hunting": {"type": "boolean", "default": False,
                      "description": "whale hunting cards, with the Fishing boat in the supply (TIS-SETUP-6)"},
    "variant_coastal_extra_species": {"type": "boolean", "default": False,
                                      "description": "translator's variant: 1 more species card after a coastal "
                                                     "voyage (TIS-VOY-5)"},
}
DECISION_EVENTS = set(CHOICE_EVENTS.values())
# The modules' commands and events are the game's whatever its options: /docs lists them, and a command of a
# module a match is not played with is refused by the rule that would open it.
# Commands open at any decision point (outside setup), next to the moves asked of the seat: command -> (the event
# it becomes, the rule opening it); the match's parts offer them (the ``extra_moves`` table).
EXTRA_COMMANDS = {"collinson_chart": ("region_charted", "TIS-CMD-21"),
                  "kellett_peek": ("top_card_looked_at", "TIS-LEG-6"),
                  "discard_food_can": ("food_cans_eaten", "TIS-CMD-19"),
                  "let_sailor_die": ("sailor_let_die", "TIS-CMD-22")}
# A module's setup command -> the event it decides (refused when no card of the kind is dealt).
SETUP_COMMANDS = {legendary.COMMAND: legendary.choose}
# The modules' events -> their effect.
EVENTS = {"legendary_card_chosen": legendary.chosen, "region_charted": explorers.charted,
          "top_card_looked_at": explorers.peeked, "food_cans_eaten": walking.cans_eaten,
          "sailor_let_die": walking.sailor_died}


def command_types() -> set[str]:
    """Every command type the game takes (spec 12.1). TIS-CMD-26 ``choose_tie_option`` is not among them: no
    tie is left for it to decide (docs/games/through-ice-and-snow.md)."""
    return {"take_action", "pass", *SETUP_CHOICES, *CHOICE_EVENTS, *SETUP_COMMANDS, *EXTRA_COMMANDS}


# What each command of command_types() does and the fields it takes (the rule in brackets): GET /docs shows it.
MOVE_DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "choose_investor": ("Setup, every seat once: keep one of your two dealt investors (TIS-SETUP-16).",
                        {"card": "one of your dealt investor ids"}),
    "choose_cartography": ("Setup, every seat once: keep one of your two dealt cartography cards (TIS-SETUP-16).",
                           {"card": "one of your dealt cartography ids (K1..K10)"}),
    "choose_legendary_card": ("Legendary Expeditions setup: choose your legendary card of a kind (TIS-LEG).",
                              {"kind": "the kind of card", "card": "the card chosen"}),
    "take_action": ("Action phase, your turn: place crew on an action space; some spaces take more fields.",
                    {"space": "the action space", "lead": "the leading crew type", "crew": "crew types to counts",
                     "card": "the card some spaces take", "upgrade": "the upgrade some spaces take",
                     "deposit": "what some spaces deposit",
                     "survival_deposit": "Survival: the resource deposited in the column's warehouse",
                     "creature_payment": "Inuit Myths: how a creature is paid"}),
    "pass": ("Action phase, your turn: pass, for the rest of the round (TIS-AMB-4).", {}),
    "choose_destination": ("The leader, Destination step: choose the next anchor (TIS-VOY-2).",
                           {"anchor": "a reachable anchor id"}),
    "place_map_section": ("The leader, after choosing a boundary anchor: place the map section (TIS-CMD-7).",
                          {"section": "the section", "side": "A or B"}),
    "choose_voyage_type": ("The leader, Voyage step: coastal or open sea (TIS-VOY-5).",
                           {"voyage": "coastal or open_sea"}),
    "inuk_guide_map": ("The leader holding event card 9, on an open-sea voyage to an unmapped region (TIS-CMD-11).",
                       {"map": "true or false"}),
    "choose_discard": ("A seat owing a discard: which resource (TIS-CMD-15).",
                       {"resource": "dynamite, wood, rifle or dog"}),
    "choose_sick_crew": ("A seat hit by Scurvy: which crew go to the sick bay (TIS-TRK-HEALTH-1).",
                         {"crew": "crew types to counts, totalling 2 (fewer if fewer are free)"}),
    "resolve_food_shortage": ("A seat short of food: a species card given up for food (TIS-TRK-FOOD-3).",
                              {"card": "a species card you hold"}),
    "lower_food_for_cabin": ("Right after Build Cabin: how much food goes to the cabin (TIS-ACT-20).",
                             {"amount": "0 to your food"}),
    "collect_resource": ("Right after Resource Collection, once per crew placed (TIS-ACT-42).",
                         {"resource": "a kind in the warehouse box"}),
    "use_boiler": ("Owner of upgrade 8 with wood, before a fuel loss of the Voyage step (TIS-AMB-7).",
                   {"use": "true or false"}),
    "mast_choose": ("The leader owning upgrade 9, after the voyage type: keep one of two event cards (TIS-CMD-10).",
                    {"card": "one of the two event cards seen"}),
    "damaged_compass_redirect": ("The player left of the leader, when event 25 is revealed (TIS-CMD-12).",
                                 {"anchor": "an anchor reachable from the previous anchor, or null to decline"}),
    "choose_start_anchor": ("Magnetic North Pole: choose the starting anchor (TIS-CMD-24).",
                            {"anchor": "one of the start anchors"}),
    "choose_free_upgrade": ("Epidemic: choose the free upgrade (TIS-CMD-25).", {"upgrade": "the upgrade number"}),
    "activate_treatment": ("Epidemic: activate a treatment card, or decline with card null (TIS-CMD-23).",
                           {"card": "the treatment card, or null", "requirement": "which of its requirements",
                            "crew": "crew types to counts cured", "species": "the species cards paid"}),
    "mcclure_trade": ("Explorers, McClure: how many times to trade (TIS-CMD-20).", {"times": "how many"}),
    "belcher_override": ("Explorers, Belcher: use the override or not (TIS-CMD-8).", {"use": "true or false"}),
    "collinson_chart": ("Explorers, Collinson, at any decision point: chart a region (TIS-CMD-21).",
                        {"region": "the region charted"}),
    "kellett_peek": ("Explorers, Kellett, at any decision point: look at the top card of a deck (TIS-LEG-6).",
                     {"deck": "the deck looked at"}),
    "abandon_ship": ("Walking on Ice: abandon the ship or not (TIS-CMD-5).", {"abandon": "true or false"}),
    "choose_cargo": ("Walking on Ice: which cargo to keep within the limit (TIS-CMD-18).",
                     {"keep": "the cargo kept"}),
    "return_upgrade": ("Walking on Ice: return an upgrade tile (TIS-WALK-6).", {"upgrade": "an upgrade you own"}),
    "discard_food_can": ("Walking on Ice, at any decision point: eat food cans (TIS-CMD-19).",
                         {"count": "how many cans"}),
    "let_sailor_die": ("Walking on Ice, at any decision point: let a sailor die (TIS-CMD-22).", {}),
}


class ThroughIceAndSnow(Rules):
    name = "through-ice-and-snow"
    title = "Through Ice and Snow"
    rules_version = "1"
    player_counts = (1, 2, 3, 4)
    options_schema = {
        "type": "object",
        "properties": {**BASE_BOX_OPTIONS,
                       **{key: {"type": "boolean", "default": False, "description": label}
                          for key, label in MODULE_OPTIONS.items()},
                       "legendary_expeditions": {
                           "type": "array", "items": {"enum": list(LEGENDARY_TYPES)}, "uniqueItems": True,
                           "default": [], "description": "Legendary Expeditions card types used (TIS-LEG-1)"},
                       "scenario": {"enum": [None, *solo.SCENARIOS], "default": None,
                                    "description": "single-player scenario (spec 8.7-8.10); 1 player only, "
                                                   "Lost Expedition when a 1-player game names none"}},
        "additionalProperties": False,
    }

    def data_versions(self) -> dict[str, str]:
        return dict(CAT.versions)

    def validate_options(self, options: dict, seat_count: int) -> dict:
        """TIS-CMD-1: a 1-player game is a single-player scenario (Lost Expedition unless named), and a scenario
        is for 1 player."""
        if seat_count == 1 and "scenario" not in options:
            options = {**options, "scenario": SOLO_DEFAULT}
        filled = super().validate_options(options, seat_count)
        name = filled["scenario"]
        if (name is None) != (seat_count > 1):
            raise IllegalMove("invalid_option", "a single-player scenario is played by exactly 1 player, and 1 "
                              "player plays a scenario", rule_id="TIS-CMD-1", field="options.scenario")
        if name == "amundsens_voyage" and filled["legendary_expeditions"]:
            raise IllegalMove("invalid_option", "Amundsen's Voyage sets its own Legendary cards (Amundsen, the Gjøa, "
                              "events 53 and 55)", rule_id="TIS-SOLO-AMU-3", field="options.legendary_expeditions")
        if name is not None and filled["walking_on_ice"]:
            raise IllegalMove("invalid_option", "Walking on Ice is played without a single-player scenario",
                              rule_id="TIS-WALK-1", field="options.walking_on_ice")
        return filled

    def setup(self, created: dict) -> State:
        seats = [seat["seat"] for seat in created["seats"]]
        options = created["options"]
        return flow.advance(new_state(seats, options, parts.for_options(options)))

    # ------------------------------------------------------------------ apply
    def event_types(self) -> frozenset[str]:
        return frozenset({"investor_chosen", "cartography_chosen", "action_taken", "passed",
                          *DECISION_EVENTS, *EVENTS})

    def apply(self, state: State, event: dict) -> State:
        kind = event["type"]
        data = full_data(event)
        seat = state["seats"].index(event["seat"]) if event.get("seat") in state["seats"] else None
        if kind == "chance_resolved":
            self._chance(state, data["outcome"])
        elif kind == "investor_chosen":
            state["players"][seat]["investor"] = data["card"]
        elif kind == "cartography_chosen":
            state["players"][seat]["carto"] = data["card"]
        elif kind == "action_taken":
            actions.take_action(state, seat, data)
            flow.next_turn(state)
        elif kind == "passed":
            state["players"][seat]["passed"] = True
            flow.next_turn(state)
        elif kind in DECISION_EVENTS:
            decisions.resolve(state, data)
        elif kind in EVENTS:
            EVENTS[kind](state, seat, data)
        return flow.advance(state)

    def _chance(self, state: State, outcome: list[str]) -> None:
        """The drawn cards leave their deck; the base game's draws, then those of the match's parts."""
        node = state["chance"]
        state["chance"] = None
        key = node["key"]
        if key == "helm_tie":
            state["helm"] = state["seats"].index(outcome[0])
            return
        deck = state["decks"][node["deck"]]
        top = state["known_top"].pop(node["deck"], None)
        if top is not None and node["count"] > 1:
            outcome = [top, *outcome]
        for card in outcome:
            deck.remove(card)
        handlers = state["parts"].table("chance_handlers")
        if key in handlers:
            handlers[key](state, node, outcome)
        elif key == "extra_removal":
            state["removed_events"].extend(outcome)
            deck.extend(f"ev{number:02d}" for number in state["extras_todo"][node["deck"]])
            state["extras_todo"][node["deck"]] = []
        elif key == "mast":
            state["peek"] = list(outcome)
            state["pending"].append({"seat": node["seat"], "kind": "mast"})
        elif key in ("deal_investor", "deal_cartography"):
            dealt = "investor_dealt" if key == "deal_investor" else "carto_dealt"
            state["players"][node["seat"]][dealt] = list(outcome)
            state["deal_index"] += 1
        elif key == "event":
            state["event"] = outcome[0]
            if outcome[0] in state["bottom"][node["deck"]]:
                state["bottom"][node["deck"]].remove(outcome[0])
        elif key == "event_species":
            state["event_species"] = outcome[0]
        elif key == "hunting_setup":
            state["revealed"]["hunting"] = list(outcome)
        else:
            state["revealed"]["species"] = list(outcome)

    # ------------------------------------------------------------------ decide
    def chance_node(self, state: State) -> ChanceNode | None:
        node = state["chance"]
        if node is None:
            return None
        if node["key"] == "helm_tie":
            return ChanceNode("helm_tie", tuple(state["seats"][seat] for seat in node["seats"]), 1,
                              label="TIS-SETUP-18: the tied player who takes the helm")
        seat = node.get("seat")
        deck = node["deck"]
        # a part's deck whose drawable cards are not simply every card left (the compass deck's bottom 5)
        own = state["parts"].table("candidates")
        candidates = drawable(state, deck) if deck in ("coastal", "open_sea") and node["key"] != "extra_removal" \
            else own[deck](state) if deck in own else state["decks"][deck]
        visible_to = () if node.get("hidden") else None if seat is None else (state["seats"][seat],)
        count = node["count"]
        top = state["known_top"].get(deck)
        if top is not None:
            # a card known to be on top (Kellett, TIS-LEG-6) comes first: the draw is that card and count - 1 more
            candidates = [top] if count == 1 else [card for card in candidates if card != top]
            count = max(1, count - 1)
        return ChanceNode(node["key"], tuple(candidates), count, visible_to=visible_to,
                          label=f"draw from the {node['deck']} deck", details={"deck": node["deck"]})

    def to_act(self, state: State) -> list[str]:
        if state["over"] is not None or state["chance"] is not None:
            return []
        if state["pending"]:
            return [state["seats"][state["pending"][0]["seat"]]]
        if state["step"] == "choose":
            return [state["seats"][index] for index in range(state["n"]) if self._setup_moves(state, index)]
        if state["step"] == "action":
            return [state["seats"][state["turn"]]]
        return []

    def move_types(self) -> list[dict]:
        """Every type of :func:`command_types`, described by :data:`MOVE_DOCS`."""
        return [{"type": kind, "description": MOVE_DOCS[kind][0], "fields": MOVE_DOCS[kind][1]}
                for kind in sorted(command_types(), key=list(MOVE_DOCS).index)]

    def legal_moves(self, state: State, seat: str) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        index = state["seats"].index(seat)
        extra = [move for moves in state["parts"].table("extra_moves").values() for move in moves(state, index)] \
            if state["step"] not in SETUP_STEPS else []
        if state["pending"]:
            return [*decisions.moves(state, state["pending"][0]), *extra]
        if state["step"] == "choose":
            return self._setup_moves(state, index)
        return [*actions.action_moves(state, index), *extra]

    @staticmethod
    def _setup_moves(state: State, index: int) -> list[dict]:
        """The setup cards a seat still has to keep: investor and cartography, then the modules' own."""
        player = state["players"][index]
        return [*({"type": command, "card": card} for command, (chosen, dealt, _) in SETUP_CHOICES.items()
                  if player[chosen] is None for card in player[dealt]), *owed(state, index)]

    def decide(self, state: State, seat: str, command: dict) -> list[dict]:
        index = state["seats"].index(seat)
        kind = command.get("type")
        if kind not in command_types():
            raise unknown_move(command, command_types())
        if kind in EXTRA_COMMANDS and state["step"] not in SETUP_STEPS:
            event, rule_id = EXTRA_COMMANDS[kind]
            moves = state["parts"].table("extra_moves").get(kind)
            offers = moves(state, index) if moves else []
            if not actions.offered(command, offers):
                raise unoffered_field(command, offers, rule_id) or IllegalMove(
                    "not_allowed_now", f"{kind} is not open to you now, or not with those fields",
                    rule_id=rule_id, field="type")
            return [make_event(event, {key: value for key, value in command.items() if key != "type"})]
        if state["pending"]:
            decisions.check(state, state["pending"][0], command)
            return [make_event(CHOICE_EVENTS[kind], {key: value for key, value in command.items() if key != "type"})]
        if state["step"] == "choose":
            if kind in SETUP_COMMANDS:
                return [SETUP_COMMANDS[kind](state, index, command)]
            return [self._setup_choice(state, index, command)]
        if kind == "pass":
            extra = extra_field(command, {"type"}, "TIS-CMD-14")
            if extra:
                raise extra
            if not actions.offered(command, actions.action_moves(state, index)):
                raise IllegalMove("must_act", "this turn must end with the action begun", rule_id="TIS-LEG-6")
            return [make_event("passed")]
        if kind == "take_action":
            actions.check_action(state, index, command)
            return [make_event("action_taken", {key: value for key, value in command.items() if key != "type"})]
        raise unknown_move(command, {"take_action", "pass"})

    def _setup_choice(self, state: State, index: int, command: dict) -> dict:
        """TIS-SETUP-16 / TIS-CMD-2 / TIS-CMD-3: keep one dealt card, face down until the reveal."""
        kind = command.get("type")
        if kind not in SETUP_CHOICES:
            raise unknown_move(command, set(SETUP_CHOICES))
        chosen, dealt, rule_id = SETUP_CHOICES[kind]
        player = state["players"][index]
        if player[chosen] is not None:
            raise IllegalMove("already_chosen", "you already kept a card of that kind", rule_id=rule_id)
        extra = extra_field(command, {"type", "card"}, rule_id)
        if extra:
            raise extra
        card = command.get("card")
        if not isinstance(card, str) or card not in player[dealt]:
            raise IllegalMove("not_dealt", "keep one of the cards dealt to you", rule_id=rule_id, field="card")
        event = "investor_chosen" if kind == "choose_investor" else "cartography_chosen"
        return make_event(event, {}, secret={"card": card}, secret_to=[state["seats"][index]])

    # ------------------------------------------------------------------ read
    def view(self, state: State, reader: str | None) -> dict:
        everything = reader == ORGANISER
        revealed = state["step"] not in SETUP_STEPS
        game = state["parts"]
        dealt_cards = game.hooks("dealt_cards")
        players = []
        for seat, player in zip(state["seats"], state["players"], strict=True):
            own = everything or reader == seat
            hidden = {"investor", "investor_dealt", "carto", "carto_dealt"}
            hidden.update(key for pair in dealt_cards for key in pair)
            shown = {key: value for key, value in player.items() if key not in hidden}
            shown["seat"] = seat
            for chosen, dealt in dealt_cards:
                if dealt in player:
                    shown[chosen] = player[chosen] if own or revealed else None
                    shown[dealt] = player[dealt] if own else len(player[dealt])
            shown["investor"] = player["investor"] if own or revealed else None
            shown["investor_dealt"] = player["investor_dealt"] if own else len(player["investor_dealt"])
            shown["carto"] = player["carto"] if own else None
            shown["carto_dealt"] = player["carto_dealt"] if own else len(player["carto_dealt"])
            players.append(shown)
        seats = state["seats"]
        return {
            "round": state["round"], "phase": flow.phase(state), "step": state["step"],
            "final_voyage": state["final_voyage"],
            "helm": None if state["helm"] is None else seats[state["helm"]],
            "leader": None if state["leader"] is None else seats[state["leader"]],
            "turn": None if state["turn"] is None else seats[state["turn"]],
            "anchor": state["anchor"], "destination": state["destination"], "sections": state["sections"],
            "dynamite_on": state["dynamite_on"], "mapped": state["mapped"], "cabins_on": state["cabins_on"],
            "revealed": state["revealed"], "event": state["event"], "event_card": self._event_card(state),
            "event_taken": None if state["event_taken"] is None else seats[state["event_taken"]],
            "event_species": state["event_species"], "discovered": state["discovered"],
            "warehouses": state["warehouses"], "used": {space: seats[who] for space, who in state["used"].items()},
            "deck_sizes": {name: len(deck) for name, deck in state["decks"].items()},
            "discards": state["discards"], "supply": state["supply"], "tiles": state["tiles"],
            "pending": [{**entry, "seat": seats[entry["seat"]]} for entry in state["pending"]],
            "over": state["over"], "players": players,
            "bottom_of_decks": {deck: len(cards) for deck, cards in state["bottom"].items()},
            "shoal_of_fish": state["shoal_of_fish"], "freezing_wind": state["freezing_wind"],
            "known_events": sorted(self._known_events(state, seats.index(reader))) if reader in seats else [],
            "seen_on_top": sorted(card for hook in game.hooks("secret_cards")
                                  for card in hook(state).get(seats.index(reader), ())) if reader in seats else [],
            "removed_events": state["removed_events"] if everything else len(state["removed_events"]),
            **{key: state[key] for key in game.hooks("public_keys") if key in state},
        }

    @staticmethod
    def _event_card(state: State) -> dict | None:
        if state["event"] is None:
            return None
        card = CAT.events[event_number(state["event"])]
        return {"number": card["number"], "name": card["name"], "action_crew": card.get("crew")}

    def secrets(self, state: State) -> dict[str, set[str]]:
        revealed = state["step"] not in SETUP_STEPS
        game = state["parts"]
        dealt_cards = game.hooks("dealt_cards")
        result = {}
        for index, (seat, player) in enumerate(zip(state["seats"], state["players"], strict=True)):
            tokens = set(player["carto_dealt"]) | set(player["investor_dealt"]) | self._known_events(state, index)
            for chosen, dealt in dealt_cards:
                tokens.update(player.get(dealt, ()))
                if revealed:
                    tokens.discard(player.get(chosen))
            if revealed:
                tokens.discard(player["investor"])
            for hook in game.hooks("secret_cards"):
                tokens |= hook(state).get(index, set())
            result[seat] = tokens
        if revealed:
            # a kept Legendary card is public once revealed, even where another seat also knows where it lies
            public = {player.get(chosen) for player in state["players"] for chosen, _ in dealt_cards}
            result = {seat: tokens - public for seat, tokens in result.items()}
        return result

    @staticmethod
    def _known_events(state: State, seat: int) -> set[str]:
        """Event cards only this seat has seen (Mast upgrade): the pair it is choosing from, then the card it put
        on the bottom of a deck."""
        known = set(state["peek"]) if state["peek"] and state["leader"] == seat else set()
        in_decks = set(state["decks"]["coastal"]) | set(state["decks"]["open_sea"])
        known.update(card for card, seen_by in state["peeked"].items() if seen_by == [seat] and card in in_decks)
        return known

    def state_to_json(self, state: State) -> dict:
        """The state without its composition, which its options choose again (:meth:`state_from_json`)."""
        return {key: value for key, value in state.items() if key != "parts"}

    def state_from_json(self, value: dict) -> State:
        return {**value, "parts": parts.for_options(value["options"])}

    def is_over(self, state: State) -> bool:
        return state["over"] is not None

    def final_score(self, state: State) -> dict:
        return scoring.score_sheet(state)


RULES = ThroughIceAndSnow()
