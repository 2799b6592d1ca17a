"""The engine common to every game, exercised through a tiny game."""
from __future__ import annotations

import pytest

from domain.core import ORGANISER, SERVER, TABLE, IllegalMove
from domain.core.canonical import canonical_json, sha256_hex
from domain.core.chance import ChanceNode, derive_outcome
from domain.core.match import apply_event, create, legal_moves, match_to_json, redact, replay, submit, view
from tests.conformance.harness import play_random_game
from tests.core.high_card import RULES


@pytest.mark.parametrize("mode", [SERVER, TABLE])
@pytest.mark.parametrize("players", [2, 3])
def test_high_card_conforms(players, mode):
    for seed in range(5):
        assert play_random_game(RULES, players, mode, seed).match.ended


def test_server_mode_commits_to_the_seed_and_reveals_it_at_the_end():
    match, events = create(RULES, {}, ["Ann", "Bo"], SERVER, "s3cret")
    assert events[0]["data"]["seed_hash"] == sha256_hex("s3cret")
    assert "s3cret" not in str(events)
    while not match.ended:
        seat = match.rules.to_act(match.state)[0]
        for event in submit(match, seat, legal_moves(match, seat)[0], "s3cret"):
            apply_event(match, event)
    assert match.seed == "s3cret"


def test_server_draws_are_rederivable_from_the_seed():
    match, events = create(RULES, {}, ["Ann", "Bo"], SERVER, "abc")
    for version, event in enumerate(events, start=1):
        if event["type"] == "chance_resolved":
            earlier = replay(events[: version - 1], lambda name: RULES)
            node = RULES.chance_node(earlier.state)
            assert event["secret"]["outcome"] == derive_outcome("abc", version, node)


def test_derive_outcome_draws_distinct_candidates():
    node = ChanceNode("deck", tuple(str(n) for n in range(10)), count=10)
    assert sorted(derive_outcome("x", 7, node)) == sorted(node.candidates)


def test_table_mode_waits_for_the_organiser_and_refuses_impossible_draws():
    match, events = create(RULES, {}, ["Ann", "Bo"], TABLE, None)
    assert len(events) == 1
    assert view(match, None)["waiting_for"] == [ORGANISER]
    with pytest.raises(IllegalMove) as refused:
        submit(match, ORGANISER, {"type": "resolve_chance", "outcome": ["card-11"]})
    assert refused.value.code == "impossible_outcome"
    with pytest.raises(IllegalMove) as refused:
        submit(match, "p1", {"type": "keep"})
    assert refused.value.code == "chance_pending"
    for event in submit(match, ORGANISER, {"type": "resolve_chance", "outcome": ["card-4"]}):
        apply_event(match, event)
    with pytest.raises(IllegalMove) as refused:
        submit(match, ORGANISER, {"type": "resolve_chance", "outcome": ["card-4"]})
    assert refused.value.code == "impossible_outcome"


def test_secret_outcomes_are_redacted_for_other_seats_until_the_end():
    match, events = create(RULES, {}, ["Ann", "Bo"], SERVER, "k")
    deal_to_p1 = events[1]
    assert redact(match, deal_to_p1, "p1")["secret"]["outcome"]
    assert "secret" not in redact(match, deal_to_p1, "p2")
    assert "secret" not in redact(match, deal_to_p1, None)
    assert redact(match, deal_to_p1, ORGANISER)["secret"]


def test_a_refused_command_changes_nothing():
    match, _ = create(RULES, {}, ["Ann", "Bo"], SERVER, "k")
    before = RULES.state_to_json(RULES.copy_state(match.state))
    with pytest.raises(IllegalMove) as refused:
        submit(match, "p1", {"type": "swap", "card": "card-99"}, "k")
    assert refused.value.rule_id == "HC-2" and refused.value.field == "card"
    with pytest.raises(IllegalMove) as refused:
        submit(match, "p2", {"type": "keep"}, "k")
    assert refused.value.code == "not_your_turn"
    assert RULES.state_to_json(match.state) == before


def test_a_field_the_move_does_not_declare_is_refused_and_changes_nothing():
    """A field the move's declaration does not list is refused, naming it; ``seat`` is not one."""
    match, _ = create(RULES, {}, ["Ann", "Bo"], SERVER, "k")
    before = canonical_json(match_to_json(match))
    card = match.state["hands"]["p1"]
    for command, name in (({"type": "swap", "card": card, "colour": "red"}, "colour"),
                          ({"type": "keep", "card": card}, "card")):
        with pytest.raises(IllegalMove) as refused:
            submit(match, "p1", command, "k")
        assert (refused.value.code, refused.value.field) == ("unknown_field", name)
        assert refused.value.message == f"'{name}' is not a field of a {command['type']} move"
        assert canonical_json(match_to_json(match)) == before
    assert submit(match, "p1", {"type": "swap", "card": card, "seat": "p1"}, "k")


def test_the_organiser_resolves_chance_with_an_outcome_only():
    match, _ = create(RULES, {}, ["Ann", "Bo"], TABLE, None)
    with pytest.raises(IllegalMove) as refused:
        submit(match, ORGANISER, {"type": "resolve_chance", "outcome": ["card-4"], "shuffled": True})
    assert (refused.value.code, refused.value.field) == ("unknown_field", "shuffled")


def test_options_are_checked_against_the_schema():
    with pytest.raises(IllegalMove) as refused:
        create(RULES, {"swaps": 5}, ["Ann", "Bo"], SERVER, "k")
    assert refused.value.field == "options.swaps"
    with pytest.raises(IllegalMove) as refused:
        create(RULES, {}, ["Ann"], SERVER, "k")
    assert refused.value.code == "invalid_player_count"


def test_a_match_survives_a_json_round_trip():
    import json

    from domain.core.match import match_from_json, match_to_json

    match, _ = create(RULES, {}, ["Ann", "Bo"], SERVER, "k")
    again = match_from_json(json.loads(json.dumps(match_to_json(match))), RULES)
    assert match_to_json(again) == match_to_json(match)
