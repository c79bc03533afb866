-- Writes a versioned cache entry unless the key holds a higher version (io.hotrank.cache).
-- KEYS[1]  the entry, a hash: v = version, k = kind (d: a value, a: absent, f: a floor, which
--          readers take for a miss and which refuses every lower version), d = the value
-- ARGV[1]  version; ARGV[2] kind; ARGV[3] value ('' unless kind d); ARGV[4] time to live, ms
-- Returns 1 if written, 0 if a higher version is held.
local held = redis.call('HGET', KEYS[1], 'v')
if held and tonumber(held) > tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'k', ARGV[2], 'd', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
