"""``cairn bot`` as a user runs it: a real process against the real service, with a real worker auditing."""
from __future__ import annotations

import random
import re
import subprocess
import sys
import threading

from cairn_client import Client, RandomPolicy
from cairn_client.bot import SeatBot

from tests.client.conftest import checked_session
from tests.client.faults import Fault
from tests.client.test_games import tokens_of
from tests.workers.test_failures import ROOT

SOAK_SECONDS = 300
OPPONENT_SECONDS = 60


def cairn_bot(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "service.cli", "bot", *arguments], cwd=ROOT, capture_output=True,
                          text=True, timeout=SOAK_SECONDS)


def parse(run: subprocess.CompletedProcess) -> dict[str, int]:
    """The figures of the summary the bot prints last, by name."""
    line = run.stdout.strip().splitlines()[-1]
    found = dict(re.findall(r"(games|ended|moves|refusals|5xx|audits|audit failures|unfinished) (\d+)", line))
    return {name: int(count) for name, count in found.items()}


def test_a_soak_plays_every_game_to_the_end_audits_each_and_reports_no_failure(base_url, client, worker):
    run = cairn_bot("--url", base_url, "--create", "through-ice-and-snow", "--players", "2", "--games", "4",
                    "--concurrency", "2", "--seed", "soak")
    assert run.returncode == 0, run.stdout + run.stderr
    figures = parse(run)
    assert figures["games"] == figures["ended"] == figures["audits"] == 4
    assert figures["moves"] > 4 * 20
    assert figures["refusals"] == figures["5xx"] == figures["audit failures"] == figures["unfinished"] == 0
    games = list(client.iter_games())
    assert len(games) == 4 and all(game["status"] in ("ended", "scored") for game in games)
    assert all(client.check_integrity(game["game_id"])["ok"] for game in games)


def test_in_table_mode_the_bot_resolves_the_organisers_chance_decisions(base_url, client, worker):
    run = cairn_bot("--url", base_url, "--create", "through-ice-and-snow", "--chance-mode", "table", "--seed", "t")
    assert run.returncode == 0, run.stdout + run.stderr
    (game,) = client.iter_games()
    organiser = [event for event in client.iter_events(game["game_id"])
                 if event["type"] == "chance_resolved" and event["version"] > 1]
    assert game["chance_mode"] == "table" and game["status"] in ("ended", "scored") and organiser


def test_the_bot_plays_the_seats_it_is_given_beside_another_player(base_url, client):
    created = client.create_game("borealis", ["Bot", "Human"])
    game_id, tokens = created["game_id"], tokens_of(created)
    with Client(base_url, session=checked_session()) as other:
        human = SeatBot(other, game_id, {"p2": tokens["p2"]}, RandomPolicy(2), random.Random(2))
        opponent = threading.Thread(target=human.play, daemon=True)
        opponent.start()
        run = cairn_bot("--url", base_url, "--game", game_id, "--token", tokens["p1"], "--no-audit")
        assert run.returncode == 0, run.stdout + run.stderr
        opponent.join(OPPONENT_SECONDS)
        assert not opponent.is_alive(), "the other player still waits after the bot's game ended"
    assert parse(run)["ended"] == 1 and parse(run)["moves"] > 0
    assert client.get_game(game_id)["status"] in ("ended", "scored")


def test_a_5xx_or_an_audit_not_made_fails_the_run(proxy, base_url):
    proxy.fail(Fault("GET", "/games/", "refuse", status=503, retry_after="0"))
    run = cairn_bot("--url", proxy.url, "--create", "through-ice-and-snow", "--audit-timeout", "1")
    figures = parse(run)
    assert run.returncode == 1
    assert figures["ended"] == 1 and figures["unfinished"] == 0
    assert figures["5xx"] == 1 and figures["audit failures"] == 1
    assert "audit not made" in run.stderr


def test_cairn_bot_offers_the_search_bot_s_levels_beside_random_play():
    run = cairn_bot("--help")
    assert run.returncode == 0, run.stderr
    offered = re.search(r"--strength \{([a-z,]+)\}", run.stdout).group(1).split(",")
    assert sorted(offered) == ["medium", "random", "strong", "weak"]


def test_at_a_search_strength_the_bot_plays_a_whole_game_through_the_api(base_url, client):
    run = cairn_bot("--url", base_url, "--create", "borealis", "--strength", "weak", "--seed", "w", "--no-audit")
    assert run.returncode == 0, run.stdout + run.stderr
    figures = parse(run)
    assert figures["games"] == figures["ended"] == 1 and figures["moves"] > 20
    assert figures["refusals"] == figures["5xx"] == figures["unfinished"] == 0
    (game,) = client.iter_games()
    assert game["status"] in ("ended", "scored") and client.check_integrity(game["game_id"])["ok"]
