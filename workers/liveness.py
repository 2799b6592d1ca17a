"""Whether the worker that holds a job is still alive, known within seconds rather than minutes.

RQ's own worker record cannot say so in time: it expires a minute after the
worker's TTL at the earliest, and a :class:`rq.SimpleWorker` running a job
refreshes it only once, when the job starts, for the job's whole timeout plus
a minute (half an hour for an audit). So every Cairn worker also keeps a
*pulse*: a key it refreshes every :data:`PULSE_SECONDS` from a thread of its
own, which runs while a job does and stops when the process is killed or
frozen. Its record says it keeps one (the ``pulse_ttl`` field), so a worker
that does not (a plain ``rq worker``) is judged by RQ's record alone and is
never taken for dead while that record lives.
"""
from __future__ import annotations

import os
import socket

import redis
from rq.worker import BaseWorker

from service.store.replies import text

PULSE_SECONDS = 5
PULSE_TTL = 15
PULSE_FIELD = "pulse_ttl"


def pulse_key(worker_name: str) -> str:
    return f"cairn:worker-pulse:{worker_name}"


def beat(connection: redis.Redis, worker_name: str) -> None:
    connection.set(pulse_key(worker_name), "1", ex=PULSE_TTL)


def stop_beating(connection: redis.Redis, worker_name: str) -> None:
    connection.delete(pulse_key(worker_name))


def worker_key(worker_name: str) -> str:
    return f"{BaseWorker.redis_worker_namespace_prefix}{worker_name}"


def worker_lost(connection: redis.Redis, worker_name: str | None) -> bool:
    """The worker is gone: its record expired or records its death, its pulse stopped, or its process is gone.

    The process check only applies on this host, where it tells at once what
    the pulse tells within :data:`PULSE_TTL` seconds.
    """
    if not worker_name:
        return False
    with connection.pipeline(transaction=False) as pipe:
        pipe.hmget(worker_key(worker_name), "hostname", "pid", "death", PULSE_FIELD)
        pipe.exists(pulse_key(worker_name))
        (hostname, pid, death, keeps_pulse), pulse = pipe.execute()
    if hostname is None or death is not None:
        return True
    if keeps_pulse is not None and not pulse:
        return True
    return text(hostname) == socket.gethostname() and pid is not None and not process_exists(int(pid))


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
