-- Ends a rebuild: the bits read from the database, OR the adds made meanwhile, become the filter,
-- and its count of ids the ids read plus the adds (an id created during the read may count twice:
-- the count errs high, never low).
-- KEYS[1]  the filter; KEYS[2] the filter being rebuilt (the adds); KEYS[3] the bits built;
--          KEYS[4] the filter's count; KEYS[5] the rebuilt filter's count (the adds)
-- ARGV[1]  how many ids were read from the database
-- Returns  1 if swapped in, 0 if the rebuild's keys expired (the rebuild took too long).
if redis.call('EXISTS', KEYS[2]) == 0 or redis.call('EXISTS', KEYS[3]) == 0 then
  return 0
end
redis.call('BITOP', 'OR', KEYS[2], KEYS[2], KEYS[3])
redis.call('DEL', KEYS[3])
redis.call('RENAME', KEYS[2], KEYS[1])
redis.call('PERSIST', KEYS[1])
local adds = tonumber(redis.call('GET', KEYS[5]) or '0')
redis.call('SET', KEYS[4], adds + tonumber(ARGV[1]))
redis.call('DEL', KEYS[5])
return 1
