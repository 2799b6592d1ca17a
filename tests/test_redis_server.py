from pathlib import Path

from service.redis_server import RedisServer


def test_the_test_redis_is_private_and_appends_to_its_own_aof(redis_server, redis_client):
    assert redis_server.port != 6379
    assert redis_client.config_get("appendonly")["appendonly"] == "yes"
    redis_client.xadd("probe", {"a": "1"})
    assert redis_client.xlen("probe") == 1


def test_an_always_fsync_server_keeps_writes_through_kill_9(tmp_path):
    import redis

    server = RedisServer(tmp_path, appendfsync="always").start()
    client = redis.Redis.from_url(server.url)
    for n in range(50):
        client.xadd("s", {"n": str(n)})
    server.kill()
    server = RedisServer(tmp_path, port=server.port, appendfsync="always").start()
    client = redis.Redis.from_url(server.url)
    assert client.xlen("s") == 50
    server.stop()


def test_a_relative_data_folder_works_as_cairn_serve_uses_it(tmp_path, monkeypatch):
    """``cairn serve`` keeps its Redis in ./var/redis by default: a relative folder."""
    monkeypatch.chdir(tmp_path)
    server = RedisServer(Path("var/redis")).start()
    try:
        assert (tmp_path / "var" / "redis" / "redis.log").exists()
    finally:
        server.stop()
