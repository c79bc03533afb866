-- Adds one fold's weighted events to a window board's buckets, once.
--
-- KEYS[1]     the board's applied key: the number of the last fold applied
-- KEYS[2]     the snapshot sorted set
-- KEYS[3]     the built key: the last bucket the snapshot covers
-- KEYS[4..n]  bucket sorted sets (every key shares the board's hash tag)
-- ARGV[1]     this fold's number
-- ARGV[2]     the previous fold's number: the applied key must hold it; '' applies whatever it
--             holds (the first fold replayed after the board's data was lost)
-- ARGV[3]     bucket length / half-life, or 0 when every bucket weighs the same
-- ARGV[4]     how many members a built snapshot keeps
-- then, for each bucket key in order: its bucket number, its expiry (epoch ms), the count c of
--             its members, and c pairs of member and weight to add
-- Returns     'applied'; 'done' when this fold (or a later one) was applied already; or
--             'behind:<applied>' ('behind:' when the key is missing) when an earlier fold is
--             missing, and nothing is changed: the caller replays the missing folds first.
--
-- An event of a bucket the snapshot already covers (it was folded after the bucket ended and the
-- snapshot was built) is added to the snapshot too, with its decay weight relative to the built
-- bucket, so that a late event shows at once instead of at the next build: when the item is in
-- the snapshot, or the snapshot was not trimmed (then an absent item scored nothing). An item
-- trimmed out of a full snapshot is not put back with a partial score.
local fold = tonumber(ARGV[1])
local current = redis.call('GET', KEYS[1])
if current and tonumber(current) >= fold then
  return 'done'
end
if ARGV[2] ~= '' and current ~= ARGV[2] and not (current == false and ARGV[2] == '0') then
  return 'behind:' .. (current or '')
end
local built = tonumber(redis.call('GET', KEYS[3]) or '-1')
local rate = tonumber(ARGV[3])
local trimmed = redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4])
local a = 5
for k = 4, #KEYS do
  local bucket = tonumber(ARGV[a])
  local expireAt = ARGV[a + 1]
  local count = tonumber(ARGV[a + 2])
  a = a + 3
  local late = bucket <= built
  local weight = 1
  if late and rate > 0 then
    weight = 2 ^ (-(built - bucket) * rate)
  end
  for _ = 1, count do
    local member = ARGV[a]
    local delta = tonumber(ARGV[a + 1])
    redis.call('ZINCRBY', KEYS[k], delta, member)
    if late and (not trimmed or redis.call('ZSCORE', KEYS[2], member)) then
      redis.call('ZINCRBY', KEYS[2], delta * weight, member)
    end
    a = a + 2
  end
  redis.call('PEXPIREAT', KEYS[k], expireAt)
end
redis.call('SET', KEYS[1], ARGV[1])
return 'applied'
