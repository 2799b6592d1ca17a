"""I C E Expedition behind the Cairn game interface (spec ``rules/ice-expedition.md``)."""
from __future__ import annotations

import pickle
from functools import cached_property

from domain.core import ORGANISER, ChanceNode, IllegalMove, Rules, full_data, make_event
from domain.core.canonical import canonical_json
from domain.ice_expedition import chances, data, explain, scoring
from domain.ice_expedition.decisions import resolve_wait, wait_moves
from domain.ice_expedition.flow import Flow
from domain.ice_expedition.geometry import Geometry, slot_key
from domain.ice_expedition.move_types import MOVES
from domain.ice_expedition.turn import apply_turn_move, front_effect, turn_moves

# Each command (spec 10.1, ICE-CMD-n) and the event that records it; ICE-CMD-14 (use_artifact_effect)
# is refused in decide, ICE-CMD-16 covers every pending decision.
EVENT_OF = {
    "choose_guild": "guild_chosen",  # ICE-CMD-1
    "keep_request": "request_kept",  # ICE-CMD-2
    "move": "leader_moved",  # ICE-CMD-3
    "excavate": "tile_excavated",  # ICE-CMD-4
    "set_up_camp": "camp_set_up",  # ICE-CMD-5
    "recruit": "explorer_recruited",  # ICE-CMD-6
    "check_registry": "registry_checked",  # ICE-CMD-7
    "overwork": "overworked",  # ICE-CMD-8
    "plan": "plan_taken",  # ICE-CMD-9
    "resend": "resent",  # ICE-CMD-10
    "send_to_city": "artifact_sent",  # ICE-CMD-11
    "stop_sending": "sending_stopped",  # ICE-CMD-11
    "play_snow_tile": "snow_tile_played",  # ICE-CMD-12
    "use_guild_ability": "guild_ability_used",  # ICE-CMD-13
    "discard_snow_tile": "snow_tile_discarded",  # ICE-CMD-15
    "end_turn": "turn_ended",  # ICE-CMD-17
    "end_day": "day_ended",  # ICE-CMD-18
    "keep_tile": "tile_kept",  # ICE-CMD-16
    "relocate": "explorers_relocated",  # ICE-CMD-16
    "choose_tile": "tile_chosen",  # ICE-CMD-16
    "place_snowflake": "snowflake_placed",  # ICE-CMD-16
    "place_explorers": "explorers_placed",  # ICE-CMD-16
    "place_leader": "leader_placed",  # ICE-CMD-16
    "move_camp": "camp_moved",  # ICE-CMD-16
}
COMMAND_OF = {event: command for command, event in EVENT_OF.items()}

INFO_KEYS = ("cost", "front", "effect")
# A tile in a view: its kind, and of the rest only what is there (no camp, no Smilodon: left out).
TILE_KEYS = ("kind", "terrain", "rift", "face", "camp", "arch", "smilodon")

# Options: every alternative reading the spec offers (AMB-4, AMB-2, AMB-3, AMB-13, AMB-22, AMB-24)
# and its variants (First Steps, guild choice, logbook order), defaults from the data files.
OPTION_CHOICES = {
    "first_steps": {"type": "boolean"},
    "guild_allocation": {"enum": ["random", "choice"]},
    "excavate_base_cost": {"enum": [3, 4]},
    "excavate_cap_stage": {"enum": ["gross", "net"]},
    "leader_counts_for_cost": {"type": "boolean"},
    "camp_and_nunatak_stack": {"type": "boolean"},
    "overwork_max_per_turn": {"enum": [1, 2]},
    "hand_discard_incoming": {"type": "boolean"},
    "rune_targets": {"enum": ["not_fully_covered", "uncovered"]},
    "shape_combinations": {"enum": ["disjoint", "pairs"]},
    "allow_voluntary_end_day": {"type": "boolean"},
    "logbook_order": {"enum": ["fixed", "shuffled"]},
}


