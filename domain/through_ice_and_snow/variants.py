"""The translator's variant (TIS-VOY-5): one more species card revealed in Card setup after a coastal voyage.

Played with the option ``variant_coastal_extra_species``.
"""
from __future__ import annotations

from domain.core.parts import RulePart
from domain.through_ice_and_snow import voyage
from domain.through_ice_and_snow.board import State


def coastal_extra_species(state: State) -> int:
    return 1 if state["voyage"] == voyage.COASTAL else 0


PART = RulePart("variant_coastal_extra_species", hooks={"extra_species": (coastal_extra_species,)})
