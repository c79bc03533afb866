-- Starts a rebuild: an empty filter of the right size that adds go to while the database is read.
-- KEYS[1]  the filter being rebuilt; KEYS[2] its count of ids
-- ARGV[1]  its last bit position; ARGV[2] how long both live unless swapped in, ms
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SETBIT', KEYS[1], ARGV[1], 0)
redis.call('SET', KEYS[2], 0, 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
