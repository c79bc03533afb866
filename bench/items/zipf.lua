-- GET /api/v1/items/<BIZ>/<id>, ids drawn from Zipf(EXPONENT) over ITEMS items: rank r (id r) is
-- read with weight 1 / r^EXPONENT. The cumulative table is built once per thread.
local items = tonumber(os.getenv("ITEMS") or "100000")
local exponent = tonumber(os.getenv("EXPONENT") or "1.1")
local biz = os.getenv("BIZ") or "bench"
local cdf = {}
local total = 0
for r = 1, items do
  total = total + 1 / r ^ exponent
  cdf[r] = total
end
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 1000)
local function draw()
  local u = math.random() * total
  local lo, hi = 1, items
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cdf[mid] < u then lo = mid + 1 else hi = mid end
  end
  return lo
end
request = function()
  return wrk.format("GET", "/api/v1/items/" .. biz .. "/" .. draw())
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT requests=%d seconds=%.2f non2xx=%d errors=%d p50_ms=%.2f p99_ms=%.2f\n",
    summary.requests, summary.duration / 1e6, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
