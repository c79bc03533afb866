-- Adds a fold's weighted events to a window family: each item's weights go to the family's own
-- bucket sets (every item of the biz, whatever its labels) and to the bucket sets of each of its
-- segments; an item whose labels give other segments than before first moves its whole window
-- there (its weights are the family's, so a segment it joins shows what it would have, had it
-- always been there). Every segment touched is marked changed. All keys of a family share one
-- hash tag, so one script reaches any segment: a fold costs the segments of its items.
--
-- Keys live under '<base>:<generation>:', the generation being KEYS[1] (a reset starts the next
-- one, so that a fold running meanwhile never lands half in the old data and half in the new):
--   applied      the last fold applied          where   member to '<version>\n<segment>...'
--   last         member to its newest bucket    segs    segment to its newest bucket
--   dirty        segments changed since their last publish
--   pending      items edited while the family had no data (placed after the replay)
--   b:<n>        the family's bucket n: member to weight
--   n:<n>        a scaled board's events of bucket n: segment to events
--   s:<segment>:b:<n>, s:<segment>:snap, s:<segment>:built   a segment's buckets, snapshot, and
--                the last bucket its snapshot covers (see window-build.lua)
--
-- KEYS[1]  the generation key
-- ARGV[1]  this fold's number (ignored for 'move' and 'remove')
-- ARGV[2]  the previous fold: the applied key must hold it; '' applies whatever it holds
-- ARGV[3]  'fold'; 'part:<i>' for the i-th part (from 0) of a fold of many items, written before
--          its last part, which is a 'fold' (a part written once is not written again: the
--          progress key records the last part of the fold written); 'move' for items edited now (placed by their labels, no weights); 'remove' for
--          deleted items, which leave every segment and the family's buckets
-- ARGV[4]  bucket length / half-life, or 0 when every bucket weighs the same
-- ARGV[5]  how many members a built snapshot keeps
-- ARGV[6]  the buckets a window spans (n: a snapshot covers n - 1 completed buckets)
-- ARGV[7]  the oldest bucket of the window now
-- ARGV[8]  the bucket length (ms)
-- ARGV[9]  the window (ms)
-- ARGV[10] now (epoch ms, the service's clock): keys expire relative to it
-- ARGV[11] the generation the caller read before its first part ('' for 'move' and 'remove'): a
--          fold whose generation moved meanwhile (a reset) is refused as 'behind:'
-- ARGV[12..] per item: member, its labels' item version (-1: unknown, keep what is stored), the
--          number s of its segments, its s segments, the number c of its buckets, c pairs of
--          bucket and weight to add, the number e of its counted buckets and e pairs of bucket and
--          events (a scaled board counts its segments' events per bucket, in n:<bucket>: segment
--          to events; they stay where they were counted when the item moves)
-- Returns  'applied', 'done' or 'behind:<applied>' as window-apply.lua; 'written' for a part;
--          'placed' or 'none' (no
--          data: the items wait in the pending set) for 'move' and 'remove'.
local base = string.sub(KEYS[1], 1, -5)
local generation = redis.call('GET', KEYS[1]) or '0'
if ARGV[11] ~= '' and ARGV[11] ~= generation then
  return 'behind:'
end
local p = base .. ':' .. generation .. ':'
local mode = ARGV[3]
local part = nil
if string.sub(mode, 1, 5) == 'part:' then
  part = tonumber(string.sub(mode, 6))
  mode = 'fold'
end
local current = redis.call('GET', p .. 'applied')
if mode == 'fold' then
  if current and tonumber(current) >= tonumber(ARGV[1]) then
    return 'done'
  end
  if ARGV[2] ~= '' and current ~= ARGV[2] and not (current == false and ARGV[2] == '0') then
    return 'behind:' .. (current or '')
  end
  local progress = redis.call('GET', p .. 'progress')
  if part and progress then
    local colon = string.find(progress, ':', 1, true)
    if string.sub(progress, 1, colon - 1) == ARGV[1]
        and tonumber(string.sub(progress, colon + 1)) >= part then
      return 'written'
    end
  end
elseif not current then
  local a = 12
  while a <= #ARGV do
    redis.call('SADD', p .. 'pending', ARGV[a])
    local s = tonumber(ARGV[a + 2])
    local after = a + 4 + s + 2 * tonumber(ARGV[a + 3 + s])
    a = after + 1 + 2 * tonumber(ARGV[after])
  end
  return 'none'
end
local rate, keep, n = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local oldest, bucketMillis, windowMillis = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])

local now = tonumber(ARGV[10])
-- Kept one bucket past the window, for the snapshot build that follows its end: a lifetime from
-- now by the service's clock, so that Redis's own clock does not matter.
local function expire(key, bucket)
  redis.call('PEXPIRE', key, math.max(1, (bucket + 2) * bucketMillis + windowMillis - now))
end
local function decay(age)
  if rate == 0 then
    return 1
  end
  return 2 ^ (-age * rate)
end
local function seg(s)
  return p .. 's:' .. s .. ':'
