-- Swaps a staged board payload live if its publisher's fence and its version allow, and announces
-- it.
--
-- KEYS[1]  staged payload key, written just before with a TTL (so a crashed publisher
--          leaves nothing behind)
-- KEYS[2]  live payload key
-- KEYS[3]  live version key
-- KEYS[4]  version sequence key (INCR gives the next version)
-- KEYS[5]  fence key: the highest fencing token that has published this board
-- ARGV[1]  version of the staged payload
-- ARGV[2]  Pub/Sub channel for publish notices
-- ARGV[3]  board name
-- ARGV[4]  the publisher's fencing token
-- ARGV[5]  optional: the version the publisher built on (a re-publish's base). If given, the
--          stage goes live only while no version above it is live: a compare-and-swap, so a
--          re-publish built on an older snapshot never replaces a computation that went live
--          after the re-publish read its base.
-- Returns  1 if the stage went live; 0 if an equal or newer version is live (or, with ARGV[6], a
--          version above the base); -1 if a publisher
--          with a higher fencing token has published (the caller's lease is stale). The stage is
--          dropped unless it went live.
--
-- Atomic so that the live payload and the live version always belong to the same publish
-- (a reader never pairs the bytes of one version with the number of another), so that two
-- publishers cannot interleave the checks and the swap, and so that a stalled former lease
-- holder cannot publish over a newer holder. All keys share the board's hash tag, so the
-- script also runs on Redis Cluster. Tokens are compared as numbers (below 2^53, exact in Lua)
-- and stored as the caller's string.
local fence = tonumber(ARGV[4])
if fence < tonumber(redis.call('GET', KEYS[5]) or '0') then
  redis.call('DEL', KEYS[1])
  return -1
end
local version = tonumber(ARGV[1])
local live = tonumber(redis.call('GET', KEYS[3]) or '0')
local base = ARGV[5]
if version <= live or (base ~= nil and base ~= '' and live > tonumber(base)) then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('PERSIST', KEYS[2])
redis.call('SET', KEYS[3], ARGV[1])
redis.call('SET', KEYS[5], ARGV[4])
local seq = tonumber(redis.call('GET', KEYS[4]) or '0')
if seq < version then
  redis.call('SET', KEYS[4], ARGV[1])
end
redis.call('PUBLISH', ARGV[2], ARGV[3] .. ' ' .. ARGV[1])
return 1
