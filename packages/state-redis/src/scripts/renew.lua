-- Extends a Thread Lock lease, only for the holder of the token.
--
-- KEYS[1]  lock key   ({key}:lock)
-- KEYS[2]  fence key  ({key}:fence)
-- ARGV[1]  token      the caller's lease token
-- ARGV[2]  ttlMs      new lease length from now, in milliseconds (positive integer)
-- ARGV[3]  keepMs     how long the fence key outlives the lease, in milliseconds
--
-- Returns: 1 when the token still holds the lock and its expiry is now ttlMs from now;
--          0 when the lease was lost (expired, released, or another token holds it).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], string.format('%.0f', tonumber(ARGV[2]) + tonumber(ARGV[3])))
return 1
