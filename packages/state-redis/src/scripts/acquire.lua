-- Takes a Thread Lock and issues its fencing token, atomically.
--
-- KEYS[1]  lock key   ({key}:lock): holds the holder's token, expires with the lease
-- KEYS[2]  fence key  ({key}:fence): the last fence issued for this lock key
-- ARGV[1]  token      the new holder's random token
-- ARGV[2]  ttlMs      lease length in milliseconds (positive integer)
-- ARGV[3]  keepMs     how long the fence key outlives the lease, in milliseconds
--
-- Returns: the fence (integer) when the lock was free and is now held with ARGV[1];
--          nil when another holder has it (nothing is written).
--
-- Fence = max(last fence + 1, server time in microseconds). It rises strictly per key while the
-- fence key lives, and the time floor keeps it rising after the fence key has expired.
if redis.replicate_commands then
  redis.replicate_commands()
end

if redis.call('EXISTS', KEYS[1]) == 1 then
  return false
end

local ttl = tonumber(ARGV[2])
local keep = tonumber(ARGV[3])
local fence = redis.call('INCR', KEYS[2])
local now = redis.call('TIME')
local floor = tonumber(now[1]) * 1000000 + tonumber(now[2])
if fence < floor then
  fence = floor
  redis.call('SET', KEYS[2], string.format('%.0f', fence))
end
redis.call('PEXPIRE', KEYS[2], string.format('%.0f', ttl + keep))
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return fence
