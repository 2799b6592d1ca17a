"""A game's modules, variants and scenarios as values: rule parts, composed for a match from its options.

A game names its extension points: *hook points*, where it runs the hooks of the match's parts (or reads the
values they give, such as a state key every reader sees) after its own rules, in the order of the parts; and
*tables* (the steps of a round, the effects of action spaces, ...), to which a part adds entries or whose
entries it wraps. A :class:`RulePart` is what one module, variant or scenario puts at those points: a frozen
value that registers nothing anywhere. A :class:`Composition` lays the parts a match is played with over the
game's own tables, in the order the game gives, once; it never changes afterwards, so one composition serves
every match with the same options.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import Any

NOTHING: Mapping = MappingProxyType({})


@dataclass(frozen=True)
class RulePart:
    """One module, variant or scenario of a game.

    ``hooks``: hook point -> what the part adds there, run (or read) after what the parts before it added.
    ``entries``: table -> the keys the part adds to it; a key the table already has is a mistake, refused when
    composed, so no part silently replaces another's rule.
    ``wraps``: table -> key -> a function called as the entry with one more keyword argument, ``base``: the
    entry it takes the place of (the game's own, or the wrapper of a part listed before), which it calls for
    whatever it leaves as it was.
    """

    name: str
    hooks: Mapping[str, tuple] = field(default_factory=lambda: NOTHING)
    entries: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: NOTHING)
    wraps: Mapping[str, Mapping[str, Callable]] = field(default_factory=lambda: NOTHING)

    def __post_init__(self) -> None:
        """Read-only all the way down, like the value it is."""
        hooks = {point: tuple(added) for point, added in self.hooks.items()}
        object.__setattr__(self, "hooks", MappingProxyType(hooks))
        for name in ("entries", "wraps"):
            given = getattr(self, name)
            object.__setattr__(self, name, MappingProxyType({table: MappingProxyType(dict(added))
                                                             for table, added in given.items()}))


class Composition:
    """The rule parts of one option set laid over the game's hook points and tables, in the order given.

    A point or table no part touches reads as the game's own; naming a point or table the game does not have,
    or wrapping an entry it lacks, is refused when composed, so a misspelt hook is an error and not a rule
    quietly left out.
    """

    __slots__ = ("names", "_hooks", "_tables")

    def __init__(self, hook_points: Iterable[str], tables: Mapping[str, Mapping[str, Any]],
                 parts: Iterable[RulePart]) -> None:
        hooks: dict[str, list] = {point: [] for point in hook_points}
        composed = {name: dict(table) for name, table in tables.items()}
        chosen = tuple(parts)
        for part in chosen:
            for point, added in part.hooks.items():
                _known(part, point, hooks, "hook point").extend(added)
            for name, entries in part.entries.items():
                table = _known(part, name, composed, "table")
                taken = sorted(set(table) & set(entries))
                if taken:
                    raise ValueError(f"rule part {part.name!r} adds {taken} to {name!r}, which has them already")
                table.update(entries)
            for name, wrappers in part.wraps.items():
                table = _known(part, name, composed, "table")
                for key, wrapper in wrappers.items():
                    if key not in table:
                        raise ValueError(f"rule part {part.name!r} wraps {key!r} of {name!r}, which has no such entry")
                    table[key] = partial(wrapper, base=table[key])
        object.__setattr__(self, "names", tuple(part.name for part in chosen))
        object.__setattr__(self, "_hooks", {point: tuple(added) for point, added in hooks.items()})
        object.__setattr__(self, "_tables", {name: MappingProxyType(table) for name, table in composed.items()})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a composition never changes once built (not even {name!r})")

    def hooks(self, point: str) -> tuple:
        """What the parts added at a hook point, in their order (empty when none did)."""
        return self._hooks[point]

    def table(self, name: str) -> Mapping[str, Any]:
        """The game's table with the parts' entries and wrappers, read-only."""
        return self._tables[name]


def _known(part: RulePart, name: str, found: dict, kind: str) -> Any:
    if name not in found:
        raise ValueError(f"rule part {part.name!r} names {name!r}, which is no {kind} of its game")
    return found[name]
