"""Final scoring: requests paid with city artifacts (ICE-REQ) and the revealed decrees (ICE-DEC).

An artifact is a dict with ``id``, ``type`` (``None`` for a prismatic),
``shape`` (``None`` for a prismatic) and ``anima``.
"""
from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from math import comb


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


def _classes(arts: list[dict]) -> list[tuple]:
    return sorted({(a["type"] or "", a["shape"] or "", a["anima"]) for a in arts})


def best_allocation(cards: list[dict], arts: list[dict], per_fulfilled: int = 0) -> tuple[int, list[dict]]:
    """ICE-REQ-2: the assignment of artifacts to requests (each artifact paying at most one) worth most.

    The value counts each request's reward plus ``per_fulfilled`` for every fulfilled
    request (the D-REQ decrees, ICE-DEC-4). Identical artifacts are interchangeable, so
    the search runs over counts of artifact classes, trying for each request only the
    smallest artifact sets that earn its reward, and remembers every sub-problem.
    """
    classes = _classes(arts)
    index = {c: i for i, c in enumerate(classes)}
    counts = [0] * len(classes)
    for art in arts:
        counts[index[(art["type"] or "", art["shape"] or "", art["anima"])]] += 1
    as_art = [{"type": t or None, "shape": s or None, "anima": n} for t, s, n in classes]

    def options(card: dict) -> list[tuple[tuple[int, ...], int]]:
        found: dict[tuple[int, ...], int] = {}
        for size in (1, 2, 3):
            for combo in combinations_with_replacement(range(len(classes)), size):
                reward = request_reward(card, [as_art[i] for i in combo])
                if reward > 0:
                    found[combo] = reward
        minimal = []
        for combo, reward in found.items():
            smaller = (
                sub for size in range(1, len(combo)) for sub in combinations_with_replacement(combo, size)
                if not Counter(sub) - Counter(combo)
            )
            if all(found.get(sub, 0) < reward for sub in smaller):
                minimal.append((combo, reward))
        return minimal

    per_card = [options(card) for card in cards]

    @cache
    def best(position: int, left: tuple[int, ...]) -> tuple[int, tuple]:
        if position == len(cards):
            return 0, ()
        value, plan = best(position + 1, left)
        plan = (None, *plan)
        for combo, reward in per_card[position]:
            need = Counter(combo)
            if any(left[i] < n for i, n in need.items()):
                continue
            rest = tuple(left[i] - need.get(i, 0) for i in range(len(left)))
            sub_value, sub_plan = best(position + 1, rest)
            if reward + per_fulfilled + sub_value > value:
                value, plan = reward + per_fulfilled + sub_value, (combo, *sub_plan)
        return value, plan

    total, plan = best(0, tuple(counts))
    pool: dict[int, list[str]] = {i: [] for i in range(len(classes))}
    for art in sorted(arts, key=lambda a: a["id"]):
        pool[index[(art["type"] or "", art["shape"] or "", art["anima"])]].append(art["id"])
    lines = []
    for card, combo in zip(cards, plan, strict=True):
        if combo is None:
            lines.append({"card": card["id"], "artifacts": [], "points": 0})
            continue
        paid = [pool[i].pop(0) for i in combo]
        points = request_reward(card, [as_art[i] for i in combo])
        lines.append({"card": card["id"], "artifacts": paid, "points": points})
    return total, lines


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
