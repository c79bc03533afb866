-- Asks a space's Bloom filter (a bit string, io.hotrank.redis.RedisBloomFilter) about several ids.
-- The filter's shape is the space's own (it grows with the space), so the positions are computed
-- here from each id's two 32-bit hashes: position j of an id is (h1 + j * h2) mod m, exact in
-- Lua's doubles (below 2^38).
-- KEYS[1]  the space's shape pointer: "<m>x<k>", the name of its filter under the same hash tag
-- ARGV[1]  the keys' common start, "<prefix>{bloom:<space>}:"; ARGV[2..] h1, h2 of id after id
-- Returns  {-1} when the filter is not built, else per id 1 (may exist) or 0 (certainly absent).
local shape = redis.call('GET', KEYS[1])
if not shape then
  return {-1}
end
local key = ARGV[1] .. shape
if redis.call('EXISTS', key) == 0 then
  return {-1}
end
local m, k = string.match(shape, '^(%d+)x(%d+)$')
m = tonumber(m)
k = tonumber(k)
local answers = {}
for i = 2, #ARGV - 1, 2 do
  local h1 = tonumber(ARGV[i])
  local h2 = tonumber(ARGV[i + 1])
  local maybe = 1
  for j = 0, k - 1 do
    if redis.call('GETBIT', key, (h1 + j * h2) % m) == 0 then
      maybe = 0
      break
    end
  end
  answers[#answers + 1] = maybe
end
return answers
