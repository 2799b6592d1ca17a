"""Requests (ICE-REQ, section 7.5) and decrees (ICE-DEC, section 7.6) with the spec's numbers."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.ice_expedition.scoring import best_allocation, decree_points, remembered_allocation, request_reward

NAMES = {"Feat": "feat", "Nobility": "nobility", "Harmony": "harmony", "Philosophy": "philosophy",
         "Oblivion": "oblivion"}


def art(code: str, index: int = 0) -> dict:
    """``Feat-S1-1`` = Feat, shape S1, Anima 1; ``Pr-2`` = prismatic Anima 2."""
    parts = code.split("-")
    if parts[0] == "Pr":
        return {"id": f"{code}#{index}", "type": None, "shape": None, "anima": int(parts[1])}
    return {"id": f"{code}#{index}", "type": NAMES[parts[0]], "shape": parts[1], "anima": int(parts[2])}


def city(*codes: str) -> list[dict]:
    return [art(code, i) for i, code in enumerate(codes)]


SET3 = {"id": "r", "kind": "K-SET3", "types": ["feat", "nobility", "harmony"], "reward": 7}
PRISM = {"id": "r", "kind": "K-PRISM", "anima": 2, "reward": 5}
DUO = {"id": "r", "kind": "K-DUO", "types": ["oblivion", "philosophy"], "anima": 3, "reward": 5}
ANY = {"id": "r", "kind": "K-ANY", "anima": 3, "reward": 4}
SET2 = {"id": "r", "kind": "K-SET2", "types": ["harmony", "philosophy"], "reward": 4}
SHAPE = {"id": "r", "kind": "K-SHAPE", "types": ["feat"], "rewards_by_shapes": [1, 4, 8]}
MONO = {"id": "r", "kind": "K-MONO", "types": ["oblivion"], "anima": 3, "reward": 6}


@pytest.mark.parametrize(
    ("rule", "card", "codes", "points"),
    [
        ("ICE-REQ-K-SET3", SET3, ["Feat-S1-1", "Nobility-S2-2", "Harmony-S3-1"], 7),
        ("ICE-REQ-K-SET3", SET3, ["Feat-S1-1", "Nobility-S2-2", "Pr-1"], 7),
        ("ICE-REQ-K-SET3", SET3, ["Feat-S1-1", "Feat-S2-1", "Nobility-S1-1"], 0),
        ("ICE-REQ-K-PRISM", PRISM, ["Pr-1"], 0),
        ("ICE-REQ-K-PRISM", PRISM, ["Pr-1", "Pr-1"], 5),
        ("ICE-REQ-K-PRISM", PRISM, ["Pr-2"], 5),
        ("ICE-REQ-K-DUO", DUO, ["Oblivion-S1-1", "Philosophy-S2-2"], 5),
        ("ICE-REQ-K-DUO", DUO, ["Oblivion-S1-1", "Oblivion-S2-1"], 0),
        ("ICE-REQ-K-DUO", DUO, ["Philosophy-S1-2", "Feat-S1-2"], 0),
        ("ICE-REQ-K-ANY", ANY, ["Feat-S1-1", "Harmony-S2-2"], 4),
        ("ICE-REQ-K-ANY", ANY, ["Feat-S1-2", "Harmony-S2-2"], 4),
        ("ICE-REQ-K-ANY", ANY, ["Feat-S1-1", "Harmony-S2-1"], 0),
        ("ICE-REQ-K-SET2", SET2, ["Harmony-S1-1", "Philosophy-S3-2"], 4),
        ("ICE-REQ-K-SHAPE", SHAPE, ["Feat-S1-1", "Feat-S1-2"], 1),
        ("ICE-REQ-K-SHAPE", SHAPE, ["Feat-S1-1", "Feat-S3-1"], 4),
        ("ICE-REQ-K-SHAPE", SHAPE, ["Feat-S1-1", "Feat-S2-2", "Feat-S3-1"], 8),
        ("ICE-REQ-K-MONO", MONO, ["Oblivion-S1-2", "Oblivion-S2-2"], 6),
        ("ICE-REQ-K-MONO", MONO, ["Oblivion-S1-2"], 0),
    ],
)
def test_request_table_of_section_7_5(rule, card, codes, points):
    """ICE-REQ-1 / ICE-REQ-3 and each kind's requirement, prismatics standing in as wildcards."""
    assert request_reward(card, city(*codes)) == points


def test_prismatic_adds_no_shape():
    """ICE-REQ-3: a prismatic may join a K-SHAPE set but never counts as a shape."""
    assert request_reward(SHAPE, city("Feat-S1-1", "Pr-1")) == 1
    assert request_reward(SHAPE, city("Pr-1")) == 0


def test_allocation_example_picks_the_better_assignment():
    """ICE-REQ-2: SET2 + DUO over Harmony-S1-1, Philosophy-S1-2, Oblivion-S2-1 is worth 5, not 4; with a
    D-REQ decree 7; the sheet says which artifact paid which request."""
    cards = [{**SET2, "id": "set2"}, {**DUO, "id": "duo"}]
    artifacts = city("Harmony-S1-1", "Philosophy-S1-2", "Oblivion-S2-1")
    total, lines = best_allocation(cards, artifacts)
    assert total == 5
    assert lines[0] == {"card": "set2", "artifacts": [], "points": 0}
    assert lines[1]["points"] == 5
    assert sorted(lines[1]["artifacts"]) == ["Oblivion-S2-1#2", "Philosophy-S1-2#1"]
    assert best_allocation(cards, artifacts, per_fulfilled=2)[0] == 7


