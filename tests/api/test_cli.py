"""``cairn serve`` on a machine without Redis: an embedded Redis with AOF, the API, a worker; all stopped on exit."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys

import psutil
import pytest
import requests

from service.redis_server import free_port
from tests.faults.serving import CAIRN, cairn_serve, serve_arguments, serve_env
from tests.processes import wait_for


def port_open(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_serve_starts_an_embedded_redis_and_stops_it_on_exit(tmp_path):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "--data-dir", str(tmp_path), "serve", "--port", str(port),
         "--workers", "1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert wait_for(f"http://127.0.0.1:{port}/rules", process).status_code == 200
        created = requests.post(f"http://127.0.0.1:{port}/games", json={"game": "borealis", "players": ["A", "B"]},
                                timeout=10)
        assert created.status_code == 201, created.text
        second = subprocess.Popen([sys.executable, "-m", "service.cli", "--data-dir", str(tmp_path), "worker"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        joined = second.stderr.readline()
        second.send_signal(signal.SIGTERM)
        second.communicate(timeout=30)
    finally:
        process.send_signal(signal.SIGTERM)
        _out, log = process.communicate(timeout=30)
    assert process.returncode == 0, log
    assert "embedded Redis on redis://127.0.0.1:" in log and "embedded Redis stopped" in log
    assert any((tmp_path / "redis").glob("appendonly*")), "the embedded Redis keeps an append-only file"
    url = log.split("embedded Redis on ")[1].split()[0].rstrip(",")
    assert f"using the embedded Redis already running on {url}" in joined, "a worker joins the running Redis"
    assert not port_open(int(url.rsplit(":", 1)[1].split("/")[0]))
    assert not port_open(port)


def start_failure(command: list[str], **env: str) -> str:
    """The stderr of a ``cairn`` command that must refuse to start: non-zero, one line, no traceback."""
    finished = subprocess.run([*CAIRN, *command], env=serve_env(**env),
                              capture_output=True, text=True, timeout=60)
    assert finished.returncode != 0, finished.stderr
    assert "Traceback" not in finished.stderr + finished.stdout
    assert len(finished.stderr.splitlines()) == 1, finished.stderr
    return finished.stderr


def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = start_failure(serve_arguments(tmp_path, port))
    assert f"port {port} on 127.0.0.1 is already in use" in line
    assert not (tmp_path / "redis").exists(), "nothing was started"


def test_serve_and_worker_without_redis_at_redis_url_say_so_in_one_line(tmp_path):
    url = f"redis://:secret-password@127.0.0.1:{free_port()}/0"
    for command in (serve_arguments(tmp_path, free_port()), ["--data-dir", str(tmp_path), "worker"]):
        line = start_failure(command, REDIS_URL=url)
        assert "Redis is unreachable at REDIS_URL" in line and "Connection refused" in line
        assert "secret-password" not in line


def test_a_data_folder_that_cannot_be_written_is_named_in_one_line(tmp_path):
    (tmp_path / "a-file").write_text("")
    folder = tmp_path / "a-file" / "data"
    for command in (serve_arguments(folder, free_port()), ["--data-dir", str(folder), "worker"]):
        assert f"the data folder {folder} is not writable" in start_failure(command)


@pytest.mark.skipif(os.geteuid() == 0, reason="permissions do not stop root")
def test_a_read_only_data_folder_is_named_in_one_line(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir(mode=0o500)
    assert f"the data folder {folder} is not writable (Permission denied)" in start_failure(
        serve_arguments(folder, free_port()))


def test_no_log_line_shows_a_token(tmp_path):
    with cairn_serve(tmp_path) as served:
        created = served.api.create("borealis", 2)
        game_id, token = created["game_id"], created["seats"][0]["token"]
        assert served.api.get(f"/games/{game_id}/legal-moves", token).status_code == 200
        refused = served.api.get(f"/games/{game_id}/stream", params={"token": token + "x", "from": 1})
        assert refused.status_code == 401
        assert served.stop() == 0
    logged = served.stdout.read_text() + served.stderr.read_text()
    assert f"GET /games/{game_id}/stream?token=[redacted]&from=1" in logged
    assert token not in logged and created["organiser_token"] not in logged


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_stops_everything_and_exits_0(tmp_path, sig):
    with cairn_serve(tmp_path) as served:
        children = psutil.Process(served.process.pid).children(recursive=True)
        assert "received" not in served.log()
        served.process.send_signal(sig)
        assert served.process.wait(timeout=90) == 0, served.log()
    assert served.log().count(f"received {sig.name}: stopping") == 1
    assert "exited (" not in served.log(), "a clean stop is not a crash"
    assert not any(child.is_running() for child in children)
