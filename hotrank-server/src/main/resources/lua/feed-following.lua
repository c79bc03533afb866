-- Caches the authors a user follows (io.hotrank.feed), unless the user's follows changed since
-- the caller read them from the database: a change removes the set and leaves a marker for a
-- few seconds, so a read that raced it cannot put its older answer back.
-- KEYS[1]  the set; KEYS[2]  the change marker (same hash tag)
-- ARGV[1]  time to live of the set, ms; ARGV[2..] the members (author ids, and the sentinel 0)
-- Returns 1 if cached, 0 if a change was marked.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('DEL', KEYS[1])
-- In chunks: unpack is bounded by Lua's stack (about 8000 values).
for i = 2, #ARGV, 1000 do
  redis.call('SADD', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