def test_an_artifact_pays_one_request_only():
    """ICE-REQ-1 (AMB-12): two SET2 cards cannot share the same two artifacts."""
    cards = [{**SET2, "id": "a"}, {**SET2, "id": "b"}]
    assert best_allocation(cards, city("Harmony-S1-1", "Philosophy-S1-2"))[0] == 4
    assert best_allocation(cards, city("Harmony-S1-1", "Philosophy-S1-2", "Pr-1", "Harmony-S2-1"))[0] == 8


def test_a_remembered_allocation_is_the_allocation_whatever_the_city_order_and_its_callers_do():
    """ICE-REQ-2, solved once per problem: the same lines as solving it afresh, in any order of the city, and
    a caller that changes the lines it was given changes nobody else's."""
    cards = [{**SET2, "id": "set2"}, {**DUO, "id": "duo"}]
    artifacts = city("Harmony-S1-1", "Philosophy-S1-2", "Oblivion-S2-1")
    expected = best_allocation(cards, artifacts)[1]
    first = remembered_allocation(cards, artifacts, 0)
    assert first == expected
    first[1]["artifacts"].clear()
    first[1]["points"] = 0
    assert remembered_allocation(cards, artifacts[::-1], 0) == expected


SAMPLE = city("Feat-S1-1", "Feat-S2-1", "Feat-S3-2", "Harmony-S1-2", "Pr-1", "Oblivion-S1-1")


@pytest.mark.parametrize(
    ("rule", "decree", "points"),
    [
        ("ICE-DEC-1", {"kind": "D-A1"}, 4),
        ("ICE-DEC-2", {"kind": "D-PR"}, 2),
        ("ICE-DEC-3", {"kind": "D-A2"}, 4),
        ("ICE-DEC-4", {"kind": "D-REQ"}, 2),
        ("ICE-DEC-5", {"kind": "D-TYP", "artifact_type": "feat"}, 5),
        ("ICE-DEC-6", {"kind": "D-DIST"}, 5),
        ("ICE-DEC-7", {"kind": "D-SH2"}, 2),
        ("ICE-DEC-8", {"kind": "D-SH3"}, 4),
    ],
)
def test_decree_table_of_section_7_6(rule, decree, points):
    assert decree_points(decree, SAMPLE, fulfilled=1) == points


def test_first_steps_decrees_on_the_sample_city():
    """ICE-SETUP-6 First Steps stand-in (D-A1 + D-PR + D-A2): 4 + 2 + 4 = 10."""
    assert sum(decree_points({"kind": k}, SAMPLE, 1) for k in ("D-A1", "D-PR", "D-A2")) == 10


def test_shape_combinations_option():
    """AMB-13: disjoint sets (default) versus every pair/triple of present shapes."""
    four = city("Feat-S1-1", "Feat-S2-1", "Feat-S3-1", "Feat-S1-1")
    assert decree_points({"kind": "D-SH2"}, four, 0) == 4
    assert decree_points({"kind": "D-SH2"}, four, 0, "pairs") == 6
    assert decree_points({"kind": "D-SH3"}, four, 0) == 4
    assert decree_points({"kind": "D-SH3"}, four, 0, "pairs") == 4


def brute_force(cards: list[dict], artifacts: list[dict], bonus: int) -> int:
    """Every way to hand each artifact to one card or to none."""
    import itertools

    best = 0
    for owners in itertools.product(range(len(cards) + 1), repeat=len(artifacts)):
        groups: list[list[dict]] = [[] for _ in cards]
        for artifact, owner in zip(artifacts, owners, strict=True):
            if owner < len(cards):
                groups[owner].append(artifact)
        rewards = [request_reward(card, group) if group else 0 for card, group in zip(cards, groups, strict=True)]
        best = max(best, sum(r + (bonus if r else 0) for r in rewards))
    return best


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_allocation_matches_exhaustive_search(data):
    """ICE-REQ-2: on random small hands and cities the search finds the best assignment, and the sheet's
    assignment is real (disjoint, each line paid as shown)."""
    from domain.ice_expedition import RULES

    requests = sorted(RULES.data.requests.values(), key=lambda card: card["id"])
    artifacts = RULES.data.artifacts
    cards = data.draw(st.lists(st.sampled_from(requests), min_size=1, max_size=3))
    chosen = data.draw(st.lists(st.sampled_from(sorted(artifacts)), min_size=1, max_size=6, unique=True))
    city_arts = [{**artifacts[a], "id": a} for a in chosen]
    bonus = data.draw(st.sampled_from([0, 2]))
    total, lines = best_allocation(cards, city_arts, bonus)
    assert total == brute_force(cards, city_arts, bonus)
    used = [a for line in lines for a in line["artifacts"]]
    assert len(used) == len(set(used))
    by_id = {a["id"]: a for a in city_arts}
    for card, line in zip(cards, lines, strict=True):
        paid = [by_id[a] for a in line["artifacts"]]
        assert line["points"] == (request_reward(card, paid) if paid else 0)
    assert total == sum(line["points"] + (bonus if line["points"] else 0) for line in lines)


def test_allocation_stays_fast_on_a_large_hand():
    """ICE-REQ-2 on 12 requests and 24 city artifacts: exact and well under a second or two."""
    import random
    import time

    from domain.ice_expedition import RULES

    rng = random.Random(7)
    requests = sorted(RULES.data.requests.values(), key=lambda card: card["id"])
    artifacts = RULES.data.artifacts
    cards = rng.sample(requests, 12)
    city_arts = [{**artifacts[a], "id": a} for a in rng.sample(sorted(artifacts), 24)]
    started = time.perf_counter()
    total, lines = best_allocation(cards, city_arts, 2)
    assert time.perf_counter() - started < 10
    assert total == sum(line["points"] + (2 if line["points"] else 0) for line in lines)
