-- Reads the top of a window board: its snapshot (the completed buckets up to the built one)
-- merged with the buckets after it, each with its decay weight.
--
-- KEYS[1]     the snapshot sorted set
-- KEYS[2]     the built key
-- KEYS[3]     a scratch key (deleted before returning)
-- KEYS[4..n]  the buckets after the built one
-- ARGV[1]     the built bucket the caller read ('' when none): the merge is refused if it moved
-- ARGV[2]     how many members to return
-- ARGV[3]     the snapshot's weight
-- ARGV[4..]   one weight per bucket key
-- Returns     member, score, member, score... best first; or {'moved'} when a build swapped in
--             meanwhile (the caller reads the built key again).
local built = redis.call('GET', KEYS[2]) or ''
if built ~= ARGV[1] then
  return {'moved'}
end
local sources = {KEYS[1]}
local weights = {ARGV[3]}
for k = 4, #KEYS do
  sources[#sources + 1] = KEYS[k]
  weights[#weights + 1] = ARGV[k]
end
-- One table: a call expands only its last unpack().
  local args = {KEYS[3], #sources}
  for _, key in ipairs(sources) do args[#args + 1] = key end
  args[#args + 1] = 'WEIGHTS'
  for _, w in ipairs(weights) do args[#args + 1] = w end
  redis.call('ZUNIONSTORE', unpack(args))
local top = redis.call('ZREVRANGEBYSCORE', KEYS[3], '+inf', '(0', 'WITHSCORES', 'LIMIT', 0,
  tonumber(ARGV[2]))
redis.call('DEL', KEYS[3])
return top
