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

-- The best members of a large snapshot (a scaled board's keeps every member) and the few buckets
-- after it, without a union of the whole snapshot: a member in none of those buckets keeps its
-- snapshot order, so at most 'later' members (those in the buckets) pass one of the snapshot's
-- first limit + later; those and the buckets' members are scored exactly. Then every member tied
-- with the last, as the union's read.
local function candidates(sources, weights, limit, later)
  local scored, order = {}, {}
  local function consider(member)
    if scored[member] == nil then
      local score = 0
      for i, key in ipairs(sources) do
        local s = redis.call('ZSCORE', key, member)
        if s then
          score = score + tonumber(s) * tonumber(weights[i])
        end
      end
      scored[member] = score
      if score > 0 then
        order[#order + 1] = member
      end
    end
  end
  for _, member in ipairs(redis.call('ZREVRANGE', sources[1], 0, limit + later - 1)) do
    consider(member)
  end
  for i = 2, #sources do
    for _, member in ipairs(redis.call('ZRANGE', sources[i], 0, -1)) do
      consider(member)
    end
  end
  local function best(a, b)
    if scored[a] ~= scored[b] then
      return scored[a] > scored[b]
    end
    return a > b
  end
  table.sort(order, best)
  if #order >= limit then
    local last = scored[order[limit]]
    local floor = last - math.abs(last) * 1e-9
    -- Members tied with the last that the snapshot holds further down.
    local more = redis.call('ZREVRANGEBYSCORE', sources[1], '+inf',
      string.format('%.17g', floor / tonumber(weights[1])), 'LIMIT', 0, 4 * limit + later)
    for _, member in ipairs(more) do
      consider(member)
    end
    table.sort(order, best)
    local kept = {}
    for _, member in ipairs(order) do
      if scored[member] < floor or #kept == 4 * limit then
        break
      end
      kept[#kept + 1] = member
    end
    order = kept
  end
  local top = {}
  for _, member in ipairs(order) do
    top[#top + 1] = member
    top[#top + 1] = string.format('%.17g', scored[member])
  end
  return top
end
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
  local top
  local later = 0
  for i = built and 2 or 1, #sources do
    later = later + redis.call('ZCARD', sources[i])
  end
  if built and redis.call('ZCARD', sources[1]) > 4 * (limit + later) then
    top = candidates(sources, weights, limit, later)
  else
    local args = {scratch, #sources}
    for _, key in ipairs(sources) do args[#args + 1] = key end
    args[#args + 1] = 'WEIGHTS'
    for _, w in ipairs(weights) do args[#args + 1] = w end
    redis.call('ZUNIONSTORE', unpack(args))
    top = redis.call('ZREVRANGEBYSCORE', scratch, '+inf', '(1e-9', 'WITHSCORES', 'LIMIT', 0, limit)
    if #top == 2 * limit then
      local last = tonumber(top[#top])
      local floor = string.format('%.17g', last - math.abs(last) * 1e-9)
      top = redis.call('ZREVRANGEBYSCORE', scratch, '+inf', floor, 'WITHSCORES', 'LIMIT', 0, 4 * limit)
    end
    redis.call('DEL', scratch)
  end
  reply[#reply + 1] = tostring(#top / 2)
  for i = 1, #top do
    reply[#reply + 1] = top[i]
  end
end
return reply
