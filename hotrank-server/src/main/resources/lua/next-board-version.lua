-- Takes the next version of a board, never below a floor.
--
-- KEYS[1]  version sequence key of the board
-- ARGV[1]  floor: the newest version the caller knows of (its local or database copy)
-- Returns  the new version: greater than the floor and than every version handed out before
--          by this Redis.
--
-- Atomic so that two instances never get the same version, even when this Redis restarted
-- empty and both callers raise the sequence to the same floor at once.
local floor = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < floor then
  redis.call('SET', KEYS[1], floor)
end
return redis.call('INCR', KEYS[1])
