-- Marks several dedupe keys of one delivery, all or nothing.
--
-- KEYS[1]       primary mark key  the event's own identity (<prefix>{<installation>}:mark:<key>)
-- KEYS[2..n]    more mark keys    its other identities, in the same installation, hence the same
--                                 Cluster slot (n may be 1)
-- ARGV[1]       ttlMs             mark lifetime in milliseconds (positive integer)
--
-- Returns: 1 when no key existed and every key is now set to "1" with PX ttlMs;
--          0 when any key exists (nothing is written: no key set, no expiry changed).
--
-- Every check comes before the first write, and a script runs atomically, so no other command
-- sees some keys marked and others not. A plain `SET key 1 NX PX` (markEvent) on any of the keys
-- competes for the same keys.
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    return 0
  end
end
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], '1', 'PX', ARGV[1])
end
return 1
