-- Starts a window family over (see window-family-apply.lua for its keys): the next generation
-- holds nothing, so that folds replayed into it never mix with the old data; the old generation's
-- family keys are unlinked, its bucket and snapshot keys expire at their window's end.
--
-- KEYS[1]  the generation key
-- Returns  the new generation
local generation = redis.call('GET', KEYS[1]) or '0'
local p = string.sub(KEYS[1], 1, -5) .. ':' .. generation .. ':'
for _, k in ipairs({'applied', 'where', 'last', 'segs', 'dirty', 'publishing', 'pending', 'built',
    'replaying', 'progress', 'first'}) do
  redis.call('UNLINK', p .. k)
end
return redis.call('INCR', KEYS[1])
