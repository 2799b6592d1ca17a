"""The store's Lua scripts (kept in Python so they ship with the package), registered once per
client so each call is an EVALSHA of a precomputed SHA.

Redis runs a script atomically, which is what makes an append one step:
no other append can interleave between the version check and the XADDs,
nor between the reads of a game's meta and of its stream's end.
The rate limiter's token bucket is Lua too, so that a move can be charged
to its token's bucket inside its append: one round trip for the whole move.
"""
from __future__ import annotations

from dataclasses import dataclass

import redis
from redis.commands.core import Script

BUCKET = """\
-- A token bucket of up to `burst` requests that refills at `rate` per second: take one request if it holds one.
local function take_from_bucket(key, rate, burst, now)
  local bucket = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = tonumber(bucket[1]) or burst
  local at = tonumber(bucket[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
  local allowed = 0
  if tokens >= 1 then
    tokens = tokens - 1
    allowed = 1
  end
  redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(burst / rate * 1000) + 1000)
  return allowed, tokens
end
"""

TAKE = BUCKET + """\
-- KEYS: the bucket. ARGV: rate, burst, now (seconds). Returns {allowed (0 or 1), requests left}.
local allowed, tokens = take_from_bucket(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
return {allowed, tostring(tokens)}
"""

APPEND = BUCKET + """\
-- Append one command's events to a game, atomically.
-- KEYS: events stream, meta hash, idempotency hash, and optionally the rate-limit bucket to charge
--       first (all tagged {G}).
-- ARGV: expected version, prev hash, idempotency key ('' for none), command hash,
--       head hash after the batch, updated_at, new status ('' if unchanged),
--       the bucket's rate, burst and now ('' without a bucket), then one canonical envelope per event.
-- The idempotency key is checked before the version, so a retry of an applied command
-- returns its first result even though the game has moved on. 'ok' and 'duplicate' end with the
-- requests left in the bucket ('' without one), for the answer's RateLimit-Remaining.
local FIRST_PAYLOAD = 11
local bucket_left = ''
if #KEYS == 4 then
  local allowed, left = take_from_bucket(KEYS[4], tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]))
  if allowed == 0 then
    return {'rate_limited', tostring(left)}
  end
  bucket_left = tostring(left)
end
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
    -- Written again, unchanged: a replica that confirms this write has the first one too, which it may not
    -- have had when the first try was refused as not replicated.
    redis.call('HSET', KEYS[3], key, seen)
    return {'duplicate', record.first, record.last, bucket_left}
  end
end
local expected = tonumber(ARGV[1])
if version ~= expected then
  return {'conflict', version}
end
if current[2] ~= ARGV[2] then
  return {'stale_head', bucket_left}
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
return {'ok', expected + 1, last, bucket_left}
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

UNDO_CREATE = """\
-- Undo a creation no replica confirmed: delete the game's keys, if it is still the game that was created.
-- KEYS: events stream, meta hash, private hash (all tagged {G}).
-- ARGV: the version and head hash it was created with. Returns 1 if undone, 0 if the game is another or gone.
local meta = redis.call('HMGET', KEYS[2], 'version', 'head_hash')
if meta[1] ~= ARGV[1] or meta[2] ~= ARGV[2] then
  return 0
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
"""

HEAD = """\
-- A game's head as its meta and its stream both show it, read in one step, so an append cannot land between.
-- KEYS: events stream, meta hash (tagged {G}).
-- Returns {'missing'}, or {'ok', meta version, meta head hash, id of the stream's last entry ('' if empty)}.
local meta = redis.call('HMGET', KEYS[2], 'version', 'head_hash')
if not meta[1] then
  return {'missing'}
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last_id = ''
if #last > 0 then
  last_id = last[1][1]
end
return {'ok', meta[1], meta[2] or '', last_id}
"""


@dataclass(frozen=True)
class Scripts:
    append: Script
    create: Script
    undo_create: Script
    head: Script


def register(client: redis.Redis) -> Scripts:
    return Scripts(
        append=client.register_script(APPEND),
        create=client.register_script(CREATE),
        undo_create=client.register_script(UNDO_CREATE),
        head=client.register_script(HEAD),
    )


@dataclass(frozen=True)
class BucketCharge:
    """One request to take from the rate-limit bucket ``key`` (a key of the game's slot) in an append."""

    key: str
    rate: float
    burst: int
    now: float
