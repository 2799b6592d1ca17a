"""Probes for whatever runs the service: ``/health`` says this process answers, ``/ready`` that it can work.

``/health`` touches nothing, so an orchestrator restarts the process only
when the process itself is stuck, never because Redis is away (a restart
would not bring Redis back). ``/ready`` asks Redis (the store's, every master
of a cluster, and the queue's) and RQ: a load balancer
sends traffic elsewhere while it is 503, and its body says which check
failed.

RQ workers register in Redis and renew their heartbeat each time they go
back to waiting for a job, at least every ``worker_ttl - 15`` seconds while
idle; a worker whose heartbeat is older than ``worker_ttl`` is taken as gone.
"""
from __future__ import annotations

from datetime import UTC, datetime

import redis
from flask import Blueprint
from rq import Queue, Worker

from service.api.context import services
from service.api.errors import STORE_RETRY_AFTER_SECONDS, ApiError
from service.store.connection import OUTAGE_ERRORS
from workers.worker import WORKER_TTL

blueprint = Blueprint("health", __name__)

# Cairn's workers renew their heartbeat at least every WORKER_TTL - 15 s; a plain RQ worker (420 s by default)
# would read as gone between its beats.
HEARTBEAT_MAX_AGE_SECONDS = WORKER_TTL


@blueprint.get("/health")
def health():
    return {"status": "ok"}


@blueprint.get("/ready")
def ready():
    client = services().queue_client
    try:
        services().client.ping()
        client.ping()
        worker = _worker_check(client)
        depth = sum(queue.count for queue in Queue.all(connection=client))
    except OUTAGE_ERRORS as error:
        # Nothing else can be checked without Redis.
        raise _not_ready({"redis": {"ok": False, "detail": f"Redis did not answer: {error}"}}, None) from None
    checks = {"redis": {"ok": True, "detail": "Redis answers"}, "worker": worker}
    if not worker["ok"]:
        raise _not_ready(checks, queue_depth=depth)
    return {"status": "ready", "checks": checks, "queue_depth": depth}


def _worker_check(client: redis.Redis) -> dict:
    workers = Worker.all(connection=client)
    beats = [worker.last_heartbeat for worker in workers if worker.last_heartbeat is not None]
    if not beats:
        return {"ok": False, "detail": "no worker is registered", "workers": len(workers),
                "last_heartbeat_age_seconds": None}
    age = (datetime.now(UTC) - max(beats)).total_seconds()
    fresh = age <= HEARTBEAT_MAX_AGE_SECONDS
    detail = (f"{len(workers)} worker(s), the latest heartbeat {age:.0f} s ago"
              + ("" if fresh else f", older than {HEARTBEAT_MAX_AGE_SECONDS} s"))
    return {"ok": fresh, "detail": detail, "workers": len(workers), "last_heartbeat_age_seconds": round(age, 3)}


def _not_ready(checks: dict, queue_depth: int | None) -> ApiError:
    failed = [name for name, check in checks.items() if not check["ok"]]
    return ApiError(503, "not_ready", "Not ready", f"failed: {', '.join(failed)}",
                    headers={"Retry-After": str(STORE_RETRY_AFTER_SECONDS)},
                    failed=failed, checks=checks, queue_depth=queue_depth)
