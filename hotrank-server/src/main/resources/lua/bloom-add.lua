-- Adds an id to a space's Bloom filter, and to the one being rebuilt, if each exists (a filter is
-- created only by a rebuild: one created by an add would answer "absent" for every older id), and
-- counts it in each filter's count of ids. Each filter's shape is read from its pointer, and the
-- positions computed as in bloom-check.lua.
-- KEYS[1]  the shape pointer of the filter; KEYS[2] that of the filter being rebuilt (one tag)
-- ARGV[1]  the keys' common start, "<prefix>{bloom:<space>}:"; ARGV[2], ARGV[3] h1, h2 of the id
-- Returns  how many of the two filters took it.
local h1 = tonumber(ARGV[2])
local h2 = tonumber(ARGV[3])
local took = 0
for f = 1, 2 do
  local shape = redis.call('GET', KEYS[f])
  if shape then
    local key = ARGV[1] .. shape
    if f == 2 then
      key = key .. ':next'
    end
    if redis.call('EXISTS', key) == 1 then
      local m, k = string.match(shape, '^(%d+)x(%d+)$')
      m = tonumber(m)
      for j = 0, tonumber(k) - 1 do
        redis.call('SETBIT', key, (h1 + j * h2) % m, 1)
      end
      redis.call('INCR', key .. ':n')
      took = took + 1
    end
  end
end
return took
