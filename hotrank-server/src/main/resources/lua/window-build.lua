-- Builds a window board's snapshot from its completed buckets and swaps it live, atomically:
-- a reader sees the previous snapshot or this one, never a part.
--
-- KEYS[1]     the snapshot sorted set
-- KEYS[2]     the built key: the last bucket the snapshot covers
-- KEYS[3]     a scratch key (deleted before returning)
-- KEYS[4..n]  the bucket sorted sets to merge (missing ones count as empty)
-- ARGV[1]     the last bucket this build covers
-- ARGV[2]     how many members the snapshot keeps (the board's size plus a margin)
-- ARGV[3..]   one weight per bucket key, in order
-- Returns     the snapshot's size, or -1 when a snapshot covering this bucket or a later one is
--             live already (built once per bucket, whoever builds).
local built = tonumber(redis.call('GET', KEYS[2]) or '-1')
if tonumber(ARGV[1]) <= built then
  return -1
end
local sources = {}
local weights = {}
for k = 4, #KEYS do
  sources[#sources + 1] = KEYS[k]
  weights[#weights + 1] = ARGV[k - 1]
end
local size = 0
if #sources > 0 then
  -- One table: a call expands only its last unpack().
  local args = {KEYS[3], #sources}
  for _, key in ipairs(sources) do args[#args + 1] = key end
  args[#args + 1] = 'WEIGHTS'
  for _, w in ipairs(weights) do args[#args + 1] = w end
  redis.call('ZUNIONSTORE', unpack(args))
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -(tonumber(ARGV[2]) + 1))
  size = redis.call('ZCARD', KEYS[3])
end
if size > 0 then
  redis.call('RENAME', KEYS[3], KEYS[1])
else
  redis.call('DEL', KEYS[1], KEYS[3])
end
redis.call('SET', KEYS[2], ARGV[1])
return size
