-- Loads segments of a live family a rebuild computed (after live-family-clear.lua, before the
-- rebuild sets the applied key).
--
-- KEYS[1..7]  as live-family-apply.lua
-- ARGV[1]     the segment keys' prefix
-- ARGV[2]     how long the keys live without a write (ms)
-- ARGV[3..]   per segment: its name, its floor ('' when it left no item out), the number n of its
--             members, then n quadruples of member, rank key, createdAt and item version
-- Returns     the number of members loaded
local prefix = ARGV[1]
local loaded = 0
local a = 3
while a <= #ARGV do
  local s, floor, n = ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 2])
  a = a + 3
  local rank = prefix .. s .. ':r'
  if floor ~= '' then
    redis.call('SET', prefix .. s .. ':f', floor, 'PX', ARGV[2])
  end
  for i = 1, n do
    local member, key, created, version = ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3]
    a = a + 4
    redis.call('ZADD', rank, key, member)
    -- The scan offers an item to each of its segments: those that keep it add '+' marks.
    local stored = redis.call('HGET', KEYS[6], member)
    redis.call('HSET', KEYS[6], member, (stored or version) .. '\n+' .. s)
    redis.call('ZADD', KEYS[5], created, member)
    loaded = loaded + 1
  end
  redis.call('PEXPIRE', rank, ARGV[2])
  redis.call('SADD', KEYS[7], s)
  redis.call('SADD', KEYS[4], s)
end
for k = 4, 7 do
  redis.call('PEXPIRE', KEYS[k], ARGV[2])
end
return loaded
