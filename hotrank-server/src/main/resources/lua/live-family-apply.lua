-- Places items on the segment boards of a live family: each item in the rank set of each of its
-- segments (its tags, its author or its value of one attribute), by its time-invariant rank key,
-- and out of the segments it left; each touched set is kept to its size with its own floor, as
-- live-apply.lua keeps one board. All keys of a family share one hash tag, so one script reaches
-- any segment: a fold costs the segments of the items it touched, whatever the family holds.
--
-- KEYS[1]  the applied key: the number of the last fold applied
-- KEYS[2]  the keep key: how many members each segment set keeps (see live-apply.lua)
-- KEYS[3]  the pending set: items placed while the family had no data, placed after a rebuild
-- KEYS[4]  the dirty set: segments changed since their last publish
-- KEYS[5]  the created set: member to createdAt of every member of some segment set
-- KEYS[6]  the where hash: member to '<item version>\n<mark><segment>\n<mark><segment>...', the
--          segments its labels (read at that item version) give, each marked '+' when that
--          segment's set holds it and '-' when not (at or below the floor, or trimmed); absent for
--          an item no set holds
-- KEYS[7]  the segments set: every segment written since the last rebuild
-- ARGV[1]  this fold's number; for 'current', the last fold committed before the items were read
-- ARGV[2]  the previous fold's number: the applied key must hold it; '' for a catch-up
-- ARGV[3]  '' for a fold or catch-up; 'part' for a part of one, written before its last part (the
--          applied key must hold ARGV[2], and is left as it is); 'current' for items read now (created or edited): if the
--          family applied a later fold, an item some set holds moves between segments with the key
--          it has there (the same in every segment), and one no set holds is left ('moved': read
--          again); 'remove' for deleted items, which leave every segment
-- ARGV[4]  how many members a segment set keeps, at least (the keep key may ask more)
-- ARGV[5]  the window's start less a tolerance for clocks (epoch ms): older items leave
-- ARGV[6]  how long the keys live without a write (ms)
-- ARGV[7]  the segment keys' prefix: a segment's set is <prefix><segment>:r, its floor :f
-- ARGV[8]  how many members of a segment its publish shows: a change below them marks nothing
-- ARGV[9..] per item: member, rank key ('' leaves every segment), createdAt, item version, the
--          number n of its segments, then its n segments
-- Returns  'applied', 'done', 'ahead:<applied>' or 'behind:<applied>' as live-apply.lua; for
--          'current' 'placed', 'moved' or 'none' (no data: the items wait in the pending set);
--          for 'part' 'written' (or 'behind:'/'ahead:' as a fold); for 'remove' 'removed' or 'none' (no data: the items wait in the pending set, whose
--          placing after the rebuild finds them deleted).
local fold = tonumber(ARGV[1])
local mode = ARGV[3]
local current = redis.call('GET', KEYS[1])
local moved = false
if mode == 'current' or mode == 'remove' then
  if not current then
    local a = 9
    while a <= #ARGV do
      redis.call('SADD', KEYS[3], ARGV[a])
      a = a + 5 + tonumber(ARGV[a + 4])
    end
    redis.call('PEXPIRE', KEYS[3], ARGV[6])
    return 'none'
  end
  moved = mode == 'current' and tonumber(current) > fold
elseif mode == 'part' then
  if not current then
    return 'behind:'
  elseif tonumber(current) > fold then
    return 'ahead:' .. current
  elseif tonumber(current) == fold then
    return 'done'
  elseif current ~= ARGV[2] then
    return 'behind:' .. current
  end
else
  if not current then
    return 'behind:'
  elseif tonumber(current) > fold then
    return 'ahead:' .. current
  elseif tonumber(current) == fold then
    return 'done'
  elseif ARGV[2] ~= '' and current ~= ARGV[2] then
    return 'behind:' .. current
  end
end

local prefix = ARGV[7]
local cutoff = tonumber(ARGV[5])
local visible = tonumber(ARGV[8])
-- Whether a member ranks among what a publish of its segment shows: only a change there (or out
-- of there) changes the segment's board.
local function shown(rank, member)
  local r = redis.call('ZREVRANK', rank, member)
  return r and r < visible
end
local floors = {}
local function above(segment, key, member)
  local floor = floors[segment]
  if floor == nil then
    floor = false
    local text = redis.call('GET', prefix .. segment .. ':f')
    if text then
      local space = string.find(text, ' ', 1, true)
      floor = {tonumber(string.sub(text, 1, space - 1)), string.sub(text, space + 1)}
    end
    floors[segment] = floor
  end
  return not floor or key > floor[1] or (key == floor[1] and member > floor[2])
