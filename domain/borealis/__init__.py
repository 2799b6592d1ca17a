"""Borealis: Arctic Expeditions, the game ``borealis``."""
from domain.borealis.rules import Borealis

RULES = Borealis()

__all__ = ["RULES", "Borealis"]
