-- Frees a lease if the caller still holds it; never anyone else's.
--
-- KEYS[1]  owner key
-- ARGV[1]  owner token
-- Returns  1 if freed, 0 if it was not the caller's.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
