"""How a game moves on by itself between commands: setup, days, turns, chance draws and queued steps.

The state holds a *script*: the steps still to run, front first. A step either
runs at once (``{"do": name, ...}``) or waits for one seat's decision
(``{"do": "wait", "kind": ..., "seat": ...}``). Chance draws the rules wait for
sit in ``state["chance"]`` and always come first. :func:`domain.ice_expedition.script.advance`
runs steps until the game waits for a chance outcome, a decision, or the active player's turn.
"""
from __future__ import annotations

from domain.ice_expedition.board import Board
from domain.ice_expedition.geometry import parse_slot, slot_key


class Flow:
    """Every state change the rules make, bound to the game's data and geometry."""

    def __init__(self, rules, state: dict):
        self.rules = rules
        self.data = rules.data
        self.geo = rules.geo
        self.state = state
        self.board = Board(state, rules.geo)
        self.params = state["params"]

    # ----- helpers -------------------------------------------------------------------------------

    def player(self, seat: str) -> dict:
        return self.state["players"][seat]

    def push(self, *steps: dict) -> None:
        """Run ``steps`` next, before whatever was queued."""
        self.state["script"][0:0] = list(steps)

    def chance(self, entry: dict) -> None:
        self.state["chance"].append(entry)

    def seats_from(self, seat: str) -> list[str]:
        """Seats clockwise starting with ``seat``."""
        seats = self.state["seats"]
        start = seats.index(seat)
        return seats[start:] + seats[:start]

    def smilodons_out(self) -> bool:
        """Whether any Smilodon stands on the board: every pawn is in the reserve or on a tile, so a full
        reserve spares looking at every tile for one."""
        return self.state["reserve"]["smilodons"] < self.params["smilodon_pawns"]

    def gain_ep(self, seat: str, amount: int) -> None:
        """ICE-EXP-5: EP gained during the day is capped at EP_MAX."""
        player = self.player(seat)
        player["ep"] = min(self.params["ep_max"], player["ep"] + amount)

    def after_board_change(self) -> None:
        """ICE-EXC-6 then ICE-END-1: collapse to a fixed point, reveal what became visible."""
        self.board.collapse()
        self.board.queue_reveals()

    def gain_snow_tile(self, seat: str, tile: dict) -> None:
        """A snow tile enters a hand; its front is drawn for the owner if nobody knows it yet.

        ICE-EXP-10: over the hand limit, the owner discards first (a decision that waits), before
        seeing the new tile's front.
        """
        player = self.player(seat)
        front = tile.get("front")
        known = list(tile.get("known_by") or [])
        if front is not None and seat not in known and known != ["*"]:
            known.append(seat)
        entry = {"id": tile["id"], "terrain": tile.get("terrain"), "front": front, "known_by": known or [seat]}
        player["hand"].append(entry)
        draw = [{"do": "draw_front", "seat": seat, "tile": tile["id"]}] if front is None else []
        if len(player["hand"]) > self.params["snow_hand_limit"]:
            self.push({"do": "wait", "kind": "discard_snow", "seat": seat, "incoming": tile["id"]}, *draw)
        elif draw:
            self.step_draw_front(draw[0])

    def step_draw_front(self, step: dict) -> None:
        """The new tile's front is drawn for its owner once any discard is done (a tile discarded unseen
        stays unknown)."""
        if any(t["id"] == step["tile"] and t["front"] is None for t in self.player(step["seat"])["hand"]):
            self.chance({"kind": "front", "seat": step["seat"], "tile": step["tile"]})

    # ----- setup (ICE-SETUP) ---------------------------------------------------------------------

    def setup_script(self) -> list[dict]:
        steps = [{"do": "chance", "entry": {"kind": "backs"}}, {"do": "setup_pieces"}, {"do": "rifts"},
                 {"do": "guilds"}, {"do": "chance", "entry": {"kind": "first_player"}}, {"do": "decrees"}]
        steps += [
            {"do": "draw_requests", "seat": seat, "n": self.params["initial_requests_draw"], "then": "keep"}
            for seat in self.state["seats"]
        ]
        return steps + [{"do": "start_day"}]

    def step_chance(self, step: dict) -> None:
        self.chance(dict(step["entry"]))

    def step_setup_pieces(self, step: dict) -> None:
        """ICE-SETUP-2: a camp and an archaeologist on every Encampment, an archaeologist on every Tunnel."""
        reserve = self.state["reserve"]
        for tile in self.state["tiles"].values():
            if tile.get("terrain") == "T-ENC" and reserve["camps"] > 0:
                tile["camp"] = True
                reserve["camps"] -= 1
            if tile.get("terrain") in ("T-ENC", "T-TUN") and reserve["archaeologists"] > 0:
                tile["arch"] += 1
                reserve["archaeologists"] -= 1

    def step_rifts(self, step: dict) -> None:
        """ICE-RND-3: each Rift's rotation (which two edges are blocked) is drawn at setup."""
        for key in sorted(self.state["tiles"]):
            if self.state["tiles"][key].get("terrain") == "T-RIF":
                self.chance({"kind": "rift", "slot": key})

    def step_guilds(self, step: dict) -> None:
        """ICE-SETUP-4: guilds are dealt at random (ICE-RND-2) or chosen in seat order (ICE-CMD-1)."""
        if self.params["guild_allocation"] == "choice":
            self.push(*({"do": "wait", "kind": "choose_guild", "seat": seat} for seat in self.state["seats"]))
        else:
            self.chance({"kind": "guilds"})

    def take_guild(self, seat: str, guild: str) -> None:
        """ICE-SETUP-4: the guild's starting RP, none in First Steps."""
        player = self.player(seat)
        player["guild"] = guild
        player["rp"] = 0 if self.params["first_steps"] else self.data.guild_rp[guild]

    def step_decrees(self, step: dict) -> None:
        """ICE-SETUP-6: the First Steps three, or three drawn at random (ICE-RND-5)."""
        if self.params["first_steps"]:
            self.state["decrees"] = [d["id"] for d in self.data.cards["decrees"] if d["first_steps"]][:3]
        else:
            self.chance({"kind": "decrees"})

    def step_draw_requests(self, step: dict) -> None:
        """ICE-SETUP-7 / ICE-ACT-5 / ICE-LOG-E3: draw request cards (ICE-RND-7), reshuffling the
        discard pile into a new deck when the deck runs out (ICE-RND-6, FAQ)."""
        requests = self.state["requests"]
        if not requests["deck"] and requests["discard"]:
            requests["deck"], requests["discard"] = sorted(requests["discard"]), []
        count = min(step["n"], len(requests["deck"]))
        if count:
            self.chance({"kind": "requests", "seat": step["seat"], "count": count, "then": step["then"],
                         "left": step["n"] - count})
        elif step["then"] == "keep" and self.player(step["seat"])["drawn"]:
            self.push({"do": "wait", "kind": "keep_request", "seat": step["seat"]})

    # ----- days (ICE-DAY, ICE-PREP) --------------------------------------------------------------

    def step_start_day(self, step: dict) -> None:
        """ICE-DAY-1, ICE-DAY-2: a day is a preparation phase then an exploration phase; day 1 has no logbook."""
        state = self.state
        state["day"] += 1
        steps: list[dict] = []
        if state["day"] > 1:
            # ICE-PREP-1: the first-player marker passes one seat clockwise.
            state["first"] = self.seats_from(state["first"])[1]
            steps.append({"do": "logbook"})
        steps += [{"do": "refresh"}, {"do": "begin_exploration"}]
        self.push(*steps)

    def step_refresh(self, step: dict) -> None:
        """ICE-PREP-3: EP = base + plan tokens + carried Wreck bonuses, capped at EP_MAX."""
        for seat in self.state["seats"]:
            player = self.player(seat)
            total = self.params["base_ep_per_day"] + self.params["plan_ep_bonus"] * player["plans"]
            player["ep"] = min(self.params["ep_max"], total + player["carried_ep"])
            player["plans"] = 0
            player["carried_ep"] = 0
            player["day_over"] = False
            player["resend"] = False
            player["sent"] = 0

    def step_begin_exploration(self, step: dict) -> None:
        """ICE-EXP-1: turns go clockwise from the first player."""
        self.start_turn(self.state["first"])

    def start_turn(self, seat: str) -> None:
        """A new turn: usage flags reset; ICE-SNOW-4: the seat's own Smilodons go back to the reserve."""
        self.state["active"] = seat
        self.state["turn"] = {"spent": 0, "overwork": 0, "cryo": False, "navi": False, "icewalk": False,
                              "controlled": []}
        if not self.smilodons_out():
            return
        for tile in self.state["tiles"].values():
            if tile["smilodon"] == seat:
                tile["smilodon"] = None
                self.state["reserve"]["smilodons"] += 1

    def step_next_turn(self, step: dict) -> None:
        """ICE-EXP-1 / ICE-DAY-3: the next seat whose day goes on; when none is left the day ends."""
        active = self.state["active"]
        for seat in self.seats_from(active)[1:] + [active]:
            if not self.player(seat)["day_over"]:
                self.start_turn(seat)
                return
        self.end_of_day()

    def step_close_day(self, step: dict) -> None:
        """ICE-EXP-7, ICE-EXP-8, ICE-EXP-9: after the Send step the player's day is over."""
        player = self.player(step["seat"])
        player["day_over"] = True
        player["ep"] = 0

    def end_day_for(self, seat: str) -> None:
        """ICE-EXP-7 / ICE-EXP-8 / ICE-ACT-8: Send step, then the day ends for ``seat``."""
        limit = self.params["send_max_after_resend"] if self.player(seat)["resend"] else self.params["send_max_per_day"]
        self.push({"do": "wait", "kind": "send", "seat": seat, "limit": limit},
                  {"do": "close_day", "seat": seat}, {"do": "next_turn"})

    def end_of_day(self) -> None:
        """ICE-DAY-4 cleanup, then ICE-END-2 / ICE-END-3 / ICE-DAY-5, or the next day."""
        state = self.state
        state["active"] = None
        for seat in state["seats"]:
            player = self.player(seat)
            player["token"] = None
            player["alchemy_used"] = False
            player["plans_today"] = 0
            player["ep"] = 0
        for tile in state["tiles"].values() if self.smilodons_out() else ():
            if tile["smilodon"] == "logbook":
                tile["smilodon"] = None
                state["reserve"]["smilodons"] += 1
        if state["end_triggered"] or state["day"] >= self.params["max_days"]:
            state["phase"] = "over"
            return
        self.push({"do": "start_day"})

    # ----- shared effect steps -------------------------------------------------------------------

    def step_bag_played(self, step: dict) -> None:
        """ICE-ACT-10: a played snow tile goes face up into the discard bag."""
        tile = self.state["in_play"].pop(step["tile"])
        self.state["bag"].append({"id": tile["id"], "kind": "snow", "layer": None, "terrain": tile["terrain"],
                                  "face": None, "front": tile["front"], "known_by": ["*"]})

    def step_draw_snowflake(self, step: dict) -> None:
        """ICE-SNOW-12 / ICE-LOG-9: a snowflake from the pool, else a snow tile from the discard bag
        (ICE-RND-10: artifacts drawn are put back, so only its snow tiles can come out)."""
        pool = self.state["snowflakes"]
        if pool:
            tile_id = pool.pop(0)
            self.snowflake_drawn({"id": tile_id, "terrain": self.data.tiles["snowflake_back"], "front": None,
                                  "known_by": []}, step)
        elif any(item["kind"] == "snow" for item in self.state["bag"]):
            self.chance({"kind": "bag_snow", "then": step})

    def snowflake_drawn(self, tile: dict, step: dict) -> None:
        """Where a drawn snowflake goes: onto the board (Storm Whistle, snowfall) or into a hand."""
        if step["then"] == "hand":
            self.gain_snow_tile(step["seat"], tile)
        elif step["then"] == "place":
            self.place_snowflake(tile, step["slot"], step["seat"])
        else:
            self.push({"do": "wait", "kind": "place_snowflake", "seat": step["seat"], "tile": tile})

    def place_snowflake(self, tile: dict, key: str, seat: str) -> None:
        """ICE-SNOW-12: the tile goes face down into the slot; explorers on tiles it fully covers
        must leave them, one decision per tile, made by the placing player."""
        slot = parse_slot(key)
        covered = [slot_key(s) for s in self.geo.newly_fully_covered(self.board.present, slot)]
        self.board.place(key, {"kind": "snow", "id": tile["id"], "terrain": tile["terrain"], "rift": None,
                               "face": None, "front": tile["front"], "known_by": tile.get("known_by", []),
                               "camp": False, "arch": 0, "smilodon": None})
        self.push(*({"do": "wait", "kind": "relocate", "seat": seat, "slot": k}
                    for k in covered if self.board.explorers_on(k)))

    def return_snowflake(self, tile: dict) -> None:
        """No legal slot: the tile goes back where it came from and the effect fizzles (ICE-SNOW-12)."""
        if tile["id"].startswith("SNF-"):
            self.state["snowflakes"].insert(0, tile["id"])
        else:
            self.state["bag"].append({"id": tile["id"], "kind": "snow", "layer": None, "terrain": tile["terrain"],
                                      "face": None, "front": tile["front"], "known_by": tile.get("known_by", [])})


def waiting_step(state: dict) -> dict | None:
    """The decision the game waits for (ICE-CMD-16), when the script's next step is one."""
    step = state["script"][0] if state["script"] else None
    return step if step is not None and step["do"] == "wait" else None
