"""The ``cairn`` command: ``cairn serve`` runs the API and a worker, ``cairn worker`` runs a worker.

``cairn verify FILE`` checks an exported record offline (no server, no Redis).
``cairn reindex`` rebuilds the game index from the games themselves.
``cairn bot`` plays games through the API with the Python client (:mod:`cairn_client.bot`).

With ``REDIS_CLUSTER_URL`` (and ``CAIRN_QUEUE_URL`` for the job queue) the
games are on that Redis Cluster. Without it or ``REDIS_URL`` both start an
embedded, real Redis (AOF on, data in
``<data-dir>/redis``) and stop it on exit, so one command runs Cairn on a
machine with nothing but Python; a second command on the same folder joins
the Redis the first started. What they start, they supervise
(:mod:`service.supervisor`): a process that dies is restarted. What would
only fail later (a port in use, no Redis at ``REDIS_URL``, a data folder that
cannot be written) is checked first, and reported in one line.
"""
from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

import redis

from service.redis_server import RedisServer
from service.store import index
from service.store.connection import LazyCluster, connect, connect_cluster
from service.store.durability import DURABILITY_MODES, appendfsync_of
from service.supervisor import Child, Command, EmbeddedRedis, StartFailure, Supervisor

log = logging.getLogger("cairn")

URL_FILE = "url"
PROBE_SECONDS = 2.0
# gunicorn's own exit codes for an application that cannot load: starting it again would fail again.
GUNICORN_FATAL = {3: "a gunicorn worker could not boot", 4: "the application could not be loaded"}
SERVE_EPILOG = """\
Supervision: cairn serve starts the embedded Redis (unless REDIS_URL is set),
the API (a gunicorn master and its workers) and one RQ worker, and restarts
any of them that exits: after 0.5 s, doubling to 30 s for a process that keeps
failing, back to 0.5 s once it has run for a minute; one log line per restart.
Redis comes back on the same port and data folder, and the API and the worker
reconnect to it by themselves; meanwhile the API answers what it can.
SIGTERM or SIGINT stops the API, then the worker, then Redis, and exits 0.
A port in use, no Redis at REDIS_URL or a data folder that cannot be written
is a non-zero exit with one line naming the cause.
"""


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s cairn %(levelname)s %(message)s")
    parser = _parser()
    args, rest = parser.parse_known_args(argv)
    if args.command == "bot":
        return _bot(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "verify":
        from workers.verify import run

        return run(Path(args.file), args.key, args.no_rules)
    if args.command == "reindex":
        return _reindex(args)
    try:
        children = _children(args)
    except StartFailure as failure:
        log.error("%s", failure)
        return 1
    return Supervisor(children).run()


def _bot(argv: list[str]) -> int:
    """The client package's bots, with the search bot's levels beside its random play (docs/bots.md)."""
    from cairn_client.bot import STRENGTHS, main

    import bots

    def level(name: str) -> Callable[[str], bots.Policy]:
        return lambda seed: bots.policy(name, zlib.crc32(seed.encode()))

    searched = {name: level(name) for name in bots.LEVELS if name not in STRENGTHS}
    return main(argv, prog="cairn bot", strengths={**STRENGTHS, **searched})


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cairn", description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=os.environ.get("CAIRN_DATA_DIR", "var"),
                        help="the data folder: the embedded Redis, exports and secrets (default: ./var)")
    parser.add_argument("--appendfsync", choices=DURABILITY_MODES,
                        default=os.environ.get("CAIRN_APPENDFSYNC", "everysec"),
                        help="when an append is acknowledged: in memory and fsynced within a second (everysec), "
                             "fsynced (always), or confirmed by a replica (replicated; needs a Redis with replicas)")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="the API (gunicorn) and one RQ worker, supervised",
                                description="Run the API and one RQ worker, restarting what dies.",
                                epilog=SERVE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    serve.add_argument("--threads", type=int, default=256, help="threads per worker (live streams hold one each)")
    serve.add_argument("--no-worker", action="store_true", help="do not start an RQ worker")
    commands.add_parser("worker", help="one RQ worker on Cairn's queue, restarted if it dies")
    check = commands.add_parser("verify", help="check everything an export claims, offline: chain, header, draws, "
                                                "score, every command and the signature")
    check.add_argument("file", help="the exported file (json, ndjson or .cairn)")
    check.add_argument("--key", help="the service's public keys: the JSON of GET /keys, its URL, or a key file")
    check.add_argument("--no-rules", action="store_true", help="do not decide every recorded command again")
    commands.add_parser("reindex", help="rebuild the game index from the games themselves (after a crash or an "
                                        "upgrade); the API keeps answering meanwhile")
    # The bot parses its own arguments (cairn_client.bot): `cairn bot --help` lists them.
    commands.add_parser("bot", add_help=False, help="play seats of a game, or soak the service with bots "
                        "and audit every game (cairn bot --help)")
    return parser


def _reindex(args: argparse.Namespace) -> int:
    """Rebuild the index on ``REDIS_CLUSTER_URL``'s cluster, else on ``REDIS_URL``, else on the data folder's
    embedded Redis (started for the while)."""
    cluster_url = os.environ.get("REDIS_CLUSTER_URL")
    if cluster_url:
        return _rebuild_index(connect_cluster(cluster_url, read_timeout=30.0))
    try:
        url, embedded = _redis(Path(args.data_dir).resolve(), args.appendfsync)
        if embedded:
            embedded.start()
    except StartFailure as failure:
        log.error("%s", failure)
        return 1
    try:
        return _rebuild_index(connect(url, read_timeout=30.0))
    finally:
        if embedded:
            embedded.stop()


