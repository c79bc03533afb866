-- Empties a window board in one step (its keys share the board's hash tag), so that no fold
-- applied meanwhile lands half in the old data and half in the new.
--
-- KEYS  every key of the board: applied, snapshot, built, replaying, and the buckets
-- Returns the number of keys deleted
return redis.call('DEL', unpack(KEYS))
