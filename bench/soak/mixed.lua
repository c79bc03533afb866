-- The soak's mixed load (bench/soak.sh): each request is one of these kinds, drawn by weight.
--
--   events   POST /api/v1/events, a batch of BATCH events over ITEMS items: 80% views, 20% likes by
--            one of the USERS users (ids USER0+1..USER0+USERS; liking twice counts once)
--   hot      GET /api/v1/boards/article-hot?limit=20
--   rising   GET /api/v1/boards/article-rising?limit=20
--   item     GET /api/v1/items/article/<id>, ids skewed towards the low ones (u^2 over ITEMS)
--   feed     GET /api/v1/users/<user>/feed?limit=20
--   follow   PUT or DELETE (half each) /api/v1/users/<user>/following/<author>, authors 1..AUTHORS
--            (204 also when nothing changes, so a repeat is no error)
--
-- RATE (requests per second over all CONNECTIONS connections) paces each connection with wrk's
-- delay(), so the rate is a little under RATE by the answers' latency. Every answer outside 2xx is
-- tallied by status and by the kind its problem document's `instance` (the request's path) names,
-- and done() prints one RESULT line of name=value pairs.
local items = tonumber(os.getenv("ITEMS") or "3000")
local authors = tonumber(os.getenv("AUTHORS") or "100")
local users = tonumber(os.getenv("USERS") or "500")
local user0 = tonumber(os.getenv("USER0") or "1000")
local batch = tonumber(os.getenv("BATCH") or "20")
local rate = tonumber(os.getenv("RATE") or "300")
local connections = tonumber(os.getenv("CONNECTIONS") or "8")
local pause = rate > 0 and (connections * 1000 / rate) or 0

local kinds = {
  { "events", 20 }, { "hot", 15 }, { "rising", 15 }, { "item", 25 }, { "feed", 15 }, { "follow", 10 },
}
local total_weight = 0
for _, k in ipairs(kinds) do total_weight = total_weight + k[2] end

local json = { ["Content-Type"] = "application/json" }

local function user() return user0 + math.random(1, users) end

local function events_body()
  local parts = {}
  for i = 1, batch do
    local item = math.random(1, items)
    if math.random() < 0.8 then
      parts[i] = '{"biz":"article","itemId":' .. item .. ',"type":"view"}'
    else
      parts[i] = '{"biz":"article","itemId":' .. item .. ',"type":"like","userId":' .. user() .. '}'
    end
  end
  return '{"events":[' .. table.concat(parts, ",") .. ']}'
end

local builders = {
  events = function() return wrk.format("POST", "/api/v1/events", json, events_body()) end,
  hot = function() return wrk.format("GET", "/api/v1/boards/article-hot?limit=20") end,
  rising = function() return wrk.format("GET", "/api/v1/boards/article-rising?limit=20") end,
  item = function()
    return wrk.format("GET", "/api/v1/items/article/" .. (math.floor(items * math.random() ^ 2) + 1))
  end,
  feed = function() return wrk.format("GET", "/api/v1/users/" .. user() .. "/feed?limit=20") end,
  follow = function()
    local method = math.random() < 0.5 and "PUT" or "DELETE"
    return wrk.format(method, "/api/v1/users/" .. user() .. "/following/" .. math.random(1, authors))
  end,
}

-- The kind of a path, for the tally of failures.
local function kind_of(path)
  if path == nil then return "unknown" end
  if path:find("^/api/v1/events") then return "events" end
  if path:find("^/api/v1/boards/article%-hot") then return "hot" end
  if path:find("^/api/v1/boards/article%-rising") then return "rising" end
  if path:find("^/api/v1/items/") then return "item" end
  if path:find("/feed") then return "feed" end
  if path:find("/following/") then return "follow" end
  return "other"
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 1000)
  failures = {} -- global: done() reads each thread's copy
end

function request()
  local r = math.random() * total_weight
  for _, k in ipairs(kinds) do
    r = r - k[2]
    if r <= 0 then return builders[k[1]]() end
  end
  return builders[kinds[#kinds][1]]()
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    local key = status .. "@" .. kind_of(body and body:match('"instance":"([^"]*)"'))
    failures[key] = (failures[key] or 0) + 1
  end
end

function delay()
  return pause
end

function done(summary, latency, requests)
  local tally, non2xx = {}, 0
  for _, thread in ipairs(threads) do
    for key, n in pairs(thread:get("failures") or {}) do
      tally[key] = (tally[key] or 0) + n
      non2xx = non2xx + n
    end
  end
  local keys = {}
  for key, n in pairs(tally) do keys[#keys + 1] = key .. ":" .. n end
  table.sort(keys)
  io.write(string.format(
    "RESULT requests=%d seconds=%.2f non2xx=%d errors=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f failures=%s\n",
    summary.requests, summary.duration / 1e6, non2xx,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    #keys > 0 and table.concat(keys, ",") or "-"))
end
