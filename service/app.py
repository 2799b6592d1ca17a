"""The Flask app factory: configuration, the event store, rate limiting, error handling and blueprints.

Configuration comes from the ``config`` mapping, else the environment
(``REDIS_URL``, ``REDIS_CLUSTER_URL`` and ``CAIRN_<KEY>``), else the defaults
below, which are also the limits the API spec documents. With
``REDIS_CLUSTER_URL`` the games live on that Redis Cluster and the job queue
on ``CAIRN_QUEUE_URL`` (see :mod:`service.store.connection`).
"""
from __future__ import annotations

import gc
import os
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from flask import Flask

from domain import registry
from service.api import (
    admission,
    compression,
    cors,
    docs,
    errors,
    front,
    games,
    health,
    keys,
    prelude,
    records,
    rules,
    seats,
    stream,
    table,
)
from service.api.context import Services
from service.api.jsonio import OrjsonProvider
from service.api.matches import MatchCache
from service.api.ratelimit import CREATE, READ, WRITE, Budget, RateLimiter, add_headers
from service.store import Durability, EventStore, Replication, snapshot_key
from service.store.connection import REQUEST_TIMEOUT, Locations, connect
from workers.queues import enqueue_scoring

DEFAULTS: dict[str, Any] = {
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "REDIS_CLUSTER_URL": None,
    "QUEUE_URL": None,
    "REDIS_TIMEOUT": REQUEST_TIMEOUT,
    "APPENDFSYNC": "everysec",
    "REPLICA_WAIT_MS": 500,
    "SNAPSHOT_EVERY": 200,
    "MAX_BODY_BYTES": 64 * 1024,
    "RATE_LIMIT": 20.0,
    "RATE_BURST": 40,
    # Reading and creating games have buckets of their own; unset, each has RATE_LIMIT's numbers.
    "READ_RATE_LIMIT": None,
    "READ_RATE_BURST": None,
    "CREATE_RATE_LIMIT": None,
    "CREATE_RATE_BURST": None,
    "PAGE_SIZE_MAX": 500,
    "STREAM_IDLE_SECONDS": 30.0,
    "STREAM_KEEPALIVE_SECONDS": 15.0,
    "STREAM_MAX_OPEN": 224,
    "API_SPEC_PATH": None,
    "DATA_DIR": "var",
    "CORS_ORIGINS": "*",
    "SNAPSHOT_SECRET": None,
    # Requests running the app at once in a process (0, the default: no limit), and how long one waits for
    # its turn before a 503: see service.api.admission.
    "CONCURRENT_REQUESTS": admission.DEFAULT_TURNS,
    "REQUEST_QUEUE_SECONDS": admission.DEFAULT_QUEUE_SECONDS,
}

# Every route of the API: records are the scores, exports and audits the workers make.
BLUEPRINTS = (rules.blueprint, games.blueprint, stream.blueprint, docs.blueprint, keys.blueprint, health.blueprint,
              table.blueprint, records.blueprint, front.blueprint, seats.blueprint)
_frozen = False


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    app.config.update(_settings(config or {}))
    app.config["MAX_CONTENT_LENGTH"] = int(app.config["MAX_BODY_BYTES"])
    app.extensions["cairn"] = _services(app.config)
    errors.register(app)
    cors.register(app, app.config["CORS_ORIGINS"])
    turns = int(app.config["CONCURRENT_REQUESTS"])
    if turns > 0:
        admission.register(app, turns, float(app.config["REQUEST_QUEUE_SECONDS"]))
    app.before_request(prelude.before_request)
    # Hooks run in the reverse order of registration: compression last, after every hook that reads a body.
    app.after_request(compression.compress)
    app.after_request(add_headers)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    _freeze_boot_objects()
    return app


def _services(settings: Mapping[str, Any]) -> Services:
    """The clients and what is built on them; the store enqueues the scoring of each game a move ends. None
    of it talks to Redis yet: a process booted during an outage comes up, answers 503s, and works once Redis
    is back. (The live stream has a client of its own, whose reads may last a whole block:
    :mod:`service.api.stream`.)"""
    locations, timeout = Locations.from_config(settings), float(settings["REDIS_TIMEOUT"])
    client = locations.connect_store(read_timeout=timeout, connect_timeout=timeout)
    queue_client = connect(locations.queue, read_timeout=timeout, connect_timeout=timeout)
    key = snapshot_key.resolve(settings["SNAPSHOT_SECRET"], settings["DATA_DIR"])
    store = EventStore(client, snapshot_every=int(settings["SNAPSHOT_EVERY"]), snapshot_key=key,
                       replication=_replication(settings["APPENDFSYNC"], int(settings["REPLICA_WAIT_MS"]), timeout),
                       on_ended=partial(enqueue_scoring, queue_client))
    return Services(
        client=client,
        queue_client=queue_client,
        store=store,
        matches=MatchCache(store),
        limiter=RateLimiter(client, _budgets(settings)),
        durability=Durability(client, settings["APPENDFSYNC"]),
        spec_text=_spec_path(settings["API_SPEC_PATH"]).read_text(encoding="utf-8"),
    )


def _replication(durability: str, wait_ms: int, timeout: float) -> Replication | None:
    """One replica's confirmation for ``replicated``; the wait must end before the read that waits for it."""
    if durability != "replicated":
        return None
    if not 0 < wait_ms < timeout * 1000:
        raise ValueError(f"CAIRN_REPLICA_WAIT_MS must be above 0 and below the Redis timeout ({timeout * 1000:g} ms)")
    return Replication(replicas=1, wait_ms=wait_ms)


def _budgets(settings: Mapping[str, Any]) -> dict[str, Budget]:
    """The rate and burst of each kind of request; a kind left unset takes the moves' numbers."""
    rate, burst = float(settings["RATE_LIMIT"]), int(settings["RATE_BURST"])
    budgets = {WRITE: Budget(rate, burst)}
    for kind in (READ, CREATE):
        prefix = kind.upper()
        kind_rate, kind_burst = settings[f"{prefix}_RATE_LIMIT"], settings[f"{prefix}_RATE_BURST"]
        budgets[kind] = Budget(rate if kind_rate is None else float(kind_rate),
                               burst if kind_burst is None else int(kind_burst))
    return budgets


def _freeze_boot_objects() -> None:
    """Load every game's rules and data, then keep all that booting made out of the garbage collector's scans.

    They live as long as the process, yet each full collection walked them all: a pause of 40 ms or
    more in a worker, felt by every request queued behind it. Done once per process (the first app).
    """
    global _frozen
    if _frozen:
        return
    registry.all_rules()
    gc.freeze()
    _frozen = True


def _settings(config: Mapping[str, Any]) -> dict[str, Any]:
    settings = {}
    for key, default in DEFAULTS.items():
        env = os.environ.get(key if key.startswith("REDIS_") and key.endswith("_URL") else f"CAIRN_{key}")
        value = config.get(key, env if env is not None else default)
        settings[key] = type(default)(value) if default is not None and value is not None else value
    settings.update({key: value for key, value in config.items() if key not in DEFAULTS})
    return settings


def _spec_path(configured: str | None) -> Path:
    """The spec next to the sources in a checkout, else in the working directory (the container's /app)."""
    candidates = [Path(configured)] if configured else [Path(__file__).resolve().parents[1] / "api_spec.yaml",
                                                         Path.cwd() / "api_spec.yaml"]
    for path in candidates:
        if path.is_file():
            return path
    raise FileNotFoundError(f"api_spec.yaml not found in {', '.join(map(str, candidates))}")
