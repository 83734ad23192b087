-- Marks several dedupe keys of one delivery, all or nothing, recognising this instance's own
-- writes whose reply was lost.
--
-- KEYS[1]       primary mark key  the event's own identity (<prefix>{<installation>}:mark:<key>)
-- KEYS[2..n]    more mark keys    its other identities, in the same installation, hence the same
--                                 Cluster slot (n may be 1)
-- ARGV[1]       ttlMs             mark lifetime in milliseconds (positive integer)
-- ARGV[2]       token             this mark's unique value
-- ARGV[3..]     in-doubt tokens   values of this instance's earlier writes of these keys whose
--                                 reply was lost (none, usually): a key holding one of them counts
--                                 as free, since the caller was told that write failed
--
-- Returns: 1 when every key was absent or held an in-doubt token, and every key is now set to
--          ARGV[2] with PX ttlMs;
--          0 when any key holds another value (nothing is written: no key set, no expiry changed).
--
-- Every check comes before the first write, and a script runs atomically, so no other command
-- sees some keys marked and others not. A plain `SET key token NX PX` (markEvent) on any of the
-- keys competes for the same keys.
for i = 1, #KEYS do
  local value = redis.call('GET', KEYS[i])
  if value then
    local ours = false
    for j = 3, #ARGV do
      if value == ARGV[j] then
        ours = true
      end
    end
    if not ours then
      return 0
    end
  end
end
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], ARGV[2], 'PX', ARGV[1])
end
return 1
