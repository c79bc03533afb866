-- Swaps a staged board payload live if it is newer than the live one, and announces it.
--
-- KEYS[1]  staged payload key, written just before with a TTL (so a crashed publisher
--          leaves nothing behind)
-- KEYS[2]  live payload key
-- KEYS[3]  live version key
-- KEYS[4]  version sequence key (INCR gives the next version)
-- ARGV[1]  version of the staged payload
-- ARGV[2]  Pub/Sub channel for publish notices
-- ARGV[3]  board name
-- Returns  1 if the stage went live; 0 if an equal or newer version is live (stage dropped).
--
-- Atomic so that the live payload and the live version always belong to the same publish
-- (a reader never pairs the bytes of one version with the number of another) and so that two
-- publishers cannot interleave the version check and the swap. All keys share the board's hash
-- tag, so the script also runs on Redis Cluster.
local version = tonumber(ARGV[1])
local live = tonumber(redis.call('GET', KEYS[3]) or '0')
if version <= live then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('PERSIST', KEYS[2])
redis.call('SET', KEYS[3], ARGV[1])
local seq = tonumber(redis.call('GET', KEYS[4]) or '0')
if seq < version then
  redis.call('SET', KEYS[4], ARGV[1])
end
redis.call('PUBLISH', ARGV[2], ARGV[3] .. ' ' .. ARGV[1])
return 1
