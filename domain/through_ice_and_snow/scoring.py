"""Final scoring (TIS-END-2..4) and the investor objectives (spec 2.4)."""
from __future__ import annotations

from domain.through_ice_and_snow.board import State
from domain.through_ice_and_snow.catalogue import CAT

SPECIES_PRIZES = (20, 10, 5)
CABIN_PRIZES = (15, 7)
CARTOGRAPHY_VP = 5


def majority(counts: dict[str, int], prizes: tuple[int, ...]) -> dict[str, int]:
    """TIS-END-3: competition ranking; tied players share the prizes of the ranks they cover, rounded down.

    Players with nothing (0 cards or cabins) are not ranked.
    """
    ranked = sorted((seat for seat in counts if counts[seat] >= 1), key=lambda seat: -counts[seat])
    result: dict[str, int] = {}
    rank = 0
    while rank < len(ranked):
        group = [seat for seat in ranked if counts[seat] == counts[ranked[rank]]]
        pool = sum(prizes[rank + k] for k in range(len(group)) if rank + k < len(prizes))
        for seat in group:
            result[seat] = pool // len(group)
        rank += len(group)
    return result


def distinct_species(player: dict) -> int:
    return len({CAT.species[card]["species"] for card in player["species"]})


def objective_met(state: State, seat: int) -> bool:
    """Investor objectives, counted as TIS-AMB-8, TIS-AMB-9 and TIS-AMB-10 choose."""
    players = state["players"]
    player = players[seat]
    goal = CAT.investors[player["investor"]]["objective"]
    kind = goal["kind"]
    others = [other for index, other in enumerate(players) if index != seat]
    threshold = goal["by_players"][str(state["n"])] if "by_players" in goal else goal.get("at_least")
    if kind == "never_death_or_mutiny":
        return player["booth_ok"]
    if kind == "times_leader":
        return player["times_leader"] >= threshold
    if kind == "explores":
        return player["explores"] >= threshold
    if kind == "most_species":
        return all(distinct_species(player) > distinct_species(other) for other in others)
    if kind == "most_cabins":
        return all(player["cabins"] > other["cabins"] for other in others)
    if kind == "rounds_at_least":
        return state["round"] >= threshold
    if kind == "rounds_at_most":
        return state["round"] <= goal["at_most"]
    if kind == "inuit":
        return player["inuit"] >= threshold
    if kind == "species":
        return distinct_species(player) >= threshold
    if kind == "cabins":
        return player["cabins"] >= threshold
    return len(state["mapped"]) >= threshold


def score_sheet(state: State) -> dict:
    """The score sheet of a normal end, or the catastrophe that made everyone lose (TIS-LOSE-*). A part may give
    its own sheet (the single-player scenarios) or add its own lines (seat, rule, label, points)."""
    seats = state["seats"]
    game = state["parts"]
    for sheet in game.hooks("score_sheets"):
        own = sheet(state)
        if own is not None:
            return own
    if state["over"]["outcome"] == "all_lost":
        return {"outcome": "all_lost", "rule": state["over"]["rule"], "detail": state["over"]["detail"],
                "lines": [], "totals": {}, "ranking": [], "tie_breaks": []}
    players = dict(zip(seats, state["players"], strict=True))
    lines: list[dict] = []

    def line(seat: str, rule: str, label: str, points: int) -> None:
        lines.append({"seat": seat, "rule": rule, "label": label, "points": points})

    species = majority({seat: len(player["species"]) for seat, player in players.items()}, SPECIES_PRIZES)
    cabins = majority({seat: player["cabins"] for seat, player in players.items()}, CABIN_PRIZES)
    for index, (seat, player) in enumerate(players.items()):
        line(seat, "TIS-END-2", "prestige scored during the game", player["vp"])
        line(seat, "TIS-END-3", "species majority", species.get(seat, 0))
        line(seat, "TIS-END-2", "species cards", sum(CAT.species[card]["vp"] for card in player["species"]))
        line(seat, "TIS-END-3", "cabin majority", cabins.get(seat, 0))
        line(seat, "TIS-END-2", "health track", CAT.tracks["health"]["end_vp"][str(player["health"])])
        line(seat, "TIS-END-2", "morale track", CAT.tracks["morale"]["end_vp"][str(player["morale"])])
        # Both cards are chosen at setup; a standing taken before that (a resignation) has no line for them.
        if player["investor"] is not None:
            investor = CAT.investors[player["investor"]]
            line(seat, "TIS-END-2", f"investor {investor['name']}", investor["reward"]
                 if objective_met(state, index) else 0)
        if player["carto"] is not None:
            regions = CAT.cartography[player["carto"]]["regions"]
            line(seat, "TIS-END-2", "cartography card",
                 CARTOGRAPHY_VP * sum(1 for region in regions if region in state["mapped"]))
    for hook in game.hooks("score_lines"):
        for seat, rule, label, points in hook(state):
            line(seat, rule, label, points)
    totals = {seat: sum(entry["points"] for entry in lines if entry["seat"] == seat) for seat in seats}
    ranking: list[dict] = []
    for points in sorted(set(totals.values()), reverse=True):
        tied = [seat for seat in seats if totals[seat] == points]
        ranking.append({"rank": 1 + sum(len(entry["seats"]) for entry in ranking), "seats": tied})
    tie_breaks = [{"rule": "TIS-END-4", "detail": "tied players share the rank (shared victory when first)"}
                  for entry in ranking if len(entry["seats"]) > 1][:1]
    return {"outcome": "ranked", "lines": lines, "totals": totals, "ranking": ranking, "tie_breaks": tie_breaks}