class IceExpedition(Rules):
    name = "ice-expedition"
    title = "I C E Expedition"
    rules_version = "2"
    player_counts = (2, 3, 4, 5)
    declared_moves = MOVES

    def __init__(self) -> None:
        self.data = data.load()
        self.geo = Geometry(self.data.board)
        defaults = {**self.data.params, "logbook_order": self.data.cards["logbook_order"]}
        self.options_schema = {
            "type": "object",
            "properties": {key: {**spec, "default": defaults[key]} for key, spec in OPTION_CHOICES.items()},
            "additionalProperties": False,
        }

    def data_versions(self) -> dict[str, str]:
        return dict(self.data.versions)

    @cached_property
    def blank_tiles(self) -> dict[str, dict]:
        """Every slot's tile before setup draws anything, built once: each game starts from a copy (a fresh
        ``known_by`` list per tile; the other values are immutable)."""
        tiles = {}
        for z, slots in self.geo.layers.items():
            for slot in slots:
                kind = self.geo.layer_kind[z]
                tiles[slot_key(slot)] = {
                    "kind": kind, "id": None if kind == "snow" else f"{kind[0].upper()}@{slot_key(slot)}",
                    "terrain": None, "rift": None, "face": None, "front": None, "known_by": [],
                    "camp": False, "arch": 0, "smilodon": None,
                }
        return tiles

    # ----- state -------------------------------------------------------------------------------

    def setup(self, created: dict) -> dict:
        """ICE-SETUP-1..9: the empty board, reserves and decks; everything random waits as chance nodes."""
        params = {key: value for key, value in self.data.params.items() if not key.startswith("_")}
        params["logbook_order"] = self.data.cards["logbook_order"]
        params.update(created["options"])
        seats = [seat["seat"] for seat in created["seats"]]
        tiles = {key: {**tile, "known_by": []} for key, tile in self.blank_tiles.items()}
        tile_data = self.data.tiles
        state = {
            "params": params, "seats": seats, "phase": "setup", "tiles": tiles,
            "leaders": {seat: None for seat in seats},  # ICE-SETUP-5: leaders start off the board
            "reserve": {"archaeologists": params["archaeologists"], "camps": params["camps"],
                        "smilodons": params["smilodon_pawns"]},  # ICE-SETUP-9
            # ICE-SETUP-3 / ICE-RND-4: snowflakes look alike until dug, so the pool order is drawn as fronts.
            "snowflakes": [f"SNF-{n:02d}" for n in range(1, tile_data["snowflake_count"] + 1)],
            "fronts_left": sorted(self.data.fronts),
            "artifacts_left": {layer: sorted(a["id"] for a in items)
                               for layer, items in tile_data["artifacts_by_layer"].items()},
            "buildings_left": list(tile_data["buildings"]),
            "bag": [], "in_play": {},
            "requests": {"deck": sorted(self.data.requests), "discard": [], "public": []},
            "decrees": [],
            "logbook": {"deck": [card["id"] for card in self.data.cards["logbook"]], "revealed": []},
            "players": {seat: {"guild": None, "rp": 0, "ep": 0, "hand": [], "requests": [], "drawn": [],
                               "artifacts": [], "city": [], "plans": 0, "plans_today": 0, "carried_ep": 0,
                               "day_over": False, "resend": False, "sent": 0, "token": None,
                               "alchemy_used": False, "alchemy_drawn": []} for seat in seats},
            "day": 0, "first": seats[0], "active": None, "turn": None, "dig": None,
            "chance": [], "script": [], "end_triggered": False,
        }
        flow = Flow(self, state)
        state["script"] = flow.setup_script()
        flow.advance()
        if not state["script"] and not state["chance"]:
            state["phase"] = "play"
        return state

    def event_types(self) -> frozenset[str]:
        return frozenset(COMMAND_OF)

    def apply(self, state: dict, event: dict) -> dict:
        flow = Flow(self, state)
        if event["type"] == "chance_resolved":
            chances.resolve(flow, full_data(event)["outcome"])
        else:
            seat = event["seat"]
            move = {"type": COMMAND_OF[event["type"]], **full_data(event)}
            for key in INFO_KEYS:
                move.pop(key, None)
            step = state["script"][0] if state["script"] else None
            if step is not None and step["do"] == "wait" and step["seat"] == seat:
                resolve_wait(flow, step, move)
            else:
                apply_turn_move(flow, seat, move)
        flow.advance()
        if state["phase"] == "setup" and state["turn"] is not None:
            state["phase"] = "play"
        return state

    # ----- whose move ----------------------------------------------------------------------------

    def chance_node(self, state: dict) -> ChanceNode | None:
        if not state["chance"]:
            return None
        return chances.node_for(Flow(self, state), state["chance"][0])

    def _waiting(self, state: dict) -> dict | None:
        step = state["script"][0] if state["script"] else None
        return step if step is not None and step["do"] == "wait" else None

    def to_act(self, state: dict) -> list[str]:
        if state["chance"] or state["phase"] == "over":
            return []
        step = self._waiting(state)
        if step is not None:
            return [step["seat"]]
        return [state["active"]] if state["active"] and not state["script"] else []

    def legal_moves(self, state: dict, seat: str) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        flow = Flow(self, state)
        step = self._waiting(state)
        return wait_moves(flow, step) if step is not None else turn_moves(flow, seat)

    def decide(self, state: dict, seat: str, command: dict) -> list[dict]:
        if command["type"] == "use_artifact_effect":
            raise IllegalMove("no_artifact_effect", "no artifact effect is unlocked: the effect table is empty "
                              "until its data is supplied (GAP-13)", rule_id="ICE-ACT-12", field="type")
        moves = self.legal_moves(state, seat)
        offered = {canonical_json(m) for m in moves}
        if canonical_json(command) not in offered:
            raise explain.refusal(Flow(self, state), seat, command, self._waiting(state), moves)
        return [self._event(state, seat, command)]

    def _event(self, state: dict, seat: str, command: dict) -> dict:
        flow = Flow(self, state)
        values = {k: v for k, v in command.items() if k != "type"}
        kind = command["type"]
        if kind == "keep_request":
            return make_event(EVENT_OF[kind], {}, secret=values, secret_to=[seat])
        if kind == "play_snow_tile" or kind == "excavate" and command["tile"]:
            held = next(t for t in flow.player(seat)["hand"] if t["id"] == command["tile"])
            values.update(front=held["front"], effect=front_effect(flow, held))
        if kind == "excavate" and not command["tile"]:
            from domain.ice_expedition.dig import dig_cost

            values["cost"] = dig_cost(flow, state["leaders"][command["leader"]], command["cryo"])
        return make_event(EVENT_OF[kind], values)

    # ----- what each reader sees ----------------------------------------------------------------

    def view(self, state: dict, reader: str | None) -> dict:
        everything = reader == ORGANISER
        shown_keys = TILE_KEYS + ("front",) if everything else TILE_KEYS
        tiles = {
            key: {k: tile[k] for k in shown_keys if tile[k] or k == "kind"} for key, tile in state["tiles"].items()
        }
        players = {}
        for seat, player in state["players"].items():
            own = everything or reader == seat
            shown = {key: player[key] for key in ("guild", "rp", "ep", "artifacts", "plans", "plans_today",
                                                    "carried_ep", "day_over", "resend", "sent", "token")}
            shown["hand_count"] = len(player["hand"])
            shown["request_count"] = len(player["requests"])
            shown["city_count"] = len(player["city"])
            if own:
                shown["hand"] = [{"id": t["id"], "terrain": t["terrain"], "front": t["front"],
                                  "effect": front_effect(Flow(self, state), t)} for t in player["hand"]]
                shown["requests"] = [self.data.requests[c] for c in player["requests"]]
                shown["drawn_requests"] = [self.data.requests[c] for c in player["drawn"]]
                shown["city"] = list(player["city"])
                shown["alchemy_drawn"] = list(player["alchemy_drawn"])
            players[seat] = shown
        step = self._waiting(state)
        waiting = None
        if step is not None:
            waiting = {"kind": step["kind"], "seat": step["seat"]}
            if step["kind"] in ("relocate", "log_prismatic", "log_smilodon"):
                waiting.update({k: step[k] for k in ("slot", "tiles", "left") if k in step})
        return {
            "phase": state["phase"], "day": state["day"], "first_player": state["first"],
            "active": state["active"], "turn": state["turn"], "tiles": tiles, "leaders": state["leaders"],
            "reserve": state["reserve"], "snowflake_pool": len(state["snowflakes"]), "bag_count": len(state["bag"]),
            "decrees": state["decrees"], "logbook_revealed": state["logbook"]["revealed"],
            "request_deck": len(state["requests"]["deck"]), "request_discard": state["requests"]["discard"],
            "players": players, "waiting": waiting, "dig": state["dig"], "end_triggered": state["end_triggered"],
        }

    def secrets(self, state: dict) -> dict[str, set[str]]:
        """Snow tile fronts only their holder knows, and request cards never shown to anyone else."""
        public = set(state["requests"]["public"])
        found: dict[str, set[str]] = {}
        for seat, player in state["players"].items():
            tokens = {t["front"] for t in player["hand"] if t["front"] and t["known_by"] == [seat]}
            tokens |= {c for c in player["requests"] + player["drawn"] if c not in public}
            found[seat] = tokens
        return found

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def final_score(self, state: dict) -> dict:
        return scoring_sheet(self.data, state)

    def copy_state(self, state: dict) -> dict:
        """Pickle round trip: the state is plain JSON data, and this is the fastest faithful copy."""
        return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))