end
-- The stored entry: its version, and its segments in order with whether each set holds it.
local function parse(text)
  local version, segments, held = nil, {}, {}
  for part in string.gmatch(text, '[^\n]+') do
    if version == nil then
      version = tonumber(part)
    else
      local s = string.sub(part, 2)
      segments[#segments + 1] = s
      held[s] = string.sub(part, 1, 1) == '+'
    end
  end
  return version, segments, held
end
local function where(member, version, segments, held, created)
  local parts, any = {tostring(version)}, false
  for _, s in ipairs(segments) do
    parts[#parts + 1] = (held[s] and '+' or '-') .. s
    any = any or held[s]
  end
  if any then
    redis.call('HSET', KEYS[6], member, table.concat(parts, '\n'))
    redis.call('ZADD', KEYS[5], created, member)
  else
    redis.call('HDEL', KEYS[6], member)
    redis.call('ZREM', KEYS[5], member)
  end
end

local touched = {}
local a = 9
while a <= #ARGV do
  local member, key, created = ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 2])
  local version, n = tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4])
  local segments = {}
  for i = 1, n do
    segments[i] = ARGV[a + 4 + i]
  end
  a = a + 5 + n
  local held = {}
  local stored = redis.call('HGET', KEYS[6], member)
  if stored then
    local storedVersion, storedSegments
    storedVersion, storedSegments, held = parse(stored)
    if version < storedVersion then
      -- Read before an edit whose labels are already here: keep those.
      segments, version = storedSegments, storedVersion
    end
  end
  if moved then
    -- A later fold was applied: the key it holds is the current one; none held, read again.
    key = nil
    for s, isHeld in pairs(held) do
      if isHeld then
        key = redis.call('ZSCORE', prefix .. s .. ':r', member)
        break
      end
    end
    if not key then
      return 'moved'
    end
  end
  local target = {}
  if key ~= '' and mode ~= 'remove' and created >= cutoff then
    target = segments
  end
  local staying = {}
  for _, s in ipairs(target) do
    staying[s] = true
  end
  for s, isHeld in pairs(held) do
    local rank = prefix .. s .. ':r'
    if isHeld and not staying[s] and shown(rank, member) then
      redis.call('SADD', KEYS[4], s)
    end
    if isHeld and not staying[s] then
      redis.call('ZREM', rank, member)
    end
  end
  local now = {}
  for _, s in ipairs(target) do
    local rank = prefix .. s .. ':r'
    local was = shown(rank, member)
    if above(s, tonumber(key), member) then
      redis.call('ZADD', rank, key, member)
      if was or shown(rank, member) then
        redis.call('SADD', KEYS[4], s)
      end
      redis.call('SADD', KEYS[7], s)
      touched[s] = true
      now[s] = true
    elseif redis.call('ZREM', rank, member) == 1 and was then
      -- At or below the floor, where the set does not know every item.
      redis.call('SADD', KEYS[4], s)
    end
  end
  where(member, version, target, now, created)
end

local keep = math.max(tonumber(ARGV[4]), tonumber(redis.call('GET', KEYS[2]) or '0'))
for s in pairs(touched) do
  local rank = prefix .. s .. ':r'
  local excess = redis.call('ZCARD', rank) - keep
  if excess > 0 then
    local trimmed = redis.call('ZRANGE', rank, 0, excess - 1, 'WITHSCORES')
    -- Every member is above the floor, so the best trimmed one becomes it.
    redis.call('SET', prefix .. s .. ':f', trimmed[#trimmed] .. ' ' .. trimmed[#trimmed - 1])
    redis.call('ZREMRANGEBYRANK', rank, 0, excess - 1)
    for i = 1, #trimmed, 2 do
      local member = trimmed[i]
      local stored = redis.call('HGET', KEYS[6], member)
      if stored then
        local version, segments, held = parse(stored)
        held[s] = false
        where(member, version, segments, held, redis.call('ZSCORE', KEYS[5], member))
      end
    end
  end
  redis.call('PEXPIRE', rank, ARGV[6])
  redis.call('PEXPIRE', prefix .. s .. ':f', ARGV[6])
end

for k = 4, 7 do
  redis.call('PEXPIRE', KEYS[k], ARGV[6])
end
if mode == 'current' then
  return 'placed'
elseif mode == 'remove' then
  return 'removed'
elseif mode == 'part' then
  return 'written'
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return 'applied'
