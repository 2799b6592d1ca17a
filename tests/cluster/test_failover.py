"""Failover with ``replicated`` durability: a master killed under load loses none of the moves it acknowledged."""
from __future__ import annotations

import threading
import time

import redis

from service.store.keys import game_keys
from tests.api.conftest import FAST, serve
from tests.bot import Bot, Tally

BOTS = 6
LOAD_SECONDS = 4.0
PROMOTION_SECONDS = 30.0


def test_a_killed_master_loses_no_acknowledged_move_once_its_replica_takes_over(own_cluster, redis_server, tmp_path):
    config = {"REDIS_CLUSTER_URL": own_cluster.url, "QUEUE_URL": redis_server.url, "APPENDFSYNC": "replicated",
              "DATA_DIR": str(tmp_path / "data"), **FAST}
    for base in serve(config):
        tally = Tally()
        bots = [Bot(base, tally, ("high-card",), seed) for seed in range(BOTS)]
        deadline = time.monotonic() + LOAD_SECONDS
        threads = [threading.Thread(target=bot.play_until, args=(deadline,)) for bot in bots]
        for thread in threads:
            thread.start()
        time.sleep(LOAD_SECONDS / 3)
        victim = busiest_master(own_cluster, tally)
        port = victim.port
        before = tally.moves
        victim.kill()
        killed_at = time.monotonic()
        promoted = wait_for_promotion(own_cluster, port)
        promotion_seconds = time.monotonic() - killed_at
        # Load goes on, over the promoted replica too, until the bots' deadline (and their retries) pass.
        for thread in threads:
            thread.join(timeout=120)
        assert not any(thread.is_alive() for thread in threads)
        lost, checked = missing_moves(own_cluster, tally)
        on_victim = sum(1 for game_id in tally.acknowledged
                        if own_cluster.master_of(game_keys(game_id).meta).port == promoted)
        print(f"\nfailover: {tally.moves} acknowledged versions in {len(tally.acknowledged)} games "
              f"({before} before the kill, {on_victim} games on the killed master's slots); promotion took "
              f"{promotion_seconds:.1f} s; answers {dict(sorted(tally.statuses.items()))}; "
              f"{checked} versions checked, {len(lost)} lost")
        assert before > 0 and on_victim > 0
        assert lost == []
        assert not [status for status in tally.statuses if status >= 500 and status != 503]


def busiest_master(cluster, tally: Tally):
    """The master holding the most games in play, so the kill lands under load."""
    counts: dict[int, int] = {}
    for game_id in list(tally.acknowledged):
        port = cluster.master_of(game_keys(game_id).meta).port
        counts[port] = counts.get(port, 0) + 1
    port = max(counts, key=counts.get)
    return next(node for node in cluster.nodes if node.port == port)


def wait_for_promotion(cluster, dead_port: int) -> int:
    """The port of the replica that took over the dead master's slots, once the cluster says it is whole."""
    deadline = time.monotonic() + PROMOTION_SECONDS
    while time.monotonic() < deadline:
        with redis.Redis(port=cluster.alive()[0].port, decode_responses=True, socket_timeout=2) as client:
            masters = {port for _start, _end, (_host, port, *_rest), *_replicas
                       in client.execute_command("CLUSTER", "SLOTS")}
            whole = "cluster_state:ok" in client.execute_command("CLUSTER", "INFO")
        if whole and dead_port not in masters:
            return next(port for port in masters if not any(
                port == other for other in (node.port for node in cluster.nodes[:cluster.masters])))
        time.sleep(0.2)
    raise AssertionError(f"no replica took over from the master on port {dead_port} within {PROMOTION_SECONDS} s")


def missing_moves(cluster, tally: Tally) -> tuple[list[tuple[str, int]], int]:
    """Every acknowledged version that the cluster does not hold with the hash it was acknowledged with."""
    client = redis.cluster.RedisCluster.from_url(cluster.alive()[0].url, decode_responses=True)
    lost, checked = [], 0
    try:
        for game_id, versions in tally.acknowledged.items():
            stored = {int(entry_id.split("-")[0]): fields["e"]
                      for entry_id, fields in client.xrange(game_keys(game_id).events)}
            for version, hash_ in versions.items():
                checked += 1
                if version not in stored or (hash_ is not None and f'"hash":"{hash_}"' not in stored[version]):
                    lost.append((game_id, version))
    finally:
        client.close()
    return lost, checked
