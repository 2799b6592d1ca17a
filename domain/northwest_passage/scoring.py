"""Final scoring (spec 6.3): majorities, sets, abandonment, and the ranking with its tie-break."""
from __future__ import annotations

from domain.northwest_passage.catalogue import COLLECTABLE, Catalogue
from domain.northwest_passage.state import GREENLAND, LIVE_FAME_RULES, SHIP, SLED, crew_aboard

MAJORITY_KINDS = ("wreck", "strait", "map")
LIVE_LABELS = {
    "NWP-SCORE-1": "discoveries and explorations",
    "NWP-SCORE-2": "islands completed",
    "NWP-SCORE-3": "Northwest arrival",
    "NWP-SCORE-4": "Greenland return",
}


def majority_points(counts: dict[str, int], table: list[int]) -> dict[str, int]:
    """NWP-SCORE-5: places by count; tied players all take the worst place they share; 0 tokens, no place (A14)."""
    points = {}
    for seat, count in counts.items():
        worst_place = sum(1 for other in counts.values() if other >= count)
        points[seat] = table[worst_place - 1] if count > 0 and worst_place <= len(table) else 0
    return points


def sets(tokens: dict[str, int]) -> int:
    """NWP-SCORE-6: complete sets of the five collectable types (NWP-COMP-16)."""
    return min(tokens[kind] for kind in COLLECTABLE)


# Games recorded under rules version 1 have no never_left_greenland option: they were scored as abandoned.
NEVER_LEFT_BEFORE_THE_OPTION = "abandoned"


def abandonment(player: dict, tables: dict, never_left: str = "not_abandoned") -> int:
    """NWP-SCORE-7: every vessel not back in Greenland costs per crewman aboard and for itself.

    An off-board sled is no vessel left behind; an empty ship still is. A vessel still in Greenland
    at the end never left it (leaving and coming back is a return); the seed penalises only a vessel
    that did not return or has not arrived, so by default it pays nothing, and with ``never_left``
    = ``abandoned`` it pays like any vessel out on the ice.
    """
    penalty = 0
    for name in (SHIP, SLED):
        vessel = player[name]
        if vessel["returned"] or (name == SLED and vessel["at"] is None):
            continue
        if vessel["at"] == GREENLAND and never_left == "not_abandoned":
            continue
        penalty += crew_aboard(vessel) * tables["abandon_per_crew"] + tables["abandon_per_vessel"]
    return penalty


def score_sheet(state: dict, catalogue: Catalogue) -> dict:
    """NWP-END-5: final fame = live fame + majorities + sets + abandonment; NWP-END-6 breaks ties."""
    tables = catalogue.tables
    seats = state["seats"]
    players = state["players"]
    never_left = state["options"].get("never_left_greenland", NEVER_LEFT_BEFORE_THE_OPTION)
    lines = []
    for seat in seats:
        for rule in LIVE_FAME_RULES:
            lines.append({"seat": seat, "rule": rule, "label": LIVE_LABELS[rule],
                          "points": players[seat]["fame_by"][rule]})
    for kind in MAJORITY_KINDS:
        table = tables["majority"][kind][str(len(seats))]
        counts = {seat: players[seat]["tokens"][kind] for seat in seats}
        for seat, points in majority_points(counts, table).items():
            lines.append({"seat": seat, "rule": "NWP-SCORE-5", "label": f"{kind} majority ({counts[seat]})",
                          "points": points})
    for seat in seats:
        count = sets(players[seat]["tokens"])
        lines.append({"seat": seat, "rule": "NWP-SCORE-6", "label": f"{count} sets of five",
                      "points": count * tables["set_value"]})
        lines.append({"seat": seat, "rule": "NWP-SCORE-7", "label": "abandoned vessels and crew",
                      "points": abandonment(players[seat], tables, never_left)})
    totals = {seat: sum(line["points"] for line in lines if line["seat"] == seat) for seat in seats}
    ranking, tie_breaks = rank(totals, state["greenland_arrivals"])
    return {"outcome": "ranked", "lines": lines, "totals": totals, "ranking": ranking, "tie_breaks": tie_breaks,
            "ended_by": state["ended"]}


def rank(totals: dict[str, int], returned: list[str]) -> tuple[list[dict], list[dict]]:
    """NWP-END-6: among equal fame, the first back in Greenland wins; tied players who never returned share."""
    def order(seat: str) -> int:
        return returned.index(seat) if seat in returned else len(returned)

    groups: list[list[str]] = []
    for seat in sorted(totals, key=lambda s: (-totals[s], order(s))):
        previous = groups[-1][0] if groups else None
        if previous is not None and totals[previous] == totals[seat] and order(previous) == order(seat):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    ranking = []
    place = 1
    for group in groups:
        ranking.append({"rank": place, "seats": group})
        place += len(group)
    tie_breaks = []
    for fame in sorted({t for t in totals.values() if list(totals.values()).count(t) > 1}, reverse=True):
        tied = [seat for seat in totals if totals[seat] == fame]
        first = [seat for seat in returned if seat in tied]
        detail = (f"{', '.join(sorted(tied))} tied on {fame}; " +
                  (f"{first[0]} returned to Greenland first" if first else "none returned: they share the place"))
        tie_breaks.append({"rule": "NWP-END-6", "detail": detail})
    return ranking, tie_breaks
