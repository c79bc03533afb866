-- Adds one instance's counts of a slice to the cluster's (io.hotrank.hotkey).
-- KEYS[1]  the slice's hash: key -> reads over every instance
-- ARGV[1]  time to live, ms; ARGV[2..] key, count, key, count...
for i = 2, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
