-- Ends a rebuild: the bits read from the database, OR the adds made meanwhile, become the filter,
-- its count of ids the ids read plus the adds (an id created during the read may count twice: the
-- count errs high, never low), and the shape pointer names it. Every filter of another shape is
-- deleted with its count: the one the pointer names, and every one in the set of the shapes built,
-- which keeps a filter reachable after its pointer was dropped (a failed add, an operator), so that
-- no bit string outlives its use (Redis evicts nothing). The set then holds the new shape alone.
-- KEYS[1]  the shape pointer; KEYS[2] the pointer to the shape being rebuilt; KEYS[3] the filter;
--          KEYS[4] the filter being rebuilt (the adds); KEYS[5] the bits built;
--          KEYS[6] the filter's count; KEYS[7] the rebuilt filter's count (the adds);
--          KEYS[8] the set of the shapes built (one tag)
-- ARGV[1]  how many ids were read from the database; ARGV[2] the shape, "<m>x<k>";
--          ARGV[3] the keys' common start, "<prefix>{bloom:<space>}:"
-- Returns  1 if swapped in, 0 if the rebuild's keys expired (the rebuild took too long).
if redis.call('EXISTS', KEYS[4]) == 0 or redis.call('EXISTS', KEYS[5]) == 0
    or redis.call('GET', KEYS[2]) ~= ARGV[2] then
  return 0
end
redis.call('BITOP', 'OR', KEYS[4], KEYS[4], KEYS[5])
redis.call('DEL', KEYS[5])
redis.call('RENAME', KEYS[4], KEYS[3])
redis.call('PERSIST', KEYS[3])
local adds = tonumber(redis.call('GET', KEYS[7]) or '0')
redis.call('SET', KEYS[6], adds + tonumber(ARGV[1]))
redis.call('DEL', KEYS[7])
local old = redis.call('SMEMBERS', KEYS[8])
local named = redis.call('GET', KEYS[1])
if named then
  old[#old + 1] = named -- a filter built before the set was kept
end
for _, shape in ipairs(old) do
  if shape ~= ARGV[2] then
    redis.call('DEL', ARGV[3] .. shape, ARGV[3] .. shape .. ':n')
  end
end
redis.call('DEL', KEYS[8])
redis.call('SADD', KEYS[8], ARGV[2])
redis.call('SET', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2])
return 1
