"""Running the queued jobs in the test's own process, as a deployed worker would, then returning."""
from __future__ import annotations

from redis import Redis
from rq import SimpleWorker

from workers.queues import queue


class BurstWorker(SimpleWorker):
    """A SimpleWorker that drains the queue without RQ's command channel.

    RQ listens for commands (kill the horse, stop) on a pub/sub thread that reads every 60 s, and its teardown's
    unsubscribe waits on that connection: under pytest-xdist a burst run then lasted a full minute after its
    last job. A burst run takes no commands, so it opens no channel.
    """

    def subscribe(self) -> None:
        return None


def drain(connection: Redis) -> None:
    """Run every job queued on ``connection``'s queue, then return."""
    BurstWorker([queue(connection)], connection=connection).work(burst=True, logging_level="WARNING")
