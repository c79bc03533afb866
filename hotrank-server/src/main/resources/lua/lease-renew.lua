-- Extends a lease if the caller still holds it.
--
-- KEYS[1]  owner key
-- ARGV[1]  owner token
-- ARGV[2]  time to live, milliseconds
-- Returns  1 if extended; 0 if it expired, was released or is someone else's (nothing changed).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
