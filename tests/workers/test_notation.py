"""The Cairn notation: written from an export, read back, replayed through the rules to the same end."""
from __future__ import annotations

import pytest

from domain.core.canonical import canonical_json
from domain.core.events import make_event
from domain.registry import get_rules
from tests.workers.records import play, record
from workers.exports import export_game, game_folder
from workers.formats.notation import (
    Chance,
    Move,
    NotationError,
    ReplayError,
    parse_notation,
    replay_notation,
    token,
)


def notation_of(store, redis_client, export_dir, reader=None) -> str:
    saved = export_game(store, redis_client, "g1", "cairn", store.version("g1"), reader, export_dir)
    assert saved["content_type"].startswith("text/plain")
    return (game_folder(export_dir, "g1") / saved["file"]).read_text(encoding="utf-8")


def assert_round_trip(store, text: str) -> None:
    recorded = store.load("g1")
    parsed = parse_notation(text)
    replayed = replay_notation(parsed, get_rules(parsed.tags["Game"]))
    assert replayed.version == recorded.version and replayed.ended
    rules = recorded.rules
    assert canonical_json(rules.state_to_json(replayed.state)) == canonical_json(rules.state_to_json(recorded.state))
    assert canonical_json(replayed.score) == canonical_json(recorded.score) == parsed.tags["ScoreSheet"]


@pytest.mark.parametrize("mode, seed", [("server", "north"), ("table", None)])
@pytest.mark.parametrize("choice", [1, 2, 3])
def test_a_high_card_game_round_trips_through_the_notation(store, redis_client, export_dir, mode, seed, choice):
    record(store, "g1", play(mode=mode, seed=seed, choice=choice), seed=seed)
    assert_round_trip(store, notation_of(store, redis_client, export_dir))


@pytest.mark.parametrize("players", [("Ann", "Bo"), ("Ann", "Bo", "Cy")])
def test_a_borealis_game_round_trips_through_the_notation(store, redis_client, export_dir, players):
    record(store, "g1", play(players=players, choice=7, rules=get_rules("borealis")))
    assert_round_trip(store, notation_of(store, redis_client, export_dir))


def test_the_record_reads_as_tag_pairs_then_one_line_per_move(store, redis_client, export_dir):
    record(store, "g1", play(choice=3))
    text = notation_of(store, redis_client, export_dir)
    tags, moves = text.split("\n\n", 1)
    assert tags.splitlines()[0] == '[Game "high-card"]'
    assert '[P1 "Ann"]' in tags and '[Seed "north"]' in tags and "[Result " in tags
    lines = moves.splitlines()
    assert lines[0].startswith("2. * deal -> card-") and lines[0].endswith("{seen by p1}")
    assert any(line.split()[1:3] == ["p1", "ready"] for line in lines)
    assert lines[-2:] == [f"{store.version('g1') - 1}. end", f"{store.version('g1')}. scored"]


def test_a_seat_reads_its_own_draw_but_not_the_others_and_cannot_replay_them(store, redis_client, export_dir):
    record(store, "g1", play(choice=3)[:1])
    text = notation_of(store, redis_client, export_dir, reader="p1")
    draws = [line for line in parse_notation(text).lines if isinstance(line, Chance)]
    assert draws[0].outcome is not None and draws[1].outcome is None
    assert "{hidden from this reader}" in text
    with pytest.raises(ReplayError) as refused:
        replay_notation(parse_notation(text), get_rules("high-card"))
    assert refused.value.version == draws[1].version


