"""Final scoring: requests paid with city artifacts (ICE-REQ) and the revealed decrees (ICE-DEC).

An artifact is a dict with ``id``, ``type`` (``None`` for a prismatic),
``shape`` (``None`` for a prismatic) and ``anima``.
"""
from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb

from domain.core.canonical import canonical_json
from domain.ice_expedition.catalogue import Catalogue


def _prismatic(art: dict) -> bool:
    return art["type"] is None


def _matches_types(arts: list[dict], types: list[str]) -> bool:
    """One artifact per listed type, a prismatic standing for any one type (ICE-REQ-3)."""
    if len(arts) != len(types):
        return False
    needed = Counter(types)
    wild = 0
    for art in arts:
        if _prismatic(art):
            wild += 1
        elif needed[art["type"]] > 0:
            needed[art["type"]] -= 1
        else:
            return False
    return sum(needed.values()) == wild


def request_reward(card: dict, arts: list[dict]) -> int:
    """RP the request pays when exactly ``arts`` are assigned to it; 0 when not fulfilled (ICE-REQ-1)."""
    kind = card["kind"]
    anima = sum(art["anima"] for art in arts)
    size = len(arts)
    if kind == "K-SET3" or kind == "K-SET2":
        # ICE-REQ-K-SET3 / ICE-REQ-K-SET2: one artifact of each listed type.
        return card["reward"] if _matches_types(arts, card["types"]) else 0
    if kind == "K-PRISM":
        # ICE-REQ-K-PRISM: 1 or 2 prismatics with enough Anima; only prismatics count.
        ok = 1 <= size <= 2 and all(_prismatic(art) for art in arts) and anima >= card["anima"]
        return card["reward"] if ok else 0
    if kind in ("K-DUO", "K-MONO"):
        # ICE-REQ-K-DUO / ICE-REQ-K-MONO: 2 or 3 artifacts of the listed types (or prismatic), enough Anima.
        allowed = set(card["types"])
        ok = 2 <= size <= 3 and all(_prismatic(a) or a["type"] in allowed for a in arts) and anima >= card["anima"]
        return card["reward"] if ok else 0
    if kind == "K-ANY":
        # ICE-REQ-K-ANY: 2 or 3 artifacts of any kind, enough Anima (exceeding it is fine, FAQ).
        return card["reward"] if 2 <= size <= 3 and anima >= card["anima"] else 0
    if kind == "K-SHAPE":
        # ICE-REQ-K-SHAPE: 1-3 artifacts of the type; the number of different shapes sets the reward.
        wanted = card["types"][0]
        if not 1 <= size <= 3 or not all(_prismatic(a) or a["type"] == wanted for a in arts):
            return 0
        shapes = {art["shape"] for art in arts if not _prismatic(art)}
        return card["rewards_by_shapes"][len(shapes) - 1] if shapes else 0
    raise ValueError(f"unknown request kind {kind}")


def _reducer(cards: list[dict]):
    """What of an artifact any of these cards can tell apart: artifacts with equal keys are interchangeable.

    A type no card names, a shape no K-SHAPE card of that type asks for, and Anima when no card
    counts it, cannot change any reward of these cards, so they are merged.
    """
    named = {t for card in cards for t in card.get("types", [])}
    shaped = {card["types"][0] for card in cards if card["kind"] == "K-SHAPE"}
    anima = any(card["kind"] in ("K-ANY", "K-DUO", "K-MONO", "K-PRISM") for card in cards)

    def key(art: dict) -> tuple:
        if art["type"] is None:
            return ("", "", art["anima"] if anima else 0)
        kind = art["type"] if art["type"] in named else "*"
        return (kind, art["shape"] if kind in shaped else "-", art["anima"] if anima else 0)

    return key


# Cards asking for the most attributes go first, so the cards left later tell fewer artifacts apart.
KIND_ORDER = {"K-SHAPE": 0, "K-SET3": 1, "K-SET2": 2, "K-MONO": 3, "K-DUO": 4, "K-PRISM": 5, "K-ANY": 6}


