-- Reads the best members of some segments of a live family.
--
-- KEYS[1]  the applied key (see live-family-apply.lua)
-- ARGV[1]  the segment keys' prefix
-- ARGV[2..] pairs of segment and how many members to return
-- Returns  {applied or '', then per segment: its floor or '', the number n of members returned,
--          then n pairs of member and key, best first}
local applied = redis.call('GET', KEYS[1])
if not applied then
  return {''}
end
local reply = {applied}
for a = 2, #ARGV, 2 do
  local s = ARGV[1] .. ARGV[a]
  reply[#reply + 1] = redis.call('GET', s .. ':f') or ''
  local top = redis.call('ZREVRANGE', s .. ':r', 0, tonumber(ARGV[a + 1]) - 1, 'WITHSCORES')
  reply[#reply + 1] = tostring(math.floor(#top / 2))
  for i = 1, #top do
    reply[#reply + 1] = top[i]
  end
end
return reply
