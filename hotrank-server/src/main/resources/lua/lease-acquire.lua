-- Grants a lease if it is free, and issues its fencing token in the same step.
--
-- KEYS[1]  owner key: the holder's token, expiring with the lease
-- KEYS[2]  state hash of the name, never expiring: fence (the counter), cycle (newest cycle taken)
-- ARGV[1]  owner token
-- ARGV[2]  time to live, milliseconds
-- ARGV[3]  cycle: 0, or a positive number that must be above the newest cycle taken
-- ARGV[4]  fence floor: the highest token the caller has seen for this name
-- Returns  {fence, 0} when granted; {0, milliseconds the holder has left} when held;
--          {0, -2} when the cycle was taken already.
--
-- A missing counter (first use, or a Redis that restarted empty) starts from Redis's clock in
-- microseconds, so tokens keep growing across a restart without persistence. The arithmetic is
-- done by Redis (HINCRBY) and values travel as strings: Lua numbers print with 14 digits.
local cycle = tonumber(ARGV[3])
if cycle > 0 and tonumber(redis.call('HGET', KEYS[2], 'cycle') or '0') >= cycle then
  return {0, -2}
end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {0, redis.call('PTTL', KEYS[1])}
end
local fence = redis.call('HGET', KEYS[2], 'fence')
if not fence then
  local now = redis.call('TIME')
  fence = now[1] .. string.format('%06d', tonumber(now[2]))
  redis.call('HSET', KEYS[2], 'fence', fence)
end
if tonumber(fence) < tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[2], 'fence', ARGV[4])
end
if cycle > 0 then
  redis.call('HSET', KEYS[2], 'cycle', ARGV[3])
end
return {redis.call('HINCRBY', KEYS[2], 'fence', 1), 0}
