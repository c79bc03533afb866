-- One decision of a GCRA rate limiter (io.hotrank.limit.GcraLimiter): at most ARGV[1] requests
-- per ARGV[2] ms, all of them at once if the key was idle. The key holds the theoretical arrival
-- time (TAT) of the next request in microseconds of Redis's clock, so every instance shares one
-- clock, and it expires when the key is idle again.
--
-- Whole microseconds throughout (exact in Lua's doubles below 2^53): the emission interval T is
-- the window divided by the quota, rounded down, and a request is admitted while the TAT it
-- leaves is at most quota x T ahead, so an idle key admits exactly the quota at once whatever
-- the division leaves over. io.hotrank.limit.LocalGcra computes the same in Java.
-- KEYS[1]  the client's key under the policy
-- ARGV[1]  quota; ARGV[2] window, ms; ARGV[3] cost (requests this decision counts)
-- Returns  {allowed 1|0, remaining, retry after ms (0 if allowed), reset ms (until a full quota)}
local quota = tonumber(ARGV[1])
local interval = math.floor(tonumber(ARGV[2]) * 1000 / quota)
local burst = quota * interval
local cost = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then
  tat = now
end
local next = tat + interval * cost
if next - now > burst then
  local retry = math.ceil((next - burst - now) / 1000)
  -- At least 0: a key from a longer window, or a clock behind after a failover, can be further
  -- ahead than one burst.
  local remaining = math.max(0, math.floor((burst - (tat - now)) / interval))
  return {0, remaining, math.max(1, retry), math.ceil((tat - now) / 1000)}
end
redis.call('SET', KEYS[1], string.format('%.0f', next), 'PX', math.max(1, math.ceil((next - now) / 1000)))
return {1, math.floor((burst - (next - now)) / interval), 0, math.ceil((next - now) / 1000)}
