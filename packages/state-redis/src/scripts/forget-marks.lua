-- Removes the marks of one write whose reply was lost, where they still hold that write's token.
--
-- KEYS[1..n]  mark keys  the keys the write named (one installation, hence one Cluster slot)
-- ARGV[1]     token      the write's unique value
--
-- Returns: how many keys were deleted (0 when the write never ran, or every key was re-taken
-- with a fresh token or has expired). A key holding any other value is left alone, so a mark
-- taken by another instance or re-taken by this one is never removed.
local deleted = 0
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('DEL', KEYS[i])
    deleted = deleted + 1
  end
end
return deleted
