"""Waiting for a server process a test started: until it answers HTTP, or fail at once if it exited."""
from __future__ import annotations

import subprocess
import time
from collections.abc import Callable

import requests


def wait_for(url: str, process: subprocess.Popen, timeout: float = 60,
             why: Callable[[], str] = lambda: "") -> requests.Response:
    """The first answer at ``url``; ``why()`` (a log, say) goes with the failure when the process exits first."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return requests.get(url, timeout=30)
        except requests.ConnectionError:
            assert process.poll() is None, f"the server exited early {why()}"
            assert time.monotonic() < deadline, f"{url} did not answer within {timeout} s"
            time.sleep(0.1)
