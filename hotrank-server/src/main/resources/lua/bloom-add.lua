-- Adds an id to a Bloom filter, and to the one being rebuilt, if each exists (a filter is created
-- only by a rebuild: one created by an add would answer "absent" for every older id), and counts
-- it in each filter's count of ids.
-- KEYS[1]  the filter; KEYS[2] the filter being rebuilt; KEYS[3], KEYS[4] their counts (one tag)
-- ARGV     the id's bit positions
-- Returns  how many of the two filters took it.
local took = 0
for f = 1, 2 do
  if redis.call('EXISTS', KEYS[f]) == 1 then
    for _, position in ipairs(ARGV) do
      redis.call('SETBIT', KEYS[f], position, 1)
    end
    redis.call('INCR', KEYS[f + 2])
    took = took + 1
  end
end
return took
