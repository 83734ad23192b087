-- Writes one thread's state under the fence rule (and a version check), atomically.
--
-- KEYS[1]  state key  ({threadKey}:state): a hash, field v = the JSON value, f = the fence of the
--                     write that stored it, n = its version (1 for the first write); expires
--                     after the last write's TTL
-- ARGV[1]  value      the serialised JSON value
-- ARGV[2]  fence      the writer's Thread Lock fence (non-negative integer)
-- ARGV[3]  ttlMs      how long the record lives after this write, in milliseconds
-- ARGV[4]  expected   the version the writer read ('' = no version check; '0' = no record)
--
-- Returns: {1, version}          written, with its new version;
--          {0, 'stale-fence', f} refused: ARGV[2] is below the stored fence f (nothing written);
--          {0, 'version-mismatch', n} refused: the stored version n is not ARGV[4] (nothing written).
-- Fences are compared as numbers: rt's fences are integers below 2^53, exact in Lua.
local stored = redis.call('HMGET', KEYS[1], 'f', 'n')
local storedFence = tonumber(stored[1])
local version = tonumber(stored[2]) or 0
if storedFence ~= nil and tonumber(ARGV[2]) < storedFence then
  return {0, 'stale-fence', stored[1]}
end
if ARGV[4] ~= '' and tonumber(ARGV[4]) ~= version then
  return {0, 'version-mismatch', tostring(version)}
end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'f', ARGV[2], 'n', version + 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, version + 1}
