"""The key that MACs snapshots: the configured secret, else one made once per data folder.

Every process of an instance (the API processes and the workers) must hold the
same key, or each would refuse the others' snapshots and rewrite them. The
data folder is what they share, so without a configured secret the first
process to start writes ``<data dir>/secrets/snapshot.key`` (mode 0600) and
the others read it. Two processes starting at once may both make one: each
writes its own under a private name and links it into place, which succeeds
for one of them only, and both then read the one that won, never a
half-written file.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

KEY_FILE = Path("secrets") / "snapshot.key"


def resolve(secret: str | None, data_dir: str | os.PathLike[str]) -> bytes:
    """``secret`` (the ``SNAPSHOT_SECRET`` setting) if set, else the data folder's key file, made if missing."""
    if secret:
        return secret.encode()
    path = Path(data_dir) / KEY_FILE
    if not path.exists():
        _create(path)
    key = path.read_bytes().strip()
    if not key:
        raise ValueError(f"the snapshot key file {path} is empty; delete it to have a new one made")
    return key


def from_environment() -> bytes:
    """The key for a process started without the app's settings (a worker): the same environment variables."""
    return resolve(os.environ.get("CAIRN_SNAPSHOT_SECRET"), os.environ.get("CAIRN_DATA_DIR", "var"))


def _create(path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_hex(32) + "\n")
            file.flush()
            os.fsync(file.fileno())
        os.link(draft, path)
    except FileExistsError:
        pass  # another process linked its key first; that one is the instance's key
    finally:
        draft.unlink()
