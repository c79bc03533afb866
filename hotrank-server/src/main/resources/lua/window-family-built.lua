-- Ends a window family's build (see window-family-build.lua): once every segment is built up to
-- a bucket, records it, and forgets the items whose newest bucket left the window (at most 5,000
-- a call; the caller calls again while it answers more).
--
-- KEYS[1]  the generation key
-- ARGV[1]  the generation the build ran in
-- ARGV[2]  the last bucket the build covered
-- ARGV[3]  the oldest bucket an item's weights may still lie in
-- Returns  how many items were forgotten, or -1 when the generation moved
local generation = redis.call('GET', KEYS[1]) or '0'
if generation ~= ARGV[1] then
  return -1
end
local p = string.sub(KEYS[1], 1, -5) .. ':' .. generation .. ':'
redis.call('SET', p .. 'built', ARGV[2])
local old = redis.call('ZRANGEBYSCORE', p .. 'last', '-inf', '(' .. ARGV[3], 'LIMIT', 0, 5000)
for _, member in ipairs(old) do
  redis.call('HDEL', p .. 'where', member)
  redis.call('ZREM', p .. 'last', member)
  redis.call('ZREM', p .. 'first', member)
end
return #old
