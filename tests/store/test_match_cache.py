"""The API process's cache of folded games: a match one request reads is never changed under it by another."""
from __future__ import annotations

from domain.core.match import match_to_json, submit_and_fold, waiting_for
from service.api.matches import MatchCache
from tests.store.conftest import SEED, new_game, play


def keep(match):
    """Fold the waiting seat's 'keep' into ``match`` itself, as a move taken from the cache is."""
    return submit_and_fold(match, waiting_for(match)[0], {"type": "keep"}, SEED, in_place=True)[1]


def test_a_match_handed_to_a_reader_is_copied_before_a_move_folds_into_it(store):
    new_game(store, "g1")
    cache = MatchCache(store)
    version = store.version("g1")
    read = cache.current("g1", version)
    seen = match_to_json(read)
    taken = cache.take("g1", version)
    keep(taken)
    assert match_to_json(read) == seen
    assert taken.version > read.version


def test_a_match_no_reader_holds_is_folded_without_a_copy(store):
    match = new_game(store, "g1")
    cache = MatchCache(store)
    cache.remember("g1", match)
    assert cache.take("g1", match.version) is match
    again = cache.take("g1", match.version)
    assert again is not match, "a taken match is out of the cache until remembered again: the store loads the game"
    assert match_to_json(again) == match_to_json(match)


def test_take_brings_a_match_forward_by_the_events_it_lacks(store):
    match = new_game(store, "g1")
    cache = MatchCache(store)
    cache.remember("g1", match)
    behind = match_to_json(match)
    live = store.load("g1")
    play(store, "g1", live, commands=1)
    taken = cache.take("g1", live.version)
    assert match_to_json(taken) == match_to_json(live)
    assert behind != match_to_json(taken)


def test_take_gives_the_game_as_it_stands_for_a_version_it_has_not_reached(store):
    match = new_game(store, "g1")
    cache = MatchCache(store)
    cache.remember("g1", match)
    assert cache.take("g1", match.version + 1).version == match.version
    assert cache.take("g1", match.version + 5).version == match.version, "and so does the store"
