"""Jobs that fail: timeouts, retries with back-off, and a real worker process killed mid-export."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from rq.job import Job

from domain.registry import get_rules
from tests.workers.records import play, record
from workers.exports import find_export, game_folder
from workers.queues import EXPORT, SCORING, enqueue_export, enqueue_scoring, queue

ROOT = Path(__file__).resolve().parents[2]


def test_every_job_kind_has_a_timeout_and_retries_with_growing_back_off(redis_client, export_dir):
    scoring = enqueue_scoring(redis_client, "g1")
    export = enqueue_export(redis_client, "g1", "json", 9, None, "all", str(export_dir))
    assert (scoring.timeout, scoring.retries_left, scoring.retry_intervals) == (60, 4, list(SCORING.backoff))
    assert (export.timeout, export.retries_left) == (EXPORT.timeout, len(EXPORT.backoff))
    assert export.retry_intervals == sorted(export.retry_intervals)


def test_a_failed_attempt_is_scheduled_again_after_its_back_off(store, redis_client, drain):
    batches = play(scored=False)
    record(store, "g1", batches[:-1])
    job = enqueue_scoring(redis_client, "g1")
    drain()
    retried = Job.fetch(job.id, connection=redis_client)
    assert retried.get_status() == "scheduled" and retried.retries_left == 3


def test_a_job_that_overruns_its_timeout_is_stopped(redis_client, drain):
    job = queue(redis_client).enqueue(time.sleep, 5, job_timeout=1)
    started = time.monotonic()
    drain()
    assert time.monotonic() - started < 4
    stopped = Job.fetch(job.id, connection=redis_client)
    assert stopped.get_status() == "failed" and "JobTimeoutException" in stopped.latest_result().exc_string


def start_worker(url: str, export_dir: Path) -> subprocess.Popen:
    """A real worker process in its own process group (with the scheduler it forks)."""
    return subprocess.Popen([sys.executable, "-m", "workers.worker", "--url", url, "--export-dir", str(export_dir)],
                            cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def kill_group(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def wait_for(condition, seconds: float, step: float = 0.005):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(step)
    raise AssertionError(f"timed out after {seconds}s")


def test_a_worker_killed_mid_export_leaves_no_partial_file_and_the_job_completes(
        store, redis_client, redis_server, export_dir):
    record(store, "g1", play(players=("Ann", "Bo", "Cy"), choice=7, rules=get_rules("borealis")))
    version = store.version("g1")
    folder = game_folder(export_dir, "g1")
    first = start_worker(redis_server.url, export_dir)
    try:
        job = enqueue_export(redis_client, "g1", "html", version, None, "all", str(export_dir))
        wait_for(lambda: folder.is_dir() and list(folder.glob(".*.part")), 30)
    finally:
        kill_group(first)
    assert Job.fetch(job.id, connection=redis_client).get_status() == "started"
    assert [p.name for p in folder.iterdir() if not p.name.startswith(".")] == []
    assert find_export(redis_client, export_dir, "g1", "html", version, "all") is None
    second = start_worker(redis_server.url, export_dir)
    try:
        wait_for(lambda: Job.fetch(job.id, connection=redis_client).get_status() == "finished", 60, 0.1)
    finally:
        kill_group(second)
    saved = find_export(redis_client, export_dir, "g1", "html", version, "all")
    assert sorted(p.name for p in folder.iterdir()) == [saved["file"]]
    assert Job.fetch(job.id, connection=redis_client).retries_left == len(EXPORT.backoff) - 1
    assert (folder / saved["file"]).read_text().endswith("</html>\n")
