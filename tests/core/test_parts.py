"""Rule parts composed over a game's tables: order, wrapping, and the mistakes refused when composed."""
from __future__ import annotations

import pytest

from domain.core.parts import Composition, RulePart


def score(state: dict) -> int:
    return state["points"]


def doubled(state: dict, base) -> int:
    return 2 * base(state)


def plus_one(state: dict, base) -> int:
    return base(state) + 1


def compose(*parts: RulePart) -> Composition:
    return Composition(("greetings",), {"scoring": {"score": score}}, parts)


def test_hooks_run_in_the_order_of_the_parts_and_the_last_wrapper_is_the_outermost():
    first = RulePart("first", hooks={"greetings": ("hello",)}, wraps={"scoring": {"score": doubled}})
    second = RulePart("second", hooks={"greetings": ("ahoy", "hi")}, wraps={"scoring": {"score": plus_one}})
    assert compose(first, second).hooks("greetings") == ("hello", "ahoy", "hi")
    assert compose(first, second).table("scoring")["score"]({"points": 5}) == 11
    assert compose(second, first).table("scoring")["score"]({"points": 5}) == 12
    assert compose().hooks("greetings") == () and compose().table("scoring")["score"]({"points": 5}) == 5


def test_a_part_adds_new_entries_and_never_silently_replaces_one():
    own = RulePart("own", entries={"scoring": {"bonus": score}})
    assert set(compose(own).table("scoring")) == {"score", "bonus"}
    with pytest.raises(ValueError, match="has them already"):
        compose(RulePart("greedy", entries={"scoring": {"score": score}}))
    with pytest.raises(ValueError, match="has them already"):
        compose(own, RulePart("again", entries={"scoring": {"bonus": score}}))


@pytest.mark.parametrize("part", [
    RulePart("typo", hooks={"greeting": ("hello",)}),
    RulePart("typo", entries={"score": {"bonus": score}}),
    RulePart("typo", wraps={"scoring": {"scores": doubled}}),
])
def test_a_point_or_entry_the_game_lacks_is_refused(part):
    with pytest.raises(ValueError, match="typo"):
        compose(part)


def test_parts_and_compositions_cannot_be_changed():
    part = RulePart("own", entries={"scoring": {"bonus": score}})
    composition = compose(part)
    with pytest.raises(TypeError):
        composition.table("scoring")["score"] = doubled
    with pytest.raises(TypeError):
        part.entries["scoring"]["score"] = doubled
    with pytest.raises(AttributeError):
        composition.names = ()
