"""What an acknowledged append survives, as a setting.

Redis acknowledges a command once it is in memory and queued for the
append-only file (AOF). ``appendfsync`` decides when that file is forced to disk:

* ``everysec`` (the default): fsync once a second in the background. A crash
  of the Redis process alone normally loses nothing (Redis hands each write
  to the OS before it replies), but a power cut or kernel crash loses up to
  about one second of acknowledged appends (up to two when a slow disk makes
  Redis postpone its writes).
  Each lost append loses whole: AOF replays only complete commands,
  and a script is logged as one ``MULTI``/``EXEC`` unit, so a game never
  comes back with half a command or a gap.
* ``always``: fsync before every acknowledgement. Nothing acknowledged is
  lost, even on power loss, at the cost of one disk sync per append.

* ``replicated``: ``everysec`` on disk, and an append is acknowledged only
  once a replica confirms it has it (``WAIT``, :mod:`service.store.replication`);
  when none does within ``CAIRN_REPLICA_WAIT_MS`` the answer is a 503
  ``not_replicated`` and the client retries with its idempotency key. Losing
  a master (its process, its disk or its machine) then loses no acknowledged
  append, since the replica promoted in its place has them all.

On a Redis Cluster, the first two settings protect against a master's crash
only while that master comes back with its own disk: when its replica is
promoted instead (the master or its machine is gone for longer than
``cluster-node-timeout``), whatever the replica had not yet received is lost,
usually the last few milliseconds of appends, and more under load or when the
link to the replica lags. ``replicated`` closes that window.

Without AOF (``appendonly no``) everything since the last RDB save is lost,
which is why the service insists on it.
"""
from __future__ import annotations

import logging

import redis

from service.store.connection import StoreClient
from service.store.replies import text_hash

logger = logging.getLogger("cairn.store")

APPENDFSYNC_MODES = ("everysec", "always")
DURABILITY_MODES = (*APPENDFSYNC_MODES, "replicated")


def appendfsync_of(durability: str) -> str:
    """The AOF setting a durability mode runs the servers with."""
    if durability not in DURABILITY_MODES:
        raise ValueError(f"durability must be one of {', '.join(DURABILITY_MODES)}, not {durability!r}")
    return "everysec" if durability == "replicated" else durability


def configure_durability(client: StoreClient, appendfsync: str = "everysec") -> dict[str, str]:
    """Turn on AOF with ``appendfsync``, or, where CONFIG SET is not allowed (managed Redis), check and warn.

    Returns the server's effective ``appendonly`` and ``appendfsync`` (empty if it hides its config).
    """
    if appendfsync not in APPENDFSYNC_MODES:
        raise ValueError(f"appendfsync must be one of {', '.join(APPENDFSYNC_MODES)}, not {appendfsync!r}")
    try:
        client.config_set("appendonly", "yes")
        client.config_set("appendfsync", appendfsync)
    except redis.ResponseError as refused:
        logger.warning("cannot configure Redis durability (%s); checking the server's own settings", refused)
    try:
        settings = text_hash(client.config_get("append*"))
    except redis.ResponseError as refused:
        logger.warning("cannot read Redis durability settings (%s); acknowledged appends may be lost", refused)
        return {}
    effective = {key: settings.get(key, "") for key in ("appendonly", "appendfsync")}
    if effective != {"appendonly": "yes", "appendfsync": appendfsync}:
        logger.warning(
            "Redis runs with appendonly=%s appendfsync=%s, not appendonly=yes appendfsync=%s",
            effective["appendonly"], effective["appendfsync"], appendfsync,
        )
    return effective



class Durability:
    """:func:`configure_durability`, run by the first request that reaches Redis instead of at boot, so an
    API process that starts while Redis is down comes up and answers 503s until it is back.

    Two threads may both run it once: setting the same configuration twice is harmless.
    """

    def __init__(self, client: StoreClient, durability: str = "everysec") -> None:
        self._client = client
        self._appendfsync = appendfsync_of(durability)
        self._applied = False

    def ensure(self) -> None:
        """Configure Redis unless this process already has; an outage raises and leaves it to the next request."""
        if not self._applied:
            configure_durability(self._client, self._appendfsync)
            self._applied = True
