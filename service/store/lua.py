"""The store's Lua scripts (kept in Python so they ship with the package), registered once per
client so each call is an EVALSHA of a precomputed SHA.

Redis runs a script atomically, which is what makes an append one step:
no other append can interleave between the version check and the XADDs.
"""
from __future__ import annotations

from dataclasses import dataclass

import redis
from redis.commands.core import Script

APPEND = """\
-- Append one command's events to a game, atomically.
-- KEYS: events stream, meta hash, idempotency hash (all tagged {G}).
-- ARGV: expected version, prev hash, idempotency key ('' for none), command hash,
--       head hash after the batch, updated_at, new status ('' if unchanged), then one canonical envelope per event.
-- The idempotency key is checked before the version, so a retry of an applied command
-- returns its first result even though the game has moved on.
local FIRST_PAYLOAD = 8
local current = redis.call('HMGET', KEYS[2], 'version', 'head_hash')
if not current[1] then
  return {'missing'}
end
local version = tonumber(current[1])
local key = ARGV[3]
if key ~= '' then
  local seen = redis.call('HGET', KEYS[3], key)
  if seen then
    local record = cjson.decode(seen)
    if record.command_hash ~= ARGV[4] then
      return {'mismatch'}
    end
    return {'duplicate', record.first, record.last}
  end
end
local expected = tonumber(ARGV[1])
if version ~= expected then
  return {'conflict', version}
end
if current[2] ~= ARGV[2] then
  return {'stale_head'}
end
local count = #ARGV - FIRST_PAYLOAD + 1
for i = 1, count do
  redis.call('XADD', KEYS[1], (expected + i) .. '-0', 'e', ARGV[FIRST_PAYLOAD + i - 1])
end
local last = expected + count
if key ~= '' then
  redis.call('HSET', KEYS[3], key, cjson.encode({first = expected + 1, last = last, command_hash = ARGV[4]}))
end
redis.call('HSET', KEYS[2], 'version', last, 'head_hash', ARGV[5], 'updated_at', ARGV[6])
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[2], 'status', ARGV[7])
end
return {'ok', expected + 1, last}
"""

CREATE = """\
-- Create a game: its meta, its private secrets and its opening events, atomically.
-- KEYS: events stream, meta hash, private hash (all tagged {G}).
-- ARGV: meta fields as a JSON object of strings, private fields likewise, then one canonical envelope per event.
local FIRST_PAYLOAD = 3
local version = redis.call('HGET', KEYS[2], 'version')
if version then
  return {'exists', tonumber(version)}
end
for field, value in pairs(cjson.decode(ARGV[1])) do
  redis.call('HSET', KEYS[2], field, value)
end
for field, value in pairs(cjson.decode(ARGV[2])) do
  redis.call('HSET', KEYS[3], field, value)
end
for i = FIRST_PAYLOAD, #ARGV do
  redis.call('XADD', KEYS[1], (i - FIRST_PAYLOAD + 1) .. '-0', 'e', ARGV[i])
end
return {'ok', 1, #ARGV - FIRST_PAYLOAD + 1}
"""


@dataclass(frozen=True)
class Scripts:
    append: Script
    create: Script


def register(client: redis.Redis) -> Scripts:
    return Scripts(append=client.register_script(APPEND), create=client.register_script(CREATE))
