"""Following a game live with the client: every event once and in order, through idle ends and cut connections."""
from __future__ import annotations

import threading
import time

from tests.client.faults import Fault
from tests.client.test_games import play_to_the_end, tokens_of


def stream_path(game_id: str) -> str:
    return f"/games/{game_id}/stream"


def test_a_follower_gets_every_move_once_across_idle_ends_and_stops_when_the_game_is_over(proxied, proxy, client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)

    def play_slowly() -> None:
        view = client.get_game(game_id)
        while view["status"] == "active":
            time.sleep(1.3)  # longer than the stream's idle end (1 s in these tests)
            seat = view["waiting_for"][0]
            move = client.get_legal_moves(game_id, token=tokens[seat])["moves"][0]
            client.submit_move(game_id, move, token=tokens[seat])
            view = client.get_game(game_id)

    player = threading.Thread(target=play_slowly)
    player.start()
    followed = [event["version"] for event in proxied.follow_game(game_id, token=tokens["p1"])]
    player.join()
    final = client.get_game(game_id)["version"]
    assert final > created["version"]
    assert followed == list(range(created["version"] + 1, final + 1))
    resumes = [headers.get("Last-Event-ID") for headers in proxy.requests_to("GET", stream_path(game_id))][1:]
    assert len(resumes) >= 4 and all(resumes)


def test_a_stream_cut_mid_message_is_resumed_after_the_last_whole_event(proxied, proxy, client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id = created["game_id"]
    play_to_the_end(client, game_id, tokens_of(created))
    proxy.fail(Fault("GET", stream_path(game_id), "cut", after=1500))
    followed = list(proxied.follow_game(game_id, from_version=1))
    assert followed == list(client.iter_events(game_id))
    first, second = proxy.requests_to("GET", stream_path(game_id))[:2]
    assert "Last-Event-ID" not in first and 1 <= int(second["Last-Event-ID"]) < len(followed)


def test_without_resume_the_follower_stops_at_the_first_end(client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    assert list(client.follow_game(created["game_id"], resume=False)) == []


def test_a_follower_asking_for_views_hears_the_readers_view_after_each_batch_of_events(client):
    created = client.create_game("high-card", ["Ann", "Bo"])
    game_id, tokens = created["game_id"], tokens_of(created)
    play_to_the_end(client, game_id, tokens)
    final = client.get_game(game_id, token=tokens["p1"])
    heard: list[tuple[str, int]] = []
    views: list[dict] = []

    def on_view(view: dict) -> None:
        views.append(view)
        heard.append(("view", view["version"]))

    for event in client.follow_game(game_id, token=tokens["p1"], last_event_id=2, on_view=on_view):
        heard.append(("event", event["version"]))
    events = [("event", version) for version in range(3, final["version"] + 1)]
    assert heard == [("view", 2), *events, ("view", final["version"])]
    assert views[-1] == final, "the last view is the one GET /games/{id} gives the same reader"
    assert views[0]["reader"] == "p1" and views[0]["status"] == "active"
    assert [event["version"] for event in client.follow_game(game_id, last_event_id=2)] == [v for _, v in events]
