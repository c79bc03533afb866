"""Freshness: every INTERVAL seconds a new item of biz 'article' is created, then one batch of
shares (weight 50 on the bench's boards) lifts it above the top of the live board; from its 202,
the live board and the batch board are each read every 10 ms until they show the item at rank 1,
and the item until its counters show the shares (the fold's part of the time).
After SECONDS seconds prints FRESH live_p50_ms=.. live_p99_ms=.. batch_p50_ms=.. batch_p99_ms=..
samples=.. (times in ms from 202 to rank 1; 30 s at most each)."""
import http.client, json, math, sys, time

port, seconds, interval, first_id = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
LIVE, BATCH, WEIGHT = "fresh-live", "fresh-batch", 50.0
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)


def call(method, path, body=None):
    conn.request(method, path, body, {"Content-Type": "application/json"})
    r = conn.getresponse()
    return r.status, r.read()


def top(board):
    status, body = call("GET", "/api/v1/boards/%s?limit=1" % board)
    if status != 200:
        return None, 0.0
    items = json.loads(body)["items"]
    return (items[0]["itemId"], items[0]["score"]) if items else (None, 0.0)


def shared(item):
    status, body = call("GET", "/api/v1/items/article/%d" % item)
    return json.loads(body)["counts"]["share"] if status == 200 else -1


FOLD = "counters"
lags = {LIVE: [], BATCH: [], FOLD: []}
item = first_id
end = time.time() + seconds
while time.time() < end:
    started = time.time()
    item += 1
    status, _ = call("POST", "/api/v1/items", json.dumps(
        {"biz": "article", "id": item, "authorId": 1, "title": "probe %d" % item}))
    if status != 201:
        raise SystemExit("creating probe %d: HTTP %d" % (item, status))
    best = max(top(LIVE)[1], top(BATCH)[1])
    shares = min(1000, math.ceil((best * 1.2 + 1) / WEIGHT))
    event = {"biz": "article", "itemId": item, "type": "share"}
    status, _ = call("POST", "/api/v1/events", json.dumps({"events": [event] * shares}))
    if status != 202:
        time.sleep(interval)
        continue
    accepted = time.time()
    waiting = {LIVE, BATCH, FOLD}
    while waiting and time.time() - accepted < 30:
        for board in list(waiting):
            if (shared(item) >= shares) if board == FOLD else (top(board)[0] == item):
                lags[board].append((time.time() - accepted) * 1000)
                waiting.discard(board)
        time.sleep(0.01)
    time.sleep(max(0, interval - (time.time() - started)))

pick = lambda xs, q: sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
print("FRESH fold_p50_ms=%.0f fold_p99_ms=%.0f " % (pick(lags[FOLD], 0.5), pick(lags[FOLD], 0.99)) +
      "live_p50_ms=%.0f live_p99_ms=%.0f live_max_ms=%.0f batch_p50_ms=%.0f batch_p99_ms=%.0f"
      " batch_max_ms=%.0f samples=%d live_seen=%d batch_seen=%d" % (
          pick(lags[LIVE], 0.5), pick(lags[LIVE], 0.99), max(lags[LIVE] or [float("nan")]),
          pick(lags[BATCH], 0.5), pick(lags[BATCH], 0.99), max(lags[BATCH] or [float("nan")]),
          item - first_id, len(lags[LIVE]), len(lags[BATCH])))
