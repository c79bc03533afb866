-- Asks a Bloom filter (a bit string, io.hotrank.cache.RedisBloomFilter) about several ids.
-- KEYS[1]  the filter
-- ARGV[1]  k, the bit positions per id; ARGV[2..] the positions, k per id, id after id
-- Returns  {-1} when the filter is not built, else per id 1 (may exist) or 0 (certainly absent).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {-1}
end
local k = tonumber(ARGV[1])
local answers = {}
for i = 0, (#ARGV - 1) / k - 1 do
  local maybe = 1
  for j = 1, k do
    if redis.call('GETBIT', KEYS[1], ARGV[1 + i * k + j]) == 0 then
      maybe = 0
      break
    end
  end
  answers[i + 1] = maybe
end
return answers
