-- Empties a live family before a rebuild loads it: forgets the fold it applied (folds leave it
-- alone until the rebuild starts it again), deletes every segment's set and floor, and marks each
-- segment changed, so that a segment the rebuild does not load is published empty. UNLINK frees
-- the memory of large sets (a scaled board's keep every member) outside the script.
--
-- KEYS[1..7]  as live-family-apply.lua
-- ARGV[1]     the segment keys' prefix
-- Returns     how many segments it emptied
redis.call('DEL', KEYS[1])
local segments = redis.call('SMEMBERS', KEYS[7])
for _, s in ipairs(segments) do
  redis.call('UNLINK', ARGV[1] .. s .. ':r', ARGV[1] .. s .. ':f')
  redis.call('SADD', KEYS[4], s)
end
redis.call('UNLINK', KEYS[5], KEYS[6], KEYS[7])
return #segments
