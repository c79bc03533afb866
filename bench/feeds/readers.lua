-- GET /api/v1/users/<u>/feed?limit=LIMIT for readers 1..READERS in turn (each wrk connection
-- walks them from its own start).
local readers = tonumber(os.getenv("READERS") or "64")
local limit = os.getenv("LIMIT") or "20"
local next_reader = math.random(readers)
request = function()
  next_reader = next_reader % readers + 1
  return wrk.format("GET", "/api/v1/users/" .. next_reader .. "/feed?limit=" .. limit)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT requests=%d seconds=%.2f non2xx=%d errors=%d p50_ms=%.2f p99_ms=%.2f\n",
    summary.requests, summary.duration / 1e6, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
