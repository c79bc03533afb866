-- Starts a look at a live family's segment boards: lets the members created before the window's
-- start leave their segments, refreshes the keys' lifetimes (the family's, and a hundred segments'
-- a look, so that a segment nobody changes for a day keeps its set), and takes the segments
-- changed since the last look, those read lately first.
--
-- KEYS[1..7]  as live-family-apply.lua: applied, keep, pending, dirty, created, where, segments
-- KEYS[8]     the sweep cursor over the segments set
-- KEYS[9]     the publishing set: what the last look took, until it published (see
--             LiveFamilyStore.published)
-- ARGV[1]     the window's start less the folds' clock tolerance (epoch ms)
-- ARGV[2]     how long the keys live without a write (ms)
-- ARGV[3]     how many members each segment set keeps (the reader's need: see live-top.lua)
-- ARGV[4]     the segment keys' prefix
-- ARGV[5]     how many changed segments to take at most
-- ARGV[6]     how many members of a segment its publish shows (see live-family-apply.lua)
-- ARGV[7..]   segments to take first when they changed (those read lately), then the others
-- Returns     {applied or '', segment, segment...}
local applied = redis.call('GET', KEYS[1])
if not applied then
  return {''}
end
local prefix = ARGV[4]
local old = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', '(' .. ARGV[1], 'LIMIT', 0, 5000)
for _, member in ipairs(old) do
  local stored = redis.call('HGET', KEYS[6], member)
  if stored then
    local first = true
    for part in string.gmatch(stored, '[^\n]+') do
      if not first and string.sub(part, 1, 1) == '+' then
        local s = string.sub(part, 2)
        local r = redis.call('ZREVRANK', prefix .. s .. ':r', member)
        if r and r < tonumber(ARGV[6]) then
          redis.call('SADD', KEYS[4], s)
        end
        redis.call('ZREM', prefix .. s .. ':r', member)
      end
      first = false
    end
  end
  redis.call('HDEL', KEYS[6], member)
  redis.call('ZREM', KEYS[5], member)
end
redis.call('SET', KEYS[2], ARGV[3])
for k = 1, 7 do
  redis.call('PEXPIRE', KEYS[k], ARGV[2])
end
local scan = redis.call('SSCAN', KEYS[7], redis.call('GET', KEYS[8]) or '0', 'COUNT', 1000)
for _, s in ipairs(scan[2]) do
  local kept = redis.call('PEXPIRE', prefix .. s .. ':r', ARGV[2])
  kept = kept + redis.call('PEXPIRE', prefix .. s .. ':f', ARGV[2])
  if kept == 0 then
    redis.call('SREM', KEYS[7], s)
  end
end
redis.call('SET', KEYS[8], scan[1], 'PX', ARGV[2])
if redis.call('EXISTS', KEYS[9]) == 1 then
  redis.call('SUNIONSTORE', KEYS[4], KEYS[4], KEYS[9])
  redis.call('DEL', KEYS[9])
end
local reply = {applied}
local max = tonumber(ARGV[5])
local taken = {}
for i = 7, #ARGV do
  if #taken >= max then
    break
  end
  if redis.call('SREM', KEYS[4], ARGV[i]) == 1 then
    taken[#taken + 1] = ARGV[i]
  end
end
if #taken < max then
  for _, s in ipairs(redis.call('SPOP', KEYS[4], max - #taken)) do
    taken[#taken + 1] = s
  end
end
for _, s in ipairs(taken) do
  reply[#reply + 1] = s
end
for i = 1, #taken, 500 do
  redis.call('SADD', KEYS[9], unpack(taken, i, math.min(i + 499, #taken)))
end
if #taken > 0 then
  redis.call('PEXPIRE', KEYS[9], ARGV[2])
end
return reply
