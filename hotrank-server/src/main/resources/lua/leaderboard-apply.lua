-- Sets one fold's absolute counter values in one leaderboard shard, once, and trims the shard.
--
-- KEYS[1]  the shard's sorted set
-- KEYS[2]  the shard's applied key: the number of the last fold applied
-- ARGV[1]  this fold's number
-- ARGV[2]  the previous fold's number: the applied key must hold it; '' applies whatever it
--          holds (a catch-up or a rebuild, setting current values)
-- ARGV[3]  'replace' to empty the shard first (a rebuild), else ''
-- ARGV[4]  how many members the shard keeps
-- ARGV[5..] pairs of member and absolute value; a value of 0 removes the member
-- Returns  'applied', 'done' (this fold or a later one was applied) or 'behind:<applied>'.
--
-- Absolute values make a replay harmless and an item trimmed out re-enter with its true count;
-- the fold number keeps an older fold from overwriting a newer value.
local fold = tonumber(ARGV[1])
local current = redis.call('GET', KEYS[2])
-- A rebuild read its values after fold ARGV[1] committed: they are as new as that fold, so it
-- may replace a shard at that fold, not one a later fold has reached.
if current and (tonumber(current) > fold or (tonumber(current) == fold and ARGV[3] ~= 'replace')) then
  return 'done'
end
if ARGV[2] ~= '' and current ~= ARGV[2] and not (current == false and ARGV[2] == '0') then
  return 'behind:' .. (current or '')
end
if ARGV[3] == 'replace' then
  redis.call('DEL', KEYS[1])
end
for a = 5, #ARGV, 2 do
  if tonumber(ARGV[a + 1]) > 0 then
    redis.call('ZADD', KEYS[1], ARGV[a + 1], ARGV[a])
  else
    redis.call('ZREM', KEYS[1], ARGV[a])
  end
end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[4]) + 1))
redis.call('SET', KEYS[2], ARGV[1])
return 'applied'
