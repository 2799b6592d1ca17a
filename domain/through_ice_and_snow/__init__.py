"""Through Ice and Snow (base game for 2-4 players, its modules and its single-player scenarios): rules engine
for Cairn."""
from domain.through_ice_and_snow.rules import RULES

__all__ = ["RULES"]
