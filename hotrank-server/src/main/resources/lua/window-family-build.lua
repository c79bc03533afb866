-- Builds the snapshots of some segments of a window family (see window-family-apply.lua for its
-- keys) from their completed buckets, as window-build.lua builds one board's, and marks each
-- changed: a bucket's end moves every score of a decaying window and drops the oldest bucket. A
-- segment with no bucket left in the window is emptied and leaves the family's segments.
--
-- KEYS[1]  the generation key
-- ARGV[1]  the generation the caller read the segments in: another refuses the build
-- ARGV[2]  the last bucket this build covers
-- ARGV[3]  how many members a snapshot keeps
-- ARGV[4]  bucket length / half-life, or 0
-- ARGV[5]  the buckets a window spans (n)
-- ARGV[6]  the bucket length (ms)
-- ARGV[7]  the window (ms)
-- ARGV[8]  now (epoch ms, the service's clock): keys expire relative to it
-- ARGV[9..] the segments
-- Returns  how many segments were built or emptied, or -1 when the generation moved
local generation = redis.call('GET', KEYS[1]) or '0'
if generation ~= ARGV[1] then
  return -1
end
local p = string.sub(KEYS[1], 1, -5) .. ':' .. generation .. ':'
local last, keep, rate, n = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local ttl = math.max(1, (last + 2) * tonumber(ARGV[6]) + tonumber(ARGV[7]) - tonumber(ARGV[8]))
local scratch = p .. 'scratch'
local count = 0
for i = 9, #ARGV do
  local s = ARGV[i]
  local k = p .. 's:' .. s .. ':'
  local built = tonumber(redis.call('GET', k .. 'built') or '-1')
  if last > built then
    count = count + 1
    local newest = tonumber(redis.call('ZSCORE', p .. 'segs', s) or '')
    if not newest or newest < last - n + 2 then
      redis.call('DEL', k .. 'snap', k .. 'built', k .. 'trimmed')
      redis.call('ZREM', p .. 'segs', s)
    else
      if n > 1 then
        local args = {scratch, n - 1}
        for b = last - n + 2, last do
          args[#args + 1] = k .. 'b:' .. b
        end
        args[#args + 1] = 'WEIGHTS'
        for b = last - n + 2, last do
          args[#args + 1] = rate == 0 and '1' or tostring(2 ^ (-(last - b) * rate))
        end
        redis.call('ZUNIONSTORE', unpack(args))
      end
      -- Trimmed: an item left out is not put back with a partial score (see the apply).
      if redis.call('ZREMRANGEBYRANK', scratch, 0, -(keep + 1)) > 0 then
        redis.call('SET', k .. 'trimmed', '1', 'PX', ttl)
      else
        redis.call('DEL', k .. 'trimmed')
      end
      if redis.call('EXISTS', scratch) == 1 then
        redis.call('RENAME', scratch, k .. 'snap')
        redis.call('PEXPIRE', k .. 'snap', ttl)
      else
        redis.call('DEL', k .. 'snap')
      end
      redis.call('SET', k .. 'built', ARGV[2], 'PX', ttl)
    end
    redis.call('SADD', p .. 'dirty', s)
  end
end
return count
