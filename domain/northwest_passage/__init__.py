"""Expedition: Northwest Passage, the Board Game Arena edition (rules: ../shared/rules/northwest-passage.md)."""
from domain.northwest_passage.rules import NorthwestPassage

RULES = NorthwestPassage()

__all__ = ["RULES", "NorthwestPassage"]
