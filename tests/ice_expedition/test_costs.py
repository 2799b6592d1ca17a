"""Excavation cost vectors of section 7.1 (ICE-EXC-2), the defaults and every alternative reading."""
from __future__ import annotations

import pytest

from domain.ice_expedition import RULES
from domain.ice_expedition.costs import excavation_cost

DEFAULTS = {k: v for k, v in RULES.data.params.items() if not k.startswith("_")}


def cost(params=None, **situation):
    return excavation_cost({**DEFAULTS, **(params or {})}, **situation)


@pytest.mark.parametrize(
    ("case", "situation", "expected"),
    [
        ("C1", dict(covered_by_one=True, camp=True, nunatak=True, archaeologists=1, leaders=1), 2),
        ("C2", dict(covered_by_one=True, camp=True, nunatak=True, archaeologists=0, leaders=1), 3),
        ("C3", dict(covered_by_one=False, camp=True, nunatak=True, archaeologists=0, leaders=1), 3),
        ("C4", dict(covered_by_one=True, camp=True, nunatak=False, archaeologists=0, leaders=1), 3),
        ("C5", dict(covered_by_one=False, camp=False, nunatak=False, archaeologists=0, leaders=1), 2),
        ("C6", dict(covered_by_one=False, camp=False, nunatak=False, archaeologists=3, leaders=1), 0),
        ("C7", dict(covered_by_one=True, camp=False, nunatak=False, archaeologists=1, leaders=2), 1),
        ("C8", dict(covered_by_one=False, camp=True, nunatak=False, archaeologists=0, leaders=1, cryo=True), 2),
        ("C11", dict(covered_by_one=False, camp=False, nunatak=True, archaeologists=1, leaders=1), 2),
        ("C12", dict(covered_by_one=True, camp=False, nunatak=False, archaeologists=0, leaders=1), 3),
    ],
)
def test_cost_vectors_with_the_defaults(case, situation, expected):
    """ICE-EXC-2 (C1-C8, C11, C12); C8 is the CryoArchitects' extra archaeologist (ICE-GLD-1)."""
    assert cost(**situation) == expected


@pytest.mark.parametrize(
    ("base", "leader_counts", "stack", "stage", "expected"),
    [
        (3, True, True, "gross", 2),
        (3, True, False, "gross", 2),
        (3, False, True, "gross", 3),
        (4, True, True, "gross", 2),
        (3, True, True, "net", 4),
        (3, True, False, "net", 3),
        (4, True, True, "net", 4),
        (3, False, True, "net", 4),
        (4, False, True, "net", 4),
    ],
)
def test_case_c1_under_every_alternative_reading(base, leader_counts, stack, stage, expected):
    """AMB-2, AMB-3 and AMB-4 as options: the C1 table of section 7.1."""
    params = {"excavate_base_cost": base, "leader_counts_for_cost": leader_counts,
              "camp_and_nunatak_stack": stack, "excavate_cap_stage": stage}
    situation = dict(covered_by_one=True, camp=True, nunatak=True, archaeologists=1, leaders=1)
    assert cost(params, **situation) == expected


def test_net_stage_makes_c2_to_c4_cost_four():
    """AMB-4: under the net option the cap never lowers a base-3 cost and C2-C4 cost 4 (unpayable)."""
    net = {"excavate_cap_stage": "net"}
    assert cost(net, covered_by_one=True, camp=True, nunatak=True, archaeologists=0, leaders=1) == 4
    assert cost(net, covered_by_one=False, camp=True, nunatak=True, archaeologists=0, leaders=1) == 4
    assert cost(net, covered_by_one=True, camp=True, nunatak=False, archaeologists=0, leaders=1) == 4
