-- Starts a rebuild: an empty filter of the new shape that adds go to while the database is read,
-- named by a pointer that adds read.
-- KEYS[1]  the pointer to the shape being rebuilt; KEYS[2] the filter being rebuilt;
--          KEYS[3] its count of ids (one tag)
-- ARGV[1]  the shape, "<m>x<k>"; ARGV[2] its last bit position; ARGV[3] how long the three live
--          unless swapped in, ms
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('SETBIT', KEYS[2], ARGV[2], 0)
redis.call('SET', KEYS[3], 0, 'PX', ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1
