"""Every registered game, every player count, both chance modes: random legal play to the end."""
from __future__ import annotations

import pytest

from domain.core import SERVER, TABLE
from domain.registry import game_names, get_rules
from tests.conformance.harness import play_random_game

SEEDS = (1, 2, 3)


def cases():
    for name in game_names():
        for players in get_rules(name).player_counts:
            for mode in (SERVER, TABLE):
                for seed in SEEDS:
                    yield pytest.param(name, players, mode, seed, id=f"{name}-{players}p-{mode}-{seed}")


@pytest.mark.parametrize(("game", "players", "mode", "seed"), list(cases()))
def test_random_legal_play_conforms(game, players, mode, seed):
    report = play_random_game(get_rules(game), players, mode, seed)
    assert report.match.ended
