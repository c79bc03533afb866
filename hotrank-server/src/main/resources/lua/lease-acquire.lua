-- Grants a lease if it is free (or held only by a grant of the caller's that it gave up, or of its
-- earlier, dead process), and issues its fencing token in the same step.
--
-- KEYS[1]  owner key: the holder's token, expiring with the lease
-- KEYS[2]  state hash of the name, never expiring: fence (the counter), cycle (newest cycle taken)
-- ARGV[1]  owner token
-- ARGV[2]  time to live, milliseconds
-- ARGV[3]  cycle: 0, or a positive fire time (epoch ms) that must be above the newest cycle taken
-- ARGV[4]  the lowest fence the caller accepts (one above the highest it has seen for the name)
-- ARGV[5]  how far, in milliseconds, a cycle may lie ahead of Redis's clock
-- ARGV[6]  how the tokens of the caller's earlier lives begin ('' when it takes nothing over)
-- ARGV[7]  how the caller's own tokens begin
-- ARGV[8..] the caller's tokens for this name that it still counts on (asked for, or held)
-- Returns  {fence, 0} when granted; {0, milliseconds the holder has left} when held;
--          {0, -2} when the cycle was taken already; {0, -3} when the cycle lies too far ahead
--          (the caller's clock is wrong: such a cycle would shut everyone else out until then).
--
-- A fence is the counter plus one, and never below Redis's clock in microseconds: tokens keep
-- growing across a Redis that restarted empty and across a job moved between stores (the JDBC
-- store does the same with the database's clock). Values travel as strings and arithmetic is
-- Redis's (HINCRBY): Lua numbers print with only 14 digits.
local now = redis.call('TIME')
local cycle = tonumber(ARGV[3])
if cycle > 0 then
  if cycle > tonumber(now[1]) * 1000 + tonumber(ARGV[5]) then
    return {0, -3}
  end
  if tonumber(redis.call('HGET', KEYS[2], 'cycle') or '0') >= cycle then
    return {0, -2}
  end
end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  -- Held. Replaced at once when it is the caller's own but one the caller no longer counts on (a
  -- release Redis lost), or of the caller's name in an earlier process (one the caller knows is
  -- dead): the new fence below refuses whatever that grant's holder might still write.
  local holder = redis.call('GET', KEYS[1])
  local earlier = ARGV[6]
  local own = ARGV[7]
  local stale = false
  if string.sub(holder, 1, #own) == own then
    stale = true
    for i = 8, #ARGV do
      if ARGV[i] == holder then
        stale = false
      end
    end
  elseif earlier ~= '' and string.sub(holder, 1, #earlier) == earlier then
    stale = true
  end
  if not stale then
    return {0, redis.call('PTTL', KEYS[1])}
  end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
local fence = redis.call('HINCRBY', KEYS[2], 'fence', 1)
local minimum = now[1] .. string.format('%06d', tonumber(now[2]))
if tonumber(ARGV[4]) > tonumber(minimum) then
  minimum = ARGV[4]
end
if fence < tonumber(minimum) then
  redis.call('HSET', KEYS[2], 'fence', minimum)
end
if cycle > 0 then
  redis.call('HSET', KEYS[2], 'cycle', ARGV[3])
end
return {redis.call('HGET', KEYS[2], 'fence'), 0}