def test_values_are_bare_words_when_unambiguous_and_json_otherwise():
    assert [token(v) for v in ("polar-bear#2", "4", "two words", 4, True, None, ["a", 1], {"k": "v"})] == [
        "polar-bear#2", '"4"', '"two words"', "4", "true", "null", '["a",1]', '{"k":"v"}']
    text = ('[Game "x \\"quoted\\""]\n\n'
            '; a whole-line comment\n'
            '7. p2 observe at=polar-bear@left n=3 label="two words" cards=["a","b"] opt={"x":1} {a comment}\n'
            '8. * tile -> "4",t-7 ; a trailing comment\n')
    parsed = parse_notation(text)
    assert parsed.tags == {"Game": 'x "quoted"'}
    assert parsed.lines == [
        Move(7, "p2", {"type": "observe", "at": "polar-bear@left", "n": 3, "label": "two words", "cards": ["a", "b"],
                       "opt": {"x": 1}}),
        Chance(8, "tile", ["4", "t-7"]),
    ]


def test_a_malformed_line_is_refused_with_its_line_number():
    with pytest.raises(NotationError) as refused:
        parse_notation('[Game "x"]\n\n3. p1 keep\nfour. p2 keep\n')
    assert refused.value.line == 4


def test_a_move_the_rules_refuse_stops_the_replay_at_its_version(store, redis_client, export_dir):
    record(store, "g1", play(choice=3))
    text = notation_of(store, redis_client, export_dir)
    first_move = next(line for line in parse_notation(text).lines if isinstance(line, Move))
    edited = text.replace(f"{first_move.version}. p1 ", f"{first_move.version}. p2 ", 1)
    with pytest.raises(ReplayError) as refused:
        replay_notation(parse_notation(edited), get_rules("high-card"))
    assert refused.value.version == first_move.version


def test_the_live_record_shows_every_reader_the_moves_that_name_no_secret(store, redis_client, export_dir):
    """A mulligan's discards are face up: the public and the other seats read them while the game runs."""
    batches = play(players=("Ann", "Bo"), choice=7, rules=get_rules("borealis"))
    record(store, "g1", batches[:3])
    for reader in (None, "p1", "p2"):
        moves = [line for line in parse_notation(notation_of(store, redis_client, export_dir, reader)).lines
                 if isinstance(line, Move)]
        assert [move.command["type"] for move in moves] == ["mulligan", "mulligan"], reader
        assert [move.command["discard_card_ids"] for move in moves] == [
            command["discard_card_ids"] for _events, command in batches[1:3]]


def test_a_move_naming_another_seats_secret_stays_withheld_from_the_other_readers(store, redis_client, export_dir):
    opening, _ = play(choice=3)[0]
    p1_card = next(event["secret"]["outcome"][0] for event in opening if event.get("secret_to") == ["p1"])
    command = {"type": "keep", "seat": "p1", "hint": p1_card}
    record(store, "g1", [(opening, None), ([make_event("card_kept", seat="p1")], command)])
    for reader in (None, "p2"):
        text = notation_of(store, redis_client, export_dir, reader)
        assert p1_card not in text.split("\n\n", 1)[1].replace("{seen by p1}", "")
        assert any(isinstance(line, Move) and line.command is None for line in parse_notation(text).lines)
    own = parse_notation(notation_of(store, redis_client, export_dir, "p1")).lines
    assert any(isinstance(line, Move) and line.command == {"type": "keep", "hint": p1_card} for line in own)


def test_a_game_with_a_takeback_round_trips_and_notes_what_was_taken_back(store, redis_client, export_dir):
    """TABLE-TAKEBACK-3 in the notation: the accept line is followed by a comment naming the versions."""
    batches = play(players=("Ann", "Bo", "Cy"), choice=7, rules=get_rules("borealis"), takeback_after=5)
    record(store, "g1", batches)
    text = notation_of(store, redis_client, export_dir)
    taken = next(event for events, _ in batches for event in events if event["type"] == "moves_taken_back")
    first, last = taken["data"]["to_version"] + 1, taken["data"]["from_version"]
    shown = f"version {first}" if first == last else f"versions {first}-{last}"
    lines = text.splitlines()
    note = next(index for index, line in enumerate(lines) if line.startswith("; ") and "taken back" in line)
    assert lines[note] == f"; {shown} taken back: the game is as at version {taken['data']['to_version']}"
    assert " accept_takeback" in lines[note - 1]
    assert_round_trip(store, text)
