"""Through Ice and Snow (base game for 2-4 players, its modules and its single-player scenarios): rules engine
for Cairn.

How the options become rule parts
---------------------------------
The base game is the engine files, laid out as every game package is (docs/game-packages.md): rules.py (the
interface, handing each method on), setup.py, decide.py, apply.py, legal.py, draws.py (the chance draws), view.py,
scoring.py and catalogue.py, with board.py (the state's helpers), flow.py (the order of play), voyage.py,
actions.py, decisions.py and tracks.py. Each module, the translator's variant and each single-player scenario
is a rule part, the ``PART`` at the end of its file (survival.py, shelter.py, dual_species.py, myths.py,
walking.py, legendary.py, explorers.py, variants.py, solo.py for what every scenario shares, and the four
scenario files): a value naming the steps and action effects it wraps, the entries it adds to the base game's
tables (its action spaces, event cards, decisions, chance draws) and the hooks it runs at the base game's hook
points. Importing a file registers nothing anywhere.

A match's options choose its parts (``parts.chosen``): a module by its option, the explorers when Legendary
Expeditions uses explorer cards, a scenario with the single-player rules and Survival (Amundsen's Voyage with
Legendary Expeditions too); every match keeps the Survival record of the columns paid for. ``parts.composed`` lays
them over the base game's tables in one order, ``parts.ORDER``: the single-player rules, Amundsen's Voyage, Dual
Animal Species, Mysterious Epidemic, Legendary Expeditions, the explorers, Lost Expedition, Magnetic North Pole,
Inuit Myths, Shelter Building, the Survival record, Survival, Walking on Ice, the translator's variant. Hooks run in
that order and the last part to wrap a step is the outermost; parts.py says what the order decides. A composition is
built once per option set and never changed. The match's state holds its composition (``state["parts"]``, left out
of the state's JSON and chosen again from the options when it is read back), and the engine reads every hook and
table there. The base box's optional components (extra event cards, all upgrades, whale hunting) are the base game's
own setup choices (``setup.new_state``).
"""
from domain.through_ice_and_snow.rules import RULES

__all__ = ["RULES"]
