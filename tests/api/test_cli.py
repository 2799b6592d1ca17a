"""``cairn serve`` on a machine without Redis: an embedded Redis with AOF, the API, a worker; all stopped on exit."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import requests

from service.redis_server import free_port


def port_open(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def wait_for(url: str, process: subprocess.Popen, timeout: float = 30) -> requests.Response:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return requests.get(url, timeout=30)
        except requests.ConnectionError:
            assert process.poll() is None, "cairn serve exited early"
            assert time.monotonic() < deadline, f"{url} did not answer"
            time.sleep(0.1)


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
