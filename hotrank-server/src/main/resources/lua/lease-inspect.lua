-- What Redis knows of a lease name, in one consistent read.
--
-- KEYS[1]  owner key
-- KEYS[2]  state hash
-- Returns  {owner token or '', milliseconds left (0 if free), fence, cycle}
local owner = redis.call('GET', KEYS[1])
local left = 0
if owner then left = redis.call('PTTL', KEYS[1]) else owner = '' end
return {owner, left, redis.call('HGET', KEYS[2], 'fence') or '0',
        redis.call('HGET', KEYS[2], 'cycle') or '0'}
