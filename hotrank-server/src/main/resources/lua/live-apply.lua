-- Sets the rank keys of the items one fold changed in a live board, once, and keeps the board's
-- sorted set to its size: items out of the window leave, the lowest beyond `keep` are trimmed.
--
-- KEYS[1]  the rank set: member to rank key
-- KEYS[2]  the created set: member to createdAt (epoch ms), to find who leaves the window
-- KEYS[3]  the floor: '<key> <member>' of the best member ever trimmed (absent: none was). Every
--          live item of the window ranked above the floor is in the rank set.
-- KEYS[4]  the applied key: the number of the last fold applied
-- KEYS[5]  the keep key: the most members any publisher asked the set to keep (it knows the live
--          operator controls, each needing a spare member)
-- KEYS[6]  the pending set: items created while the board had no data, admitted after a rebuild
-- ARGV[1]  this fold's number
-- ARGV[2]  the previous fold's number: the applied key must hold it; '' writes current values
--          whatever it holds (a catch-up)
-- ARGV[3]  'replace' to empty the board first and take ARGV[7] as its floor (a rebuild);
--          'admit' to add items no fold has changed yet (just created) unless present: ARGV[1]
--          is then the last fold committed before their counters were read, and nothing is written
--          unless the board applied no later one (a fold after it may have changed them);
--          else ''
-- ARGV[4]  how many members the rank set keeps, at least (the keep key may ask more)
-- ARGV[5]  the window's start (epoch ms), less a tolerance for clocks: members created before it
--          leave (readers drop the others at their own reading time)
-- ARGV[6]  how long the keys live without a write (ms)
-- ARGV[7]  a rebuild's floor ('' for none)
-- ARGV[8..] triples of member, rank key ('' removes the member) and createdAt
-- Returns  'applied', 'done' (this fold was applied), 'ahead:<applied>' (a later one was) or
--          'behind:<applied>' (nothing changed in these three); for
--          'admit': 'admitted', 'moved' (a later fold was applied: read again) or 'none' (no data).
--
-- Members are '<createdAt, 13 digits><item id, 16 digits>': among equal keys Redis orders them
-- by that text, which is the boards' tie order (newer first, then the larger id) read backwards.
local fold = tonumber(ARGV[1])
local current = redis.call('GET', KEYS[4])
local admit = ARGV[3] == 'admit'
if admit and not current then
  -- A rebuild will scan the items committed before it; this one is admitted after it, in case its
  -- page was scanned before it was created.
  for a = 8, #ARGV, 3 do
    redis.call('SADD', KEYS[6], ARGV[a])
  end
  redis.call('PEXPIRE', KEYS[6], ARGV[6])
  return 'none'
elseif admit and tonumber(current) > fold then
  return 'moved'
elseif admit then
  -- nothing to check: the board has applied no fold that could have changed these items
elseif current and ARGV[3] ~= 'replace' and tonumber(current) > fold then
  return 'ahead:' .. current
elseif current and (tonumber(current) > fold or (tonumber(current) == fold and ARGV[3] ~= 'replace')) then
  return 'done'
end
if not current and ARGV[3] ~= 'replace' then
  -- No data: only a rebuild starts a board, from every item of its window.
  return 'behind:'
end
if ARGV[2] ~= '' and current ~= ARGV[2] then
  return 'behind:' .. current
end
if ARGV[3] == 'replace' then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  if ARGV[7] ~= '' then
    redis.call('SET', KEYS[3], ARGV[7])
  end
end

local floorKey, floorMember = nil, nil
local floor = redis.call('GET', KEYS[3])
if floor then
  local space = string.find(floor, ' ', 1, true)
  floorKey = tonumber(string.sub(floor, 1, space - 1))
  floorMember = string.sub(floor, space + 1)
end
local function above(key, member)
  return floorKey == nil or key > floorKey or (key == floorKey and member > floorMember)
end

local cutoff = tonumber(ARGV[5])
for a = 8, #ARGV, 3 do
  local member, key, created = ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 2])
  if admit and redis.call('ZSCORE', KEYS[1], member) then
    -- present: a fold wrote it
  elseif admit and (created < cutoff or not above(tonumber(key), member)) then
    -- not present, and not to be
  elseif key ~= '' and created >= cutoff and above(tonumber(key), member) then
    redis.call('ZADD', KEYS[1], key, member)
    redis.call('ZADD', KEYS[2], created, member)
  else
    -- Gone, out of the window, or at or below the floor, where the set does not know every item.
    redis.call('ZREM', KEYS[1], member)
    redis.call('ZREM', KEYS[2], member)
  end
end

local function removeFromRank(members)
  for i = 1, #members, 500 do
    redis.call('ZREM', KEYS[1], unpack(members, i, math.min(i + 499, #members)))
  end
end
local old = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[5])
if #old > 0 then
  removeFromRank(old)
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[5])
end

local keep = math.max(tonumber(ARGV[4]), tonumber(redis.call('GET', KEYS[5]) or '0'))
local excess = redis.call('ZCARD', KEYS[1]) - keep
if excess > 0 then
  local trimmed = redis.call('ZRANGE', KEYS[1], 0, excess - 1, 'WITHSCORES')
  -- Every member is above the floor, so the best trimmed one becomes it.
  redis.call('SET', KEYS[3], trimmed[#trimmed] .. ' ' .. trimmed[#trimmed - 1])
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
  local members = {}
  for i = 1, #trimmed, 2 do
    members[#members + 1] = trimmed[i]
  end
  for i = 1, #members, 500 do
    redis.call('ZREM', KEYS[2], unpack(members, i, math.min(i + 499, #members)))
  end
end

if admit then
  return 'admitted'
end
redis.call('SET', KEYS[4], ARGV[1])
for k = 1, 5 do
  redis.call('PEXPIRE', KEYS[k], ARGV[6])
end
return 'applied'
