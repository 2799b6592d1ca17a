"""How a finished game ended, in the terms of each game's normal end.

Through Ice and Snow ends normally with the final voyage (scored, or in a solo scenario judged on its
objectives), not with a shared defeat. Northwest Passage ends normally with the vessels home or round 10
played, either way with an arrival scored: a vessel that reached the Northwest, or a return to Greenland
scored where the options score one without it. Every explorer can also be home after a trip of one tile out
and back in the first round (NWP-END-2), a game that never meets the race it is scored on. I C E Expedition
ends normally either way (a building uncovered, or the day limit), and a run of games should see both;
Borealis always ends with its scoring. The benchmark and the conformance suite judge bot play by these words.
"""
from __future__ import annotations

from domain.core.match import Match

TIS_ENDED = "final voyage scored"
NWP_HOME, NWP_ARRIVED = "vessels home, arrivals scored", "round 10, arrivals scored"
ICE_BUILDING, ICE_DAYS = "building uncovered", "day limit"


def ending(match: Match) -> str:
    """How the game ended, in the terms of its normal end."""
    state = match.state
    sheet = match.rules.final_score(state)
    name = match.rules.name
    if name == "through-ice-and-snow":
        judged = sheet["outcome"] == "lost" and str(sheet.get("detail", "")).startswith("objectives not met")
        if sheet["outcome"] in ("ranked", "won") or judged:
            return TIS_ENDED
        return f"defeat ({sheet.get('rule')})"
    if name == "northwest-passage":
        arrived = any(player["reached_northwest"] or player["fame_by"].get("NWP-SCORE-4")
                      for player in state["players"].values())
        if not arrived:
            return f"no arrivals ({sheet.get('ended_by')})"
        return NWP_HOME if sheet.get("ended_by") == "NWP-END-2" else NWP_ARRIVED
    if name == "ice-expedition":
        return ICE_BUILDING if state.get("end_triggered") else ICE_DAYS
    return "scored"


def is_normal(game: str, end: str) -> bool:
    """Whether ``end`` (an :func:`ending`) is the game's normal end."""
    if game == "through-ice-and-snow":
        return end == TIS_ENDED
    if game == "northwest-passage":
        return end in (NWP_HOME, NWP_ARRIVED)
    return True


# The endings a run of games must all have seen, for the games with more than one normal end.
BOTH_ENDINGS: dict[str, set[str]] = {"ice-expedition": {ICE_BUILDING, ICE_DAYS}}
