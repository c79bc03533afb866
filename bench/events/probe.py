"""Fold lag from accept to visible in a board: every INTERVAL seconds, one like on item probe/1
(answered 202), then the board 'probe-liked' is read every 10 ms until it shows the new count.
Prints LAG p50_ms=.. p99_ms=.. max_ms=.. samples=.. after SECONDS seconds."""
import http.client, json, sys, time

port, seconds, interval = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)


def call(method, path, body=None):
    conn.request(method, path, body, {"Content-Type": "application/json"})
    r = conn.getresponse()
    return r.status, r.read()


def likes():
    status, body = call("GET", "/api/v1/boards/probe-liked?limit=1")
    if status != 200:
        return -1
    items = json.loads(body)["items"]
    return int(items[0]["score"]) if items else 0


expected = max(likes(), 0)
lags = []
end = time.time() + seconds
event = json.dumps({"events": [{"biz": "probe", "itemId": 1, "type": "like"}]})
while time.time() < end:
    started = time.time()
    status, _ = call("POST", "/api/v1/events", event)
    if status != 202:
        time.sleep(interval)
        continue
    accepted = time.time()
    expected += 1
    while likes() < expected and time.time() - accepted < 30:
        time.sleep(0.01)
    lags.append((time.time() - accepted) * 1000)
    time.sleep(max(0, interval - (time.time() - started)))
lags.sort()
pick = lambda q: lags[min(len(lags) - 1, int(q * len(lags)))] if lags else float("nan")
print("LAG p50_ms=%.0f p99_ms=%.0f max_ms=%.0f samples=%d" % (pick(0.5), pick(0.99), lags[-1] if lags else float("nan"), len(lags)))
