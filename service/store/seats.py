"""Who holds a game's seats: the table events that change a token, appended with the token's hash in one step.

A join gives an open seat its first token, a rotation replaces a reader's token. Either is an event in
the game's history (``seat_joined``, ``token_rotated``) and a change of the game's private hash, and the
two happen in one Lua script (:data:`CHANGE_TOKEN`), so no reader ever sees the event without the token
or the token without the event. The script checks the expected version and head as an append does: of
two joins of one seat decided against the same version, one is appended and the other finds the game
moved on, and the rules then refuse it as taken. The store still keeps only ``sha256(token)``.

Games with open seats are also listed in the index sets ``cairn:{index}:open`` and
``cairn:{index}:open&game=<name>`` (newest first, like every listing); a game leaves them when its last
seat is taken or it ends (:func:`service.store.index.set_status`), and a reindex or the sweep lists it
again from its meta's ``open_seats``.
"""
from __future__ import annotations

from urllib.parse import quote

from service.store.connection import StoreClient
from service.store.keys import INDEX_PREFIX

CHANGE_TOKEN = """\
-- Append a table event that changes who holds a token, and change the token's hash with it, atomically.
-- KEYS: events stream, meta hash, private hash (all tagged {G}).
-- ARGV: expected version, prev hash, head hash after the batch, updated_at, the reader, the new token's
--       'token:<sha256>' field, the meta's open seats after the batch (JSON), its players after it (JSON),
--       then one canonical envelope per event.
-- Every token field of the reader is removed before the new one is set, so an old token stops at once.
local FIRST_PAYLOAD = 9
local current = redis.call('HMGET', KEYS[2], 'version', 'head_hash')
if not current[1] then
  return {'missing'}
end
local expected = tonumber(ARGV[1])
if tonumber(current[1]) ~= expected then
  return {'conflict', current[1]}
end
if current[2] ~= ARGV[2] then
  return {'stale_head'}
end
local private = redis.call('HGETALL', KEYS[3])
for i = 1, #private, 2 do
  if string.sub(private[i], 1, 6) == 'token:' and private[i + 1] == ARGV[5] then
    redis.call('HDEL', KEYS[3], private[i])
  end
end
redis.call('HSET', KEYS[3], ARGV[6], ARGV[5])
local count = #ARGV - FIRST_PAYLOAD + 1
for i = 1, count do
  redis.call('XADD', KEYS[1], (expected + i) .. '-0', 'e', ARGV[FIRST_PAYLOAD + i - 1])
end
redis.call('HSET', KEYS[2], 'version', expected + count, 'head_hash', ARGV[3], 'updated_at', ARGV[4],
           'open_seats', ARGV[7], 'players', ARGV[8])
return {'ok', expected + 1, expected + count}
"""


def open_keys(game: str) -> list[str]:
    """The index sets a game with open seats is listed in: all such games, and those of its game."""
    return [f"{INDEX_PREFIX}open", f"{INDEX_PREFIX}open&game={quote(game, safe='')}"]


def open_key(game: str | None) -> str:
    return open_keys(game)[1] if game is not None else f"{INDEX_PREFIX}open"


def list_open(client: StoreClient, game_id: str, game: str, created: float) -> None:
    pipe = client.pipeline(transaction=False)
    for key in open_keys(game):
        pipe.zadd(key, {game_id: created})
    pipe.execute()


def unlist_open(client: StoreClient, game_id: str, game: str) -> None:
    pipe = client.pipeline(transaction=False)
    for key in open_keys(game):
        pipe.zrem(key, game_id)
    pipe.execute()
