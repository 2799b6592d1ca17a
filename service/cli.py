"""The ``cairn`` command: ``cairn serve`` runs the API and a worker, ``cairn worker`` runs a worker.

``cairn verify FILE`` checks an exported record offline (no server, no Redis).

Without ``REDIS_URL`` both start an embedded, real Redis (AOF on, data in
``<data-dir>/redis``) and stop it on exit, so one command runs Cairn on a
machine with nothing but Python; a second command on the same folder joins
the Redis the first started.
"""
from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from service.redis_server import RedisServer
from service.store.connection import connect

log = logging.getLogger("cairn")

WORKER_MODULE = "workers.worker"
URL_FILE = "url"


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s cairn %(levelname)s %(message)s")
    args = _parser().parse_args(argv)
    if args.command == "verify":
        from workers.verify import main as verify

        return verify([args.file])
    with _redis(Path(args.data_dir), args.appendfsync) as url:
        env = {**os.environ, "REDIS_URL": url, "CAIRN_APPENDFSYNC": args.appendfsync,
               "CAIRN_DATA_DIR": str(Path(args.data_dir).resolve())}
        commands = [_worker_command(url)] if args.command == "worker" else _serve_commands(args, url)
        return _run([command for command in commands if command], env)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cairn", description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=os.environ.get("CAIRN_DATA_DIR", "var"),
                        help="the data folder: the embedded Redis, exports and secrets (default: ./var)")
    parser.add_argument("--appendfsync", choices=("everysec", "always"),
                        default=os.environ.get("CAIRN_APPENDFSYNC", "everysec"))
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="the API (gunicorn) and one RQ worker")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    serve.add_argument("--threads", type=int, default=8, help="threads per worker (live streams hold one each)")
    serve.add_argument("--no-worker", action="store_true", help="do not start an RQ worker")
    commands.add_parser("worker", help="one RQ worker on Cairn's queue")
    check = commands.add_parser("verify", help="check a json or ndjson export offline: hash chain and seed draws")
    check.add_argument("file", help="the exported file")
    return parser


@contextmanager
def _redis(data_dir: Path, appendfsync: str) -> Iterator[str]:
    """``REDIS_URL`` if set, else the embedded Redis already running on ``data_dir``, else a new one.

    Two Redis servers must never share one AOF folder, so a second command on
    the same folder (``cairn worker`` beside ``cairn serve``) joins the first's
    server, found through the URL it leaves in the folder while it runs.
    """
    url = os.environ.get("REDIS_URL") or _running(data_dir / "redis" / URL_FILE)
    if url:
        yield url
        return
    server = RedisServer(data_dir / "redis", appendfsync=appendfsync).start()
    marker = server.data_dir / URL_FILE
    marker.write_text(server.url)
    log.info("embedded Redis on %s, AOF in %s", server.url, server.data_dir)
    try:
        yield server.url
    finally:
        marker.unlink(missing_ok=True)
        server.stop()
        log.info("embedded Redis stopped")


def _running(marker: Path) -> str | None:
    """The URL in ``marker`` if a Redis answers there."""
    if not marker.is_file():
        return None
    url = marker.read_text().strip()
    client = connect(url)
    try:
        client.ping()
    except redis.ConnectionError:
        return None
    finally:
        client.close()
    log.info("using the embedded Redis already running on %s", url)
    return url


def _serve_commands(args: argparse.Namespace, url: str) -> list[list[str] | None]:
    return [_api_command(args), None if args.no_worker else _worker_command(url)]


def _api_command(args: argparse.Namespace) -> list[str]:
    """gunicorn with threaded workers; Flask's own server where gunicorn is unavailable."""
    if importlib.util.find_spec("gunicorn") is not None:
        return [sys.executable, "-m", "gunicorn", "--bind", f"{args.host}:{args.port}",
                "--workers", str(args.workers), "--worker-class", "gthread", "--threads", str(args.threads),
                "--access-logfile", "-", "service.app:create_app()"]
    log.info("gunicorn is not installed: serving with Flask's development server")
    return [sys.executable, "-m", "flask", "--app", "service.app:create_app()", "run",
            "--host", args.host, "--port", str(args.port), "--with-threads"]


def _worker_command(url: str) -> list[str] | None:
    """The workers package's own entry point (RQ worker, scheduler, start-up sweep), where it is installed."""
    if importlib.util.find_spec("workers") is None or importlib.util.find_spec(WORKER_MODULE) is None:
        log.info("no %s module: not starting a worker", WORKER_MODULE)
        return None
    return [sys.executable, "-m", WORKER_MODULE, "--url", url]


def _run(commands: list[list[str]], env: dict[str, str]) -> int:
    """Run the commands side by side until one exits or a signal arrives, then stop them all."""
    if not commands:
        log.error("nothing to run")
        return 1
    children = [subprocess.Popen(command, env=env) for command in commands]
    stopping = False

    def stop(signum: int, _frame) -> None:
        nonlocal stopping
        stopping = True
        log.info("received %s: stopping", signal.Signals(signum).name)
        for child in children:
            if child.poll() is None:
                child.terminate()

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        status = os.wait()[1]
        if not stopping:
            stop(signal.SIGTERM, None)
        for child in children:
            child.wait()
        return 0 if stopping else os.waitstatus_to_exitcode(status)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


if __name__ == "__main__":
    sys.exit(main())
