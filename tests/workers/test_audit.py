"""Audits: the chain, every command re-decided by today's rules, every draw re-derived from the seed."""
from __future__ import annotations

import pytest

from domain.core.canonical import canonical_json, sha256_hex
from domain.core.events import make_event
from domain.registry import get_rules
from service.store.envelope import hidden_parts_intact
from tests.core.high_card import RULES
from tests.workers.records import play, record
from tests.workers.tamper import rewrite
from workers.audit import audit_game, audit_report
from workers.queues import enqueue_audit


def chance_versions(store, game_id: str = "g1") -> list[int]:
    return [e["version"] for e in store.read(game_id) if e["type"] == "chance_resolved"]


@pytest.mark.cluster
def test_an_untouched_game_passes_and_its_report_is_kept(store, redis_client, queue_client, drain):
    record(store, "g1", play(choice=5))
    version = store.version("g1")
    enqueue_audit(queue_client, "g1", version)
    drain()
    report = audit_report(redis_client, "g1", version)
    assert report["ok"] and report["first_failure"] is None
    assert report["events_checked"] == version
    assert report["chance_outcomes_rederived"] == len(chance_versions(store))
    assert report["commands_redecided"] >= 4


def test_an_edited_event_breaks_the_chain_at_its_version(store, redis_client):
    record(store, "g1", play(choice=1))
    rewrite(redis_client, "g1", 4, lambda e: e["data"].update(forged=True), rechain=False)
    report = audit_game(store, redis_client, "g1", store.version("g1"))
    assert not report["ok"]
    assert report["first_failure"]["version"] == 4 and report["first_failure"]["check"] == "chain"


def test_a_rechained_forgery_of_a_draw_is_caught_by_the_seed(store, redis_client):
    """The forger rewrites every later hash, so the chain holds; the seed still draws another card."""
    record(store, "g1", play(choice=1))
    first_draw = chance_versions(store)[0]

    def swap_card(envelope):
        drawn = envelope["secret"]["outcome"][0]
        envelope["secret"]["outcome"] = ["card-10" if drawn != "card-10" else "card-1"]
        envelope["secret_hash"] = "0" * 64

    rewrite(redis_client, "g1", first_draw, swap_card, rechain=True)
    report = audit_game(store, redis_client, "g1", store.version("g1"))
    assert report["first_failure"]["version"] == first_draw
    assert report["first_failure"]["check"] == "secret"


def test_a_forged_draw_with_a_matching_secret_hash_is_caught_by_re_deriving_it(store, redis_client):
    record(store, "g1", play(choice=1))
    first_draw = chance_versions(store)[0]

    def swap_card(envelope):
        drawn = envelope["secret"]["outcome"][0]
        envelope["secret"]["outcome"] = ["card-10" if drawn != "card-10" else "card-1"]
        envelope["secret_hash"] = sha256_hex(envelope["secret_salt"] + canonical_json(envelope["secret"]))

    rewrite(redis_client, "g1", first_draw, swap_card, rechain=True)
    assert hidden_parts_intact(store.read("g1", first_draw, first_draw)[0])
    report = audit_game(store, redis_client, "g1", store.version("g1"))
    assert report["first_failure"]["check"] in ("adjudication", "chance")
    assert report["first_failure"]["version"] == first_draw


def test_rules_that_now_decide_differently_are_reported_at_the_first_such_command(store, redis_client, monkeypatch):
    record(store, "g1", play(choice=0))
    ready = next(e["version"] for e in store.read("g1") if e.get("command", {}).get("type") == "ready")
    original = RULES.decide

    def stricter(state, seat, command):
        if command["type"] == "ready":
            return [make_event("ready", {"checked": True})]
        return original(state, seat, command)

    monkeypatch.setattr(RULES, "decide", stricter)
    report = audit_game(store, redis_client, "g1", store.version("g1"))
    assert report["first_failure"]["version"] == ready
    assert report["first_failure"]["check"] == "adjudication"
    assert report["first_failure"]["expected"]["data"] == {"checked": True}


def test_an_audit_of_a_game_in_play_does_not_show_hidden_values(store, redis_client):
    record(store, "g1", play(choice=1)[:3])
    first_draw = chance_versions(store)[0]
    rewrite(redis_client, "g1", first_draw, lambda e: e["secret"].update(outcome=["card-1"]), rechain=False)
    report = audit_game(store, redis_client, "g1", store.version("g1"))
    assert not report["ok"] and not report["seed_revealed"]
    assert report["first_failure"]["recorded"] is None and report["first_failure"]["expected"] is None


def test_a_table_mode_game_is_re_decided_from_the_organisers_recorded_draws(store, redis_client):
    record(store, "g1", play(mode="table", seed=None, choice=4), seed=None)
    report = audit_game(store, redis_client, "g1", store.version("g1"))
    assert report["ok"], report
    assert report["commands_redecided"] >= 6


def test_a_borealis_game_passes_its_audit(store, redis_client):
    record(store, "g1", play(players=("Ann", "Bo", "Cy"), choice=7, rules=get_rules("borealis")))
    report = audit_game(store, redis_client, "g1", store.version("g1"))
    assert report["ok"], report["first_failure"]
    assert report["commands_redecided"] > 50 and report["chance_outcomes_rederived"] > 10


def test_a_game_with_a_takeback_passes_its_audit(store, redis_client):
    """The audit decides the takeback's commands again and folds moves_taken_back like the store."""
    record(store, "g1", play(players=("Ann", "Bo", "Cy"), choice=7, rules=get_rules("borealis"), takeback_after=5))
    assert store.load("g1").takeback.taken_back
    report = audit_game(store, redis_client, "g1", store.version("g1"))
    assert report["ok"], report["first_failure"]
