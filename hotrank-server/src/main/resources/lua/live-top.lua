-- Reads the top of a live board after letting the items created before the window's start leave.
--
-- KEYS[1..5]  the rank set, the created set, the floor, the applied key and the keep key (see
--             live-apply.lua)
-- ARGV[1]     the window's start (epoch ms) less the folds' clock tolerance: older members leave
--             (the reader drops those between it and its own window's start itself, since another
--             instance's clock may be behind and count them still)
-- ARGV[2]     how many members to return
-- ARGV[3]     how long the keys live without a write (ms)
-- ARGV[4]     how many members the reader needs kept (the board, its controls, a reserve and a
--             margin): the keep key takes it for the folds of every instance
-- Returns     {applied or '', floor or '', member, key, member, key...} best first
local applied = redis.call('GET', KEYS[4])
if not applied then
  return {'', ''}
end
local old = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1])
for i = 1, #old, 500 do
  redis.call('ZREM', KEYS[1], unpack(old, i, math.min(i + 499, #old)))
end
if #old > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1])
end
redis.call('SET', KEYS[5], ARGV[4])
for k = 1, 5 do
  redis.call('PEXPIRE', KEYS[k], ARGV[3])
end
local reply = {applied, redis.call('GET', KEYS[3]) or ''}
local top = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
for i = 1, #top do
  reply[#reply + 1] = top[i]
end
return reply