def _rebuild_index(client: redis.Redis | LazyCluster) -> int:
    try:
        games, legacy = index.rebuild(client)
    except redis.RedisError as error:
        log.error("reindex stopped: Redis failed (%s); run it again, it starts over", error)
        return 1
    finally:
        client.close()
    print(f"indexed {games} games; removed {legacy} keys of the earlier index layout")
    return 0


def _children(args: argparse.Namespace) -> list[Child]:
    """What to supervise, in start order, once everything a start needs has been checked."""
    data_dir = Path(args.data_dir).resolve()
    _check_writable(data_dir)
    if args.command == "serve":
        _check_free(args.host, args.port)
    url, embedded = _redis(data_dir, args.appendfsync)
    env = {**os.environ, "REDIS_URL": url, "CAIRN_APPENDFSYNC": args.appendfsync, "CAIRN_DATA_DIR": str(data_dir)}
    children: list[Child] = [embedded] if embedded else []
    if args.command == "serve":
        children.append(Command("API", _api_command(args), env, fatal=GUNICORN_FATAL))
    if args.command == "worker" or not args.no_worker:
        children.append(Command("worker", [sys.executable, "-m", "workers.worker", "--url", url], env))
    return children


def _check_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise StartFailure(f"the data folder {folder} is not writable ({error.strerror or error})") from None


def _check_free(host: str, port: int) -> None:
    """Bind where gunicorn will (with its SO_REUSEADDR), so a port in use is named before anything starts."""
    try:
        family, kind, _proto, _name, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise StartFailure(f"port {port} on {host} is already in use") from None
        raise StartFailure(f"cannot listen on {host}:{port} ({error.strerror or error})") from None


def _redis(data_dir: Path, appendfsync: str) -> tuple[str, EmbeddedRedis | None]:
    """The queue's URL, and the embedded Redis to start, if any: none with ``REDIS_CLUSTER_URL`` (the queue is
    then at ``CAIRN_QUEUE_URL``) or ``REDIS_URL``; else the one already running on ``data_dir``, else a new one.

    Two Redis servers must never share one AOF folder, so a second command on
    the same folder (``cairn worker`` beside ``cairn serve``) joins the first's
    server, found through the URL it leaves in the folder while it runs.
    """
    cluster, configured = os.environ.get("REDIS_CLUSTER_URL"), os.environ.get("REDIS_URL")
    if cluster:
        queue = os.environ.get("CAIRN_QUEUE_URL")
        if not queue:
            raise StartFailure("REDIS_CLUSTER_URL is set but CAIRN_QUEUE_URL is not: the job queue needs a plain Redis")
        _probe(cluster, "REDIS_CLUSTER_URL")
        _probe(queue, "CAIRN_QUEUE_URL")
        return queue, None
    if configured:
        _probe(configured)
        return configured, None
    if appendfsync == "replicated":
        raise StartFailure("--appendfsync replicated needs a Redis with a replica: set REDIS_URL or REDIS_CLUSTER_URL")
    marker = data_dir / "redis" / URL_FILE
    running = _running(marker)
    if running:
        log.info("using the embedded Redis already running on %s", running)
        return running, None
    server = RedisServer(data_dir / "redis", appendfsync=appendfsync_of(appendfsync))
    _check_writable(server.data_dir)
    return server.url, EmbeddedRedis(server, marker)


def _probe(url: str, setting: str = "REDIS_URL") -> None:
    """A short connect to the Redis a setting names, so a wrong one is one clear line instead of a crash loop."""
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=PROBE_SECONDS, socket_timeout=PROBE_SECONDS)
    except ValueError as error:
        raise StartFailure(f"{setting} is not a Redis URL ({error})") from None
    try:
        client.ping()
    except redis.RedisError as error:
        raise StartFailure(f"Redis is unreachable at {setting} {_without_password(url)} ({error})") from None
    finally:
        client.close()


def _without_password(url: str) -> str:
    scheme, separator, rest = url.partition("://")
    credentials, at, location = rest.rpartition("@")
    return f"{scheme}{separator}***@{location}" if at and credentials else url


def _running(marker: Path) -> str | None:
    """The URL in ``marker`` if a Redis answers there."""
    if not marker.is_file():
        return None
    url = marker.read_text().strip()
    client = connect(url)
    try:
        client.ping()
    except redis.RedisError:
        return None
    finally:
        client.close()
    return url


API_APP = "service.app:create_app()"


def api_command(host: str, port: int, workers: int, threads: int, app: str = API_APP) -> list[str]:
    """gunicorn with threaded workers and the token-redacting access log of :mod:`service.gunicorn_config`: the
    API as ``cairn serve`` runs it (the benchmarks run their baseline app under the same command)."""
    return [sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_config",
            "--bind", f"{host}:{port}", "--workers", str(workers), "--worker-class", "gthread",
            "--threads", str(threads), app]


def _api_command(args: argparse.Namespace) -> list[str]:
    return api_command(args.host, args.port, args.workers, args.threads)


if __name__ == "__main__":
    sys.exit(main())
