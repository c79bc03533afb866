"""Lag from accept to visible: every INTERVAL seconds, one like on item probe/1 (answered 202);
then the item is read every 10 ms until its counters show it (the fold lag), then the board
'probe-liked' until it does (the board lag: fold, Redis, publish). After SECONDS seconds prints
LAG p50_ms=.. p99_ms=.. max_ms=.. fold_p50_ms=.. fold_p99_ms=.. samples=.."""
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


def counted():
    status, body = call("GET", "/api/v1/items/probe/1")
    return json.loads(body)["counts"]["like"] if status == 200 else -1


expected = max(likes(), 0)
lags = []
folds = []
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
    while counted() < expected and time.time() - accepted < 30:
        time.sleep(0.01)
    folds.append((time.time() - accepted) * 1000)
    while likes() < expected and time.time() - accepted < 30:
        time.sleep(0.01)
    lags.append((time.time() - accepted) * 1000)
    time.sleep(max(0, interval - (time.time() - started)))
lags.sort()
folds.sort()
pick = lambda xs, q: xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
print("LAG p50_ms=%.0f p99_ms=%.0f max_ms=%.0f fold_p50_ms=%.0f fold_p99_ms=%.0f samples=%d" % (
    pick(lags, 0.5), pick(lags, 0.99), lags[-1] if lags else float("nan"),
    pick(folds, 0.5), pick(folds, 0.99), len(lags)))
