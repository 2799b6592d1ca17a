"""Through Ice and Snow (base game, 2-4 players): rules engine for Cairn."""
from domain.through_ice_and_snow.rules import RULES

__all__ = ["RULES"]
