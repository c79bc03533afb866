-- POST batches of 100 events: 70% views, 30% likes with a user id, over ITEMS items of biz BIZ
-- (default article). KEYED=1: every batch carries an Idempotency-Key and every event an id, each
-- new (this thread's random prefix and a counter); KEYED=key: the key only; KEYED=ids: the ids only.
local items = tonumber(os.getenv("ITEMS") or "10000")
local biz = os.getenv("BIZ") or "article"
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 1000)
-- Each batch is generated afresh: likes carry random users out of a million, so nearly every
-- like is a new (user, item) pair, as in production, not a repeat the fold can drop.
local mode = os.getenv("KEYED") or "0"
-- USERS=n: every event (views too) carries a user out of USER_BASE .. USER_BASE+n-1 (trust's
-- bench: actors the platform sent, or never sent); unset: views carry none.
local users = tonumber(os.getenv("USERS") or "0")
local userBase = tonumber(os.getenv("USER_BASE") or "1")
local keyed = mode == "1" or mode == "key"
local ids = mode == "1" or mode == "ids"
local prefix = string.format("%08x", math.random(0, 0x7fffffff))
local sent = 0
local function body()
  local parts = {}
  for i = 1, 100 do
    local item = math.random(1, items)
    local id = ""
    if ids then
      id = '"id":"' .. prefix .. "-" .. sent .. "-" .. i .. '",'
    end
    local user = users > 0 and (userBase + math.random(0, users - 1)) or math.random(1, 1000000)
    if math.random() < 0.7 then
      local who = users > 0 and (',"userId":' .. user) or ""
      parts[i] = '{' .. id .. '"biz":"' .. biz .. '","itemId":' .. item .. ',"type":"view"' .. who .. '}'
    else
      parts[i] = '{' .. id .. '"biz":"' .. biz .. '","itemId":' .. item .. ',"type":"like","userId":' .. user .. '}'
    end
  end
  return '{"events":[' .. table.concat(parts, ",") .. ']}'
end
-- RATE (batches per second over all connections, 0 = as fast as possible) paces each connection.
local rate = tonumber(os.getenv("RATE") or "0")
local connections = tonumber(os.getenv("CONNECTIONS") or "16")
local pause = rate > 0 and (connections * 1000 / rate) or 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  sent = sent + 1
  if keyed then
    return wrk.format(nil, "/api/v1/events",
      {["Content-Type"] = "application/json", ["Idempotency-Key"] = prefix .. "-" .. sent}, body())
  end
  return wrk.format(nil, "/api/v1/events", nil, body())
end
-- Pacing: each connection waits `pause` ms before each request (wrk's delay()), so the rate is a
-- little under RATE by the answers' latency; the achieved rate is what the report shows.
delay = function()
  return pause
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT requests=%d seconds=%.2f non2xx=%d errors=%d p50_ms=%.1f p99_ms=%.1f\n",
    summary.requests, summary.duration / 1e6, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