end
local function parse(text)
  local version, segments = nil, {}
  for part in string.gmatch(text, '[^\n]+') do
    if version == nil then
      version = tonumber(part)
    else
      segments[#segments + 1] = part
    end
  end
  return version, segments
end
-- The item's weights per bucket of the window, from the family's buckets.
local function weights(member)
  local last = tonumber(redis.call('ZSCORE', p .. 'last', member) or '')
  local first = tonumber(redis.call('ZSCORE', p .. 'first', member) or '')
  local found = {}
  if last then
    for b = math.max(oldest - 2, first or (oldest - 2)), last do
      local w = redis.call('ZSCORE', p .. 'b:' .. b, member)
      if w then
        found[#found + 1] = {b, tonumber(w)}
      end
    end
  end
  return found, last
end
local function leave(s, member, found)
  for _, bw in ipairs(found) do
    redis.call('ZREM', seg(s) .. 'b:' .. bw[1], member)
  end
  redis.call('ZREM', seg(s) .. 'snap', member)
  redis.call('SADD', p .. 'dirty', s)
end
local function join(s, member, found, last)
  local built = tonumber(redis.call('GET', seg(s) .. 'built') or '')
  local snap = 0
  for _, bw in ipairs(found) do
    local b, w = bw[1], bw[2]
    redis.call('ZADD', seg(s) .. 'b:' .. b, w, member)
    expire(seg(s) .. 'b:' .. b, b)
    if built and b <= built and b >= built - n + 2 then
      snap = snap + w * decay(built - b)
    end
  end
  if snap > 0 then
    redis.call('ZADD', seg(s) .. 'snap', snap, member)
    redis.call('PEXPIRE', seg(s) .. 'snap', math.max(1, redis.call('PTTL', seg(s) .. 'built')))
  end
  if last then
    redis.call('ZADD', p .. 'segs', 'GT', last, s) -- GT adds a new member too
  end
  redis.call('SADD', p .. 'dirty', s)
end

local a = 12
while a <= #ARGV do
  local member, version, s = ARGV[a], tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
  local segments = {}
  for i = 1, s do
    segments[i] = ARGV[a + 2 + i]
  end
  local c = tonumber(ARGV[a + 3 + s])
  local from = a + 4 + s
  local e = tonumber(ARGV[from + 2 * c])
  local counted = from + 2 * c + 1
  a = counted + 2 * e
  local stored = redis.call('HGET', p .. 'where', member)
  local storedVersion, storedSegments = -1, {}
  if stored then
    storedVersion, storedSegments = parse(stored)
  end
  if mode == 'remove' then
    segments = {}
  elseif version < storedVersion or (version < 0 and stored) then
    -- Read before an edit whose labels are already here (or not read): keep those.
    segments, version = storedSegments, storedVersion
  end
  local target, held = {}, {}
  for _, t in ipairs(segments) do
    target[t] = true
  end
  for _, t in ipairs(storedSegments) do
    held[t] = true
  end
  local moving = mode == 'remove'
  for t in pairs(target) do
    moving = moving or not held[t]
  end
  for t in pairs(held) do
    moving = moving or not target[t]
  end
  if moving then
    local found, last = weights(member)
    for t in pairs(held) do
      if not target[t] then
        leave(t, member, found)
      end
    end
    for _, t in ipairs(segments) do
      if not held[t] then
        join(t, member, found, last)
      end
    end
    if mode == 'remove' then
      for _, bw in ipairs(found) do
        redis.call('ZREM', p .. 'b:' .. bw[1], member)
      end
      redis.call('ZREM', p .. 'last', member)
      redis.call('ZREM', p .. 'first', member)
    end
  end
  if mode == 'remove' then
    redis.call('HDEL', p .. 'where', member)
  elseif version >= 0 then
    local parts = {tostring(version)}
    for _, t in ipairs(segments) do
      parts[#parts + 1] = t
    end
    redis.call('HSET', p .. 'where', member, table.concat(parts, '\n'))
    -- An item placed with no weight in the window is forgotten with the current bucket.
    redis.call('ZADD', p .. 'last', 'NX', oldest + n - 1, member)
  end
  for i = from, from + 2 * c - 1, 2 do
    local b, w = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
    redis.call('ZINCRBY', p .. 'b:' .. b, w, member)
    expire(p .. 'b:' .. b, b)
    redis.call('ZADD', p .. 'last', 'GT', b, member)
    redis.call('ZADD', p .. 'first', 'LT', b, member)
    for _, t in ipairs(segments) do
      local k = seg(t)
      redis.call('ZINCRBY', k .. 'b:' .. b, w, member)
      expire(k .. 'b:' .. b, b)
      -- An event of a bucket the segment's snapshot covers already shows at once (as
      -- window-apply.lua), unless the item was trimmed out of a full snapshot.
      local built = tonumber(redis.call('GET', k .. 'built') or '')
      if built and b <= built and b >= built - n + 2
          and (redis.call('EXISTS', k .. 'trimmed') == 0 or redis.call('ZSCORE', k .. 'snap', member)) then
        redis.call('ZINCRBY', k .. 'snap', w * decay(built - b), member)
        redis.call('PEXPIRE', k .. 'snap', math.max(1, redis.call('PTTL', k .. 'built')))
      end
      redis.call('ZADD', p .. 'segs', 'GT', b, t)
      redis.call('SADD', p .. 'dirty', t)
    end
  end
  -- The events counted per segment (a scaled board's n), where the item is now.
  for i = counted, counted + 2 * e - 1, 2 do
    local b = tonumber(ARGV[i])
    for _, t in ipairs(segments) do
      redis.call('ZINCRBY', p .. 'n:' .. b, ARGV[i + 1], t)
    end
    if #segments > 0 then
      expire(p .. 'n:' .. b, b)
    end
  end
end
-- The family's own keys live while folds or edits come, and a window past the last.
local familyTtl = windowMillis + 3 * bucketMillis + 300000
for _, k in ipairs({'applied', 'where', 'last', 'first', 'segs', 'dirty', 'built'}) do
  redis.call('PEXPIRE', p .. k, familyTtl)
end
redis.call('PEXPIRE', KEYS[1], familyTtl)
if part then
  redis.call('SET', p .. 'progress', ARGV[1] .. ':' .. part, 'PX', familyTtl)
  return 'written'
elseif mode == 'fold' then
  redis.call('SET', p .. 'applied', ARGV[1])
  return 'applied'
end
return 'placed'
