-- Records that the holder of a lease runs a cycle, unless the cycle was run already: what keeps a
-- leader that took over from running a cycle its predecessor ran.
--
-- KEYS[1]  owner key
-- KEYS[2]  state hash of the name
-- ARGV[1]  owner token
-- ARGV[2]  cycle: a fire time, epoch milliseconds
-- ARGV[3]  how far, in milliseconds, a cycle may lie ahead of Redis's clock
-- Returns  1 if claimed; 0 if the caller does not hold the lease, the cycle was taken, or it lies
--          too far ahead.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local cycle = tonumber(ARGV[2])
if cycle > tonumber(redis.call('TIME')[1]) * 1000 + tonumber(ARGV[3]) then
  return 0
end
if tonumber(redis.call('HGET', KEYS[2], 'cycle') or '0') >= cycle then
  return 0
end
redis.call('HSET', KEYS[2], 'cycle', ARGV[2])
return 1
