-- Reads how many events each segment of a scaled window board received over its window (see
-- window-family-apply.lua for its keys: n:<bucket> holds segment to events), with the segments
-- that hold members, in one script so that a reset does not fall in between.
--
-- KEYS[1]  the generation key
-- ARGV[1]  the current bucket
-- ARGV[2]  the buckets a window spans (n)
-- Returns  {applied, or '' when the family has no data or is replaying its window; the number s
--          of segments holding members and the s segments; then pairs of segment and events}
local p = string.sub(KEYS[1], 1, -5) .. ':' .. (redis.call('GET', KEYS[1]) or '0') .. ':'
local applied = redis.call('GET', p .. 'applied')
if not applied or redis.call('EXISTS', p .. 'replaying') == 1 then
  return {''}
end
local current, n = tonumber(ARGV[1]), tonumber(ARGV[2])
local segments = redis.call('ZRANGE', p .. 'segs', 0, -1)
local reply = {applied, tostring(#segments)}
for _, s in ipairs(segments) do
  reply[#reply + 1] = s
end
local args = {p .. 'scratch', n}
for b = current - n + 1, current do
  args[#args + 1] = p .. 'n:' .. b
end
redis.call('ZUNIONSTORE', unpack(args))
local counts = redis.call('ZRANGE', p .. 'scratch', 0, -1, 'WITHSCORES')
redis.call('DEL', p .. 'scratch')
for i = 1, #counts do
  reply[#reply + 1] = counts[i]
end
return reply
