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
-- Returns     member, score, member, score... best first (at least ARGV[2] members when there are
--             so many, more when some tie with the last); or {'moved'} when a build swapped in
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
local limit = tonumber(ARGV[2])
-- Above 1e-9, not 0: weights of a tenth or a fifth (trusted weight, decay) that add up and are
-- taken back again leave float noise, not an item worth listing.
local top = redis.call('ZREVRANGEBYSCORE', KEYS[3], '+inf', '(1e-9', 'WITHSCORES', 'LIMIT', 0, limit)
if #top == 2 * limit then
  -- Equal scores are ordered by member name here, not by createdAt and id as the board orders
  -- them: take every member tied with the last (within float noise), up to four times the limit.
  local last = tonumber(top[#top])
  local floor = string.format('%.17g', last - math.abs(last) * 1e-9)
  top = redis.call('ZREVRANGEBYSCORE', KEYS[3], '+inf', floor, 'WITHSCORES', 'LIMIT', 0, 4 * limit)
end
redis.call('DEL', KEYS[3])
return top
