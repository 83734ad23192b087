-- Releases a Thread Lock, only for the holder of the token, and announces the release.
--
-- KEYS[1]  lock key   ({key}:lock)
-- ARGV[1]  token      the caller's lease token
-- ARGV[2]  channel    pub/sub channel to announce the release on ('' = do not publish)
-- ARGV[3]  key        the lock key as the caller named it (the announcement's message)
--
-- Returns: 1 when the token held the lock and it is now released; 0 otherwise (nothing changes).
-- The fence key is left to expire on its own, so the next acquire still raises the fence.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
if ARGV[2] ~= '' then
  redis.call('PUBLISH', ARGV[2], ARGV[3])
end
return 1
