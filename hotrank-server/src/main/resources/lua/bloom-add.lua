-- Adds an id to a Bloom filter, and to the one being rebuilt, if each exists (a filter is created
-- only by a rebuild: one created by an add would answer "absent" for every older id).
-- KEYS[1]  the filter; KEYS[2] the filter being rebuilt (same hash tag)
-- ARGV     the id's bit positions
-- Returns  how many of the two filters took it.
local took = 0
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then
    for _, position in ipairs(ARGV) do
      redis.call('SETBIT', key, position, 1)
    end
    took = took + 1
  end
end
return took
