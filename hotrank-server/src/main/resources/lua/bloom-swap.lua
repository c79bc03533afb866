-- Ends a rebuild: the bits read from the database, OR the adds made meanwhile, become the filter.
-- KEYS[1]  the filter; KEYS[2] the filter being rebuilt (the adds); KEYS[3] the bits built
-- Returns  1 if swapped in, 0 if the rebuild's keys expired (the rebuild took too long).
if redis.call('EXISTS', KEYS[2]) == 0 or redis.call('EXISTS', KEYS[3]) == 0 then
  return 0
end
redis.call('BITOP', 'OR', KEYS[2], KEYS[2], KEYS[3])
redis.call('DEL', KEYS[3])
redis.call('RENAME', KEYS[2], KEYS[1])
redis.call('PERSIST', KEYS[1])
return 1
