-- Reads the best members of some segments of a window family (see window-family-apply.lua for its
-- keys): each segment's snapshot merged with the buckets after it, as window-top.lua reads one
-- board, in one script so that no build swaps a snapshot in between.
--
-- KEYS[1]  the generation key
-- ARGV[1]  the current bucket
-- ARGV[2]  the buckets a window spans (n)
-- ARGV[3]  bucket length / half-life, or 0
-- ARGV[4..] pairs of segment and how many members to return
-- Returns  {applied, or '' when the family has no data or is replaying its window; then per
--          segment the number c of members returned and c pairs of member and score, best first
--          (with every member tied with the last, as window-top.lua)}
local p = string.sub(KEYS[1], 1, -5) .. ':' .. (redis.call('GET', KEYS[1]) or '0') .. ':'
local applied = redis.call('GET', p .. 'applied')
if not applied or redis.call('EXISTS', p .. 'replaying') == 1 then
  return {''}
end
local current, n, rate = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local function weight(age)
  return rate == 0 and '1' or tostring(2 ^ (-age * rate))
end
local scratch = p .. 'scratch'
local reply = {applied}
for a = 4, #ARGV, 2 do
  local k = p .. 's:' .. ARGV[a] .. ':'
  local limit = tonumber(ARGV[a + 1])
  local built = tonumber(redis.call('GET', k .. 'built') or '')
  local from = current - n + 1
  local sources, weights = {}, {}
  if built then
    sources[1], weights[1] = k .. 'snap', weight(current - built)
    from = math.max(from, built + 1)
  end
  for b = from, current do
    sources[#sources + 1], weights[#weights + 1] = k .. 'b:' .. b, weight(current - b)
  end
  local args = {scratch, #sources}
  for _, key in ipairs(sources) do args[#args + 1] = key end
  args[#args + 1] = 'WEIGHTS'
  for _, w in ipairs(weights) do args[#args + 1] = w end
  redis.call('ZUNIONSTORE', unpack(args))
  local top = redis.call('ZREVRANGEBYSCORE', scratch, '+inf', '(0', 'WITHSCORES', 'LIMIT', 0, limit)
  if #top == 2 * limit then
    local last = tonumber(top[#top])
    local floor = string.format('%.17g', last - math.abs(last) * 1e-9)
    top = redis.call('ZREVRANGEBYSCORE', scratch, '+inf', floor, 'WITHSCORES', 'LIMIT', 0, 4 * limit)
  end
  redis.call('DEL', scratch)
  reply[#reply + 1] = tostring(#top / 2)
  for i = 1, #top do
    reply[#reply + 1] = top[i]
  end
end
return reply