def _paying_sets(card: dict, classes: list[tuple], counts: list[int]) -> list[tuple[tuple, int, list[tuple]]]:
    """The class multisets that pay ``card`` with at most ``counts`` of each class, only the smallest ones,
    each with its *twins*: the same set with an Anima-2 artifact replaced by its Anima-1 twin. A set is not
    worth trying while a twin paying as much can be paid (the twin can always be swapped in)."""
    as_art = [{"type": None if t == "" else t, "shape": sh, "anima": n} for t, sh, n in classes]
    index = {c: i for i, c in enumerate(classes)}
    weaker = {i: index[(t, sh, 1)] for i, (t, sh, n) in enumerate(classes) if n == 2 and (t, sh, 1) in index}
    found: dict[tuple[int, ...], int] = {}
    for size in (1, 2, 3):
        for combo in combinations_with_replacement(range(len(classes)), size):
            if all(combo.count(i) <= counts[i] for i in set(combo)):
                reward = request_reward(card, [as_art[i] for i in combo])
                if reward > 0:
                    found[combo] = reward
    kept = []
    for combo, reward in found.items():
        smaller = (sub for size in range(1, len(combo)) for sub in combinations_with_replacement(combo, size)
                   if not Counter(sub) - Counter(combo))
        if any(found.get(sub, 0) >= reward for sub in smaller):
            continue
        twins = {tuple(sorted(combo[:n] + (weaker[i],) + combo[n + 1:])) for n, i in enumerate(combo) if i in weaker}
        kept.append((combo, reward, [tuple(Counter(t).items()) for t in twins if found.get(t, 0) >= reward]))
    return kept


def best_allocation(cards: list[dict], arts: list[dict], per_fulfilled: int = 0) -> tuple[int, list[dict]]:
    """ICE-REQ-2: the assignment of artifacts to requests (each artifact paying at most one) worth most.

    The value counts each request's reward plus ``per_fulfilled`` for every fulfilled request
    (the D-REQ decrees, ICE-DEC-4). Cards are taken one by one; what is left is remembered only
    as counts of the artifacts the remaining cards can tell apart, so equal sub-problems are
    solved once.
    """
    order = sorted(range(len(cards)), key=lambda n: (KIND_ORDER[cards[n]["kind"]], canonical_json(cards[n])))
    base = sorted({(a["type"] or "", a["shape"] or "", a["anima"]) for a in arts})
    full = [{"type": t or None, "shape": sh or None, "anima": n} for t, sh, n in base]
    steps = []
    for step in range(len(order)):
        key = _reducer([cards[n] for n in order[step:]])
        classes = sorted({key(art) for art in full})
        group = [classes.index(key(art)) for art in full]
        totals = [sum(1 for a in arts if key(a) == c) for c in classes]
        options = _paying_sets(cards[order[step]], classes, totals)
        steps.append((group, len(classes), [(tuple(Counter(combo).items()), combo, r, tw) for combo, r, tw in options]))
    ceiling = [sum(max((r for _, _, r, _ in steps[k][2]), default=-per_fulfilled) + per_fulfilled
                   for k in range(step, len(order))) for step in range(len(order) + 1)]
    memo: dict = {}

    def reduced(step: int, left: tuple[int, ...]) -> list[int]:
        group, size, _ = steps[step]
        counts = [0] * size
        for i, n in enumerate(left):
            counts[group[i]] += n
        return counts

    def take(step: int, left: tuple[int, ...], combo: tuple[int, ...]) -> tuple[int, ...]:
        """Spend one artifact of each reduced class in ``combo`` (any member: they are alike from here on)."""
        group = steps[step][0]
        rest = list(left)
        for wanted in combo:
            member = next(i for i, n in enumerate(rest) if n and group[i] == wanted)
            rest[member] -= 1
        return tuple(rest)

    def best(step: int, left: tuple[int, ...]) -> int:
        """The most the cards from ``step`` on can add with the artifacts ``left``."""
        if step == len(order):
            return 0
        counts = reduced(step, left)
        seen = (step, tuple(counts))
        if seen in memo:
            return memo[seen][0]
        value, choice = best(step + 1, left), None
        for need, combo, reward, twins in steps[step][2]:
            if not all(counts[i] >= n for i, n in need):
                continue
            if any(all(counts[i] >= n for i, n in twin) for twin in twins):
                continue
            gained = reward + per_fulfilled + best(step + 1, take(step, left, combo))
            if gained > value:
                value, choice = gained, combo
            if value == ceiling[step]:
                break  # every card from here on is paid in full: nothing can do better
        memo[seen] = (value, choice)
        return value

    left = tuple(sum(1 for a in arts if (a["type"] or "", a["shape"] or "", a["anima"]) == c) for c in base)
    total = best(0, left)
    pool = {c: sorted((a for a in arts if (a["type"] or "", a["shape"] or "", a["anima"]) == c),
                      key=lambda a: a["id"]) for c in base}
    lines: dict[int, dict] = {}
    for step, card_index in enumerate(order):
        card = cards[card_index]
        choice = memo[(step, tuple(reduced(step, left)))][1]
        if choice is None:
            lines[card_index] = {"card": card["id"], "artifacts": [], "points": 0}
            continue
        after = take(step, left, choice)
        paid = [pool[base[i]].pop(0) for i, (was, now) in enumerate(zip(left, after, strict=True))
                for _ in range(was - now)]
        left = after
        lines[card_index] = {"card": card["id"], "artifacts": [a["id"] for a in paid],
                             "points": request_reward(card, paid)}
    return total, [lines[n] for n in range(len(cards))]


