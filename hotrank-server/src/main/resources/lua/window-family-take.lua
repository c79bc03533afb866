-- Takes the segments of a window family changed since the last look (see window-family-apply.lua
-- for its keys), keeping them in a publishing set until the look published them, so that a look
-- that dies before publishing leaves them to the next.
--
-- KEYS[1]  the generation key
-- ARGV[1]  how many segments to take at most
-- Returns  {applied, or '' when the family has no data or is replaying its window; segment...}
local p = string.sub(KEYS[1], 1, -5) .. ':' .. (redis.call('GET', KEYS[1]) or '0') .. ':'
local applied = redis.call('GET', p .. 'applied')
if not applied or redis.call('EXISTS', p .. 'replaying') == 1 then
  return {''}
end
if redis.call('EXISTS', p .. 'publishing') == 1 then
  redis.call('SUNIONSTORE', p .. 'dirty', p .. 'dirty', p .. 'publishing')
  redis.call('DEL', p .. 'publishing')
end
local reply = {applied}
local taken = redis.call('SPOP', p .. 'dirty', ARGV[1])
for i, s in ipairs(taken) do
  reply[#reply + 1] = s
end
for i = 1, #taken, 500 do
  redis.call('SADD', p .. 'publishing', unpack(taken, i, math.min(i + 499, #taken)))
end
return reply
