"""What an excavation costs (ICE-EXC-2), with every alternative reading of AMB-2, AMB-3 and AMB-4 as a parameter."""
from __future__ import annotations


def excavation_cost(
    params: dict,
    *,
    covered_by_one: bool,
    camp: bool,
    nunatak: bool,
    archaeologists: int,
    leaders: int,
    cryo: bool = False,
) -> int:
    """ICE-EXC-2: base plus surcharges, capped at 4, minus one per explorer on the tile.

    ``excavate_cap_stage`` says whether the cap limits the gross cost (before the
    explorers' reduction, the spec's default) or the final cost (AMB-4);
    ``leader_counts_for_cost`` whether leaders are explorers here (AMB-2);
    ``camp_and_nunatak_stack`` whether a camp on a Nunatak costs +2 or +1 (AMB-3).
    ICE-GLD-1: the CryoArchitects count one archaeologist more on a tile with a camp.
    """
    gross = params["excavate_base_cost"] + (1 if covered_by_one else 0)
    if params["camp_and_nunatak_stack"]:
        gross += (1 if camp else 0) + (1 if nunatak else 0)
    elif camp or nunatak:
        gross += 1
    reduction = archaeologists + (leaders if params["leader_counts_for_cost"] else 0) + (1 if cryo else 0)
    cap, floor = params["excavate_cost_cap"], params["excavate_cost_floor"]
    if params["excavate_cap_stage"] == "gross":
        return max(floor, min(cap, gross) - reduction)
    return min(cap, max(floor, gross - reduction))
