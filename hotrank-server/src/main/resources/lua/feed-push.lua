-- Adds entries to a feed's sorted set and caps it (io.hotrank.feed): an author's outbox, or a
-- follower's inbox, which only an active follower has (its key expires when unread for long).
-- Adding an entry again changes nothing, so every fan-out step may be repeated.
-- KEYS[1]  the sorted set; scores are creation times (epoch ms), members '<biz>:<id, 19 digits>'
-- ARGV[1]  '1': only if the set exists (an inbox), '0': always (an outbox)
-- ARGV[2]  cap: the oldest entries past it are removed
-- ARGV[3..] score, member pairs
-- Returns how many entries were new, or -1 if the set did not exist and ARGV[1] was '1'.
if ARGV[1] == '1' and redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
local added = 0
for i = 3, #ARGV, 2 do
  added = added + redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1])
end
local size = redis.call('ZCARD', KEYS[1])
local cap = tonumber(ARGV[2])
if size > cap then
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, size - cap - 1)
end
return added
