"""A level's settings beyond its budget: the errors and hasty moves it makes, its playouts, its settings per game."""
from __future__ import annotations

import random

import pytest

from bots import LEVELS, Level, RandomPolicy, SearchPolicy, policy
from bots.games import Knowledge
from bots.play import play
from bots.search import Budget
from domain.core.match import Match, legal_moves
from domain.registry import game_names, get_rules

SMALL = Budget(iterations=4, rollout_depth=4)


def every_other(state: dict, seat: str, moves: list[dict]) -> list[dict]:
    """A pruning that reads only the moves, so the test knows what it keeps whatever world was sampled."""
    return moves[::2]


def moves_of_p1(bot: SearchPolicy, steps: int = 60) -> list[tuple[dict, list[dict]]]:
    """The first ``steps`` moves of a Borealis game with ``bot`` as p1 against random play: p1's choices, each
    with what it was offered."""
    chosen: list[tuple[dict, list[dict]]] = []

    def seen(match: Match, actor: str, move: dict, events: list) -> None:
        if actor == "p1":
            chosen.append((move, legal_moves(match, actor)))

    play(get_rules("borealis"), {"p1": bot, "p2": RandomPolicy(5)}, seed=3, max_steps=steps, on_submit=seen)
    return chosen


def test_a_level_that_always_errs_plays_only_moves_its_game_s_pruning_keeps(monkeypatch):
    monkeypatch.setattr("bots.searcher.knowledge_for", lambda game: Knowledge(prune=every_other))
    bot = SearchPolicy(Level(SMALL, errors=1.0), seed=11)
    chosen = moves_of_p1(bot)
    choices = [(move, offered) for move, offered in chosen if len(offered) > 1]
    assert len(choices) > 10
    assert all(move in offered[::2] for move, offered in choices)
    assert bot.stats["errors"] == len(choices)
    # Drawn among the kept moves, not always the first of them.
    assert any(move != offered[0] for move, offered in choices)


def test_a_level_s_errors_are_reproducible_from_its_seed(monkeypatch):
    monkeypatch.setattr("bots.searcher.knowledge_for", lambda game: Knowledge(prune=every_other))
    first = moves_of_p1(SearchPolicy(Level(SMALL, errors=0.5), seed=4))
    again = moves_of_p1(SearchPolicy(Level(SMALL, errors=0.5), seed=4))
    other = moves_of_p1(SearchPolicy(Level(SMALL, errors=0.5), seed=9))
    assert first == again
    assert first != other


def test_a_level_errs_on_about_its_share_of_turns():
    bot = SearchPolicy(Level(SMALL, errors=0.3), seed=2)
    choices = [move for move, offered in moves_of_p1(bot, steps=160) if len(offered) > 1]
    assert 0.1 < bot.stats["errors"] / len(choices) < 0.5


def test_a_level_without_errors_always_searches():
    bot = SearchPolicy(Level(SMALL), seed=2)
    moves_of_p1(bot)
    assert bot.stats["errors"] == 0


def last(state: dict, seat: str, moves: list[dict], rng: random.Random) -> dict:
    """A rollout policy whose pick the test can tell from the offered moves alone."""
    return moves[-1]


def test_a_level_that_is_always_hasty_plays_its_game_s_rollout_move(monkeypatch):
    monkeypatch.setattr("bots.searcher.knowledge_for", lambda game: Knowledge(rollout=last))
    bot = SearchPolicy(Level(SMALL, hasty=1.0), seed=11)
    choices = [(move, offered) for move, offered in moves_of_p1(bot) if len(offered) > 1]
    assert len(choices) > 10
    assert all(move == offered[-1] for move, offered in choices)
    assert bot.stats["hasty"] == len(choices)


def test_a_hasty_level_searches_a_game_without_a_rollout_policy(monkeypatch):
    monkeypatch.setattr("bots.searcher.knowledge_for", lambda game: Knowledge())
    bot = SearchPolicy(Level(SMALL, hasty=1.0), seed=11)
    moves_of_p1(bot)
    assert bot.stats["hasty"] == 0


def test_a_level_errs_before_it_is_hasty(monkeypatch):
    """A turn drawn for an error is an error, whatever the hasty share: the two shares add up."""
    monkeypatch.setattr("bots.searcher.knowledge_for", lambda game: Knowledge(rollout=last, prune=every_other))
    bot = SearchPolicy(Level(SMALL, errors=1.0, hasty=1.0), seed=11)
    moves_of_p1(bot)
    assert bot.stats["errors"] > 10 and bot.stats["hasty"] == 0


def test_a_level_plays_a_game_with_the_settings_it_holds_for_that_game():
    level = Level(SMALL, errors=0.3, games={"borealis": Level(SMALL, hasty=0.5)})
    assert level.for_game("borealis") == Level(SMALL, hasty=0.5)
    assert level.for_game("ice-expedition") is level


@pytest.mark.parametrize("share", [-0.1, 1.5])
@pytest.mark.parametrize("name", ["errors", "hasty"])
def test_a_share_of_turns_outside_0_to_1_is_refused(name, share):
    with pytest.raises(ValueError, match=f"{name} is a share of turns"):
        Level(SMALL, **{name: share})


def test_every_level_s_settings_per_game_name_a_registered_game():
    names = set(game_names())
    for level in LEVELS.values():
        if level is not None:
            assert set(level.games) <= names


def test_a_named_level_is_a_search_at_that_level_and_random_is_uniform_play():
    assert isinstance(policy("random", 1), RandomPolicy)
    bot = policy("weak", 1)
    assert isinstance(bot, SearchPolicy) and bot.level is LEVELS["weak"]