def remembered_allocation(cards: list[dict], arts: list[dict], per_fulfilled: int) -> list[dict]:
    """:func:`best_allocation`'s lines, each problem solved once: a bot's search scores the same hands of
    requests and cities thousands of times, and the allocation is most of a score sheet's cost. The result
    does not depend on the order of ``arts``, so they are keyed sorted."""
    key = canonical_json([cards, sorted(arts, key=lambda art: art["id"]), per_fulfilled])
    lines: list[dict] = json.loads(_allocation_lines(key))
    return lines


@lru_cache(maxsize=1024)
def _allocation_lines(key: str) -> str:
    """The lines of the allocation for ``key`` (cards, artifacts, points per fulfilled request) as JSON, so
    every caller gets objects of its own."""
    cards, arts, per_fulfilled = json.loads(key)
    return canonical_json(best_allocation(cards, arts, per_fulfilled)[1])


def decree_points(decree: dict, arts: list[dict], fulfilled: int, shape_combinations: str = "disjoint") -> int:
    """ICE-DEC: one revealed decree scored over a player's city artifacts."""
    kind = decree["kind"]
    if kind == "D-A1":
        return sum(1 for a in arts if a["anima"] == 1)  # ICE-DEC-1
    if kind == "D-PR":
        return 2 * sum(1 for a in arts if _prismatic(a))  # ICE-DEC-2
    if kind == "D-A2":
        return 2 * sum(1 for a in arts if a["anima"] == 2)  # ICE-DEC-3
    if kind == "D-REQ":
        return 2 * fulfilled  # ICE-DEC-4
    if kind == "D-TYP":
        # ICE-DEC-5: Anima of the named type, prismatics standing in (AMB-11).
        return sum(a["anima"] for a in arts if _prismatic(a) or a["type"] == decree["artifact_type"])
    if kind == "D-DIST":
        return len({(a["type"], a["shape"]) for a in arts if not _prismatic(a)})  # ICE-DEC-6
    shapes_by_type: dict[str, Counter] = {}
    for art in arts:
        if not _prismatic(art):
            shapes_by_type.setdefault(art["type"], Counter())[art["shape"]] += 1
    if kind == "D-SH2":
        # ICE-DEC-7 (AMB-13): disjoint two-shape sets by default, or every pair of present shapes.
        if shape_combinations == "pairs":
            return 2 * sum(comb(len(c), 2) for c in shapes_by_type.values())
        total = 0
        for counts in shapes_by_type.values():
            size = sum(counts.values())
            total += min(size // 2, size - max(counts.values()))
        return 2 * total
    if kind == "D-SH3":
        # ICE-DEC-8 (AMB-13): disjoint three-shape sets by default, or every triple of present shapes.
        if shape_combinations == "pairs":
            return 4 * sum(comb(len(c), 3) for c in shapes_by_type.values())
        return 4 * sum(min(c.values()) if len(c) >= 3 else 0 for c in shapes_by_type.values())
    raise ValueError(f"unknown decree kind {kind}")


DECREE_RULES = {"D-A1": "ICE-DEC-1", "D-PR": "ICE-DEC-2", "D-A2": "ICE-DEC-3", "D-REQ": "ICE-DEC-4",
                "D-TYP": "ICE-DEC-5", "D-DIST": "ICE-DEC-6", "D-SH2": "ICE-DEC-7", "D-SH3": "ICE-DEC-8"}


def score_sheet(game_data: Catalogue, state: dict) -> dict:
    """ICE-END-4: RP held + requests (ICE-REQ) + decrees (ICE-DEC); ICE-END-5: ties share the victory."""
    arts = game_data.artifacts
    decrees = [game_data.decrees[d] for d in state["decrees"]]
    per_request = 2 * sum(1 for d in decrees if d["kind"] == "D-REQ")
    lines, totals, paid = [], {}, {}
    for seat, player in state["players"].items():
        city = [{**arts[a], "id": a} for a in player["city"]]
        cards = [game_data.requests[c] for c in player["requests"]]
        allocation = remembered_allocation(cards, city, per_request)
        fulfilled = sum(1 for line in allocation if line["points"] > 0)
        seat_lines = [{"seat": seat, "rule": "ICE-END-4", "label": "RP held", "points": player["rp"]}]
        for line in allocation:
            kind = game_data.requests[line["card"]]["kind"]
            label = f"request {line['card']} ({kind}) paid by {', '.join(line['artifacts']) or 'nothing'}"
            seat_lines.append({"seat": seat, "rule": f"ICE-REQ-{kind}", "label": label, "points": line["points"]})
        for decree in decrees:
            points = decree_points(decree, city, fulfilled, state["params"]["shape_combinations"])
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
