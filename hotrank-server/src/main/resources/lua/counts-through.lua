-- The fold through which every fold's counters are in the item counts cache.
-- KEYS[1]: the mark
-- ARGV[1]: a fold number
-- ARGV[2]: 'next' when that fold's counters were just written: the mark moves to it only if no
--          fold before it is missing (the mark is at least the fold before), and the answer is -1,
--          or else the mark, so that the caller replays the missing folds;
--          'caught-up' when every fold up to it is written: the mark moves up to it (never down);
--          'reset' when the log is behind the mark (a different log): the mark is set to it.
local mark = tonumber(redis.call('GET', KEYS[1]))
local fold = tonumber(ARGV[1])
if ARGV[2] == 'reset' then
  redis.call('SET', KEYS[1], ARGV[1])
  return -1
end
if ARGV[2] == 'next' and mark ~= nil and mark < fold - 1 then
  return mark
end
if mark == nil or mark < fold then
  redis.call('SET', KEYS[1], ARGV[1])
end
return -1