DECREE_RULES = {"D-A1": "ICE-DEC-1", "D-PR": "ICE-DEC-2", "D-A2": "ICE-DEC-3", "D-REQ": "ICE-DEC-4",
                "D-TYP": "ICE-DEC-5", "D-DIST": "ICE-DEC-6", "D-SH2": "ICE-DEC-7", "D-SH3": "ICE-DEC-8"}


def scoring_sheet(game_data, state: dict) -> dict:
    """ICE-END-4: RP held + requests (ICE-REQ) + decrees (ICE-DEC); ICE-END-5: ties share the victory."""
    arts = game_data.artifacts
    decrees = [game_data.decrees[d] for d in state["decrees"]]
    per_request = 2 * sum(1 for d in decrees if d["kind"] == "D-REQ")
    lines, totals, paid = [], {}, {}
    for seat, player in state["players"].items():
        city = [{**arts[a], "id": a} for a in player["city"]]
        cards = [game_data.requests[c] for c in player["requests"]]
        _, allocation = scoring.best_allocation(cards, city, per_request)
        fulfilled = sum(1 for line in allocation if line["points"] > 0)
        seat_lines = [{"seat": seat, "rule": "ICE-END-4", "label": "RP held", "points": player["rp"]}]
        for line in allocation:
            kind = game_data.requests[line["card"]]["kind"]
            label = f"request {line['card']} ({kind}) paid by {', '.join(line['artifacts']) or 'nothing'}"
            seat_lines.append({"seat": seat, "rule": f"ICE-REQ-{kind}", "label": label, "points": line["points"]})
        for decree in decrees:
            points = scoring.decree_points(decree, city, fulfilled, state["params"]["shape_combinations"])
            rule = DECREE_RULES[decree["kind"]]
            seat_lines.append({"seat": seat, "rule": rule, "label": f"decree {decree['id']}", "points": points})
        lines += seat_lines
        totals[seat] = sum(line["points"] for line in seat_lines)
        paid[seat] = allocation
    ranking, tie_breaks, rank = [], [], 1
    for value in sorted(set(totals.values()), reverse=True):
        tied = sorted(s for s, v in totals.items() if v == value)
        ranking.append({"rank": rank, "seats": tied})
        if len(tied) > 1:  # a tie-break line only where a tie was broken, here by sharing
            shared = "the victory" if rank == 1 else f"rank {rank}"
            tie_breaks.append({"rule": "ICE-END-5", "seats": tied,
                               "detail": f"{', '.join(tied)} tied on {value} RP: they share {shared}"})
        rank += len(tied)
    return {"outcome": "ranked", "lines": lines, "totals": totals, "ranking": ranking, "tie_breaks": tie_breaks,
            "requests": paid}
