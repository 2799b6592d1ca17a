"""The snapshot key: the configured secret, else one file per data folder that every process ends up sharing."""
from __future__ import annotations

import multiprocessing
import stat

from service.store import snapshot_key

KEY_FILE = "secrets/snapshot.key"


def test_a_configured_secret_is_the_key_and_no_file_is_made(tmp_path):
    assert snapshot_key.resolve("s3cret", tmp_path) == b"s3cret"
    assert not (tmp_path / "secrets").exists()


def test_without_a_secret_the_first_start_makes_a_private_key_file_that_later_starts_read(tmp_path):
    first = snapshot_key.resolve(None, tmp_path)
    assert len(first) == 64
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "secrets").stat().st_mode) == 0o700
    assert snapshot_key.resolve("", tmp_path) == first
    assert snapshot_key.resolve(None, tmp_path / "elsewhere") != first


def _resolve_at_once(start, data_dir, keys) -> None:
    start.wait()
    keys.put(snapshot_key.resolve(None, data_dir))


def test_processes_starting_at_once_all_get_the_one_key_on_disk(tmp_path):
    context = multiprocessing.get_context("fork")
    count = 8
    start, keys = context.Barrier(count), context.Queue()
    processes = [context.Process(target=_resolve_at_once, args=(start, tmp_path, keys)) for _ in range(count)]
    for process in processes:
        process.start()
    seen = {keys.get(timeout=30) for _ in processes}
    for process in processes:
        process.join(timeout=30)
        assert process.exitcode == 0
    assert seen == {(tmp_path / KEY_FILE).read_bytes().strip()}
    assert [path.name for path in (tmp_path / "secrets").iterdir()] == ["snapshot.key"], "no draft is left behind"


def test_a_worker_reads_the_same_settings_from_its_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("CAIRN_SNAPSHOT_SECRET", raising=False)
    monkeypatch.setenv("CAIRN_DATA_DIR", str(tmp_path))
    assert snapshot_key.from_environment() == snapshot_key.resolve(None, tmp_path)
    monkeypatch.setenv("CAIRN_SNAPSHOT_SECRET", "configured")
    assert snapshot_key.from_environment() == b"configured"
