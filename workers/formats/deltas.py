"""Views as changes from the previous version, so a replay of hundreds of versions stays small.

Consecutive views of a game differ in a few fields. A change is ``[path, value]`` (set), ``[path]``
(delete) or ``[path, items, 1]`` (append ``items`` to the list at ``path``); a path is the list of keys and
indexes from the root. ``apply`` in the replay page's script reads the same three forms.
"""
from __future__ import annotations

APPEND = 1


def changes(before: object, after: object, path: tuple = ()) -> list[list]:
    """What turns ``before`` into ``after``; nothing when they are equal."""
    if before == after:
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        found: list[list] = [[[*path, key]] for key in before if key not in after]
        for key, value in after.items():
            if key in before:
                found.extend(changes(before[key], value, (*path, key)))
            else:
                found.append([[*path, key], value])
        return found
    if isinstance(before, list) and isinstance(after, list):
        if len(before) == len(after):
            return [change for index, (old, new) in enumerate(zip(before, after, strict=True))
                    for change in changes(old, new, (*path, index))]
        if len(before) < len(after) and after[:len(before)] == before:
            return [[list(path), after[len(before):], APPEND]]
    return [[list(path), after]]
