"""Events that change shape: an old history, recorded before a change, still replays, verifies and audits."""
from __future__ import annotations

import pytest

from domain.core import make_event
from domain.core.match import apply_event, create, submit
from domain.core.upcasting import EventSchema, UndeclaredEvent
from domain.registry import game_names, get_rules
from service.store import EventStore
from tests.core.high_card import HighCard
from tests.store.conftest import SEED, new_game, play
from workers.history import HistoryCheck


class HighCardWithNamedSwaps(HighCard):
    """High Card after ``card_swapped`` moved to version 2: ``{"card"}`` became ``{"returned_card"}``."""

    def event_schema(self) -> EventSchema:
        return EventSchema(self.name, self.event_types(), versions={"card_swapped": 2},
                           upcasters={("card_swapped", 1): lambda data: {"returned_card": data["card"]}})

    def apply(self, state, event):
        if event["type"] == "card_swapped":
            event = {**event, "data": {"card": event["data"]["returned_card"]}}
        return super().apply(state, event)

    def decide(self, state, seat, command):
        if command["type"] == "swap":
            swapped = super().decide(state, seat, command)[0]
            return [make_event("card_swapped", {"returned_card": command["card"]}, seat=swapped["seat"])]
        return super().decide(state, seat, command)


V2 = HighCardWithNamedSwaps()


def swap_game(store: EventStore, game_id: str) -> None:
    """A game whose first seat swaps its card: one ``card_swapped`` event at schema version 1."""
    match = new_game(store, game_id)
    move = {"type": "swap", "card": match.state["hands"]["p1"]}
    events = submit(match, "p1", move, SEED)
    store.append(game_id, match.version, events, command={**move, "seat": "p1"}, command_id="swap",
                 idempotency_key=None)
    for event in events:
        apply_event(match, event)
    play(store, game_id, match)


def test_a_history_written_at_version_1_replays_verifies_and_audits_under_version_2(store, redis_client):
    swap_game(store, "shapes")
    recorded = store.read("shapes", 1)
    swapped = next(envelope for envelope in recorded if envelope["type"] == "card_swapped")
    assert swapped["schema_version"] == 1 and "card" in swapped["data"]
    before = store.load("shapes")

    upgraded = EventStore(redis_client, snapshot_every=0, rules_for=lambda name: V2)
    after = upgraded.load("shapes")
    assert after.state == before.state and after.version == before.version
    assert upgraded.verify_chain("shapes").ok

    audit = HistoryCheck(lambda name: V2, SEED, adjudicate=True)
    for envelope in upgraded.read("shapes", 1):
        audit.feed(envelope)
    assert audit.finish() is None
    assert audit.commands_checked > 0


def test_an_event_decided_at_version_2_is_stored_with_its_version():
    match, _ = create(V2, {}, ["Ann", "Bo"], "server", SEED)
    events = submit(match, "p1", {"type": "swap", "card": match.state["hands"]["p1"]}, SEED)
    assert events[0]["type"] == "card_swapped"
    assert events[0]["schema_version"] == 2 and events[0]["data"] == {"returned_card": match.state["hands"]["p1"]}


@pytest.mark.parametrize("game", game_names())
def test_every_game_refuses_to_fold_an_event_type_it_does_not_declare(game):
    match, _ = create(get_rules(game), {}, ["Ann", "Bo"], "server", SEED)
    stray = make_event("made_up_event", {"x": 1}, seat="p1")
    with pytest.raises(UndeclaredEvent, match=f"no event type 'made_up_event' at version {match.version + 1}"):
        apply_event(match, stray)


def test_an_event_of_a_version_the_game_does_not_know_is_refused():
    match, _ = create(V2, {}, ["Ann", "Bo"], "server", SEED)
    future = {**make_event("card_swapped", {"returned_card": "card-1"}, seat="p1"), "schema_version": 3}
    with pytest.raises(UndeclaredEvent, match="schema version 3"):
        apply_event(match, future)


def test_the_audit_reports_an_undeclared_event_at_its_version(store, redis_client):
    swap_game(store, "stray")
    envelopes = store.read("stray", 1)
    envelopes[3] = {**envelopes[3], "type": "made_up_event"}
    audit = HistoryCheck(lambda name: get_rules(name), SEED, adjudicate=False)
    for envelope in envelopes:
        audit.feed(envelope)
    finding = audit.finish()
    assert (finding.version, finding.check) == (4, "event_type")
    assert "made_up_event" in finding.message
