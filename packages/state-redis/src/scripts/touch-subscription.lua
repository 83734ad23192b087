-- Checks a thread subscription and, when it lives, extends it by its own TTL, atomically.
--
-- KEYS[1]  subscription key  ({threadKey}:sub): holds the subscription's TTL in milliseconds,
--                            and expires after it
--
-- Returns: 1 when the subscription lives and now expires its TTL from now;
--          0 when there is none (nothing is written).
local ttl = redis.call('GET', KEYS[1])
if not ttl then
  return 0
end
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
