"""Freshness: every INTERVAL seconds a new item of biz BIZ (default 'article') is created, then one
batch of shares (weight 50 on the bench's boards) lifts it above the top of every probed board;
from its 202, each board is read every 10 ms until it shows the item at rank 1, and the item until
its counters show the shares (the fold's part of the time).

BOARDS names the boards as label=path pairs, comma-separated (default
"live=fresh-live,batch=fresh-batch"); a path may hold {tag}: with TAGS=n set, each probe item
carries one tag drawn log-uniformly from t1..tn (as bench/segments.sh tags the items), and {tag} is
that tag, so that a segment board of the probe's tag is read.

After SECONDS seconds prints FRESH fold_p50_ms=.. fold_p99_ms=.. and, per label,
<label>_p50_ms=.. <label>_p99_ms=.. <label>_max_ms=.. <label>_seen=.., then samples=.. (times in
ms from 202 to rank 1; 30 s at most each)."""
import http.client, json, math, os, random, sys, time

port, seconds, interval, first_id = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
BIZ = os.environ.get("BIZ", "article")
BOARDS = dict(pair.split("=", 1) for pair in
              os.environ.get("BOARDS", "live=fresh-live,batch=fresh-batch").split(","))
TAGS = int(os.environ.get("TAGS", "0"))
WEIGHT = 50.0
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)


def call(method, path, body=None):
    conn.request(method, path, body, {"Content-Type": "application/json"})
    r = conn.getresponse()
    return r.status, r.read()


def top(path):
    status, body = call("GET", "/api/v1/boards/%s?limit=1" % path)
    if status != 200:
        return None, 0.0
    items = json.loads(body)["items"]
    return (items[0]["itemId"], items[0]["score"]) if items else (None, 0.0)


def shared(item):
    status, body = call("GET", "/api/v1/items/%s/%d" % (BIZ, item))
    return json.loads(body)["counts"]["share"] if status == 200 else -1


FOLD = "fold"
lags = {label: [] for label in list(BOARDS) + [FOLD]}
item = first_id
end = time.time() + seconds
while time.time() < end:
    started = time.time()
    item += 1
    tag = "t%d" % int(math.exp(random.random() * math.log(TAGS))) if TAGS else ""
    paths = {label: path.replace("{tag}", tag) for label, path in BOARDS.items()}
    status, _ = call("POST", "/api/v1/items", json.dumps(
        {"biz": BIZ, "id": item, "authorId": 1, "title": "probe %d" % item,
         "tags": [tag] if tag else []}))
    if status != 201:
        raise SystemExit("creating probe %d: HTTP %d" % (item, status))
    best = max(top(path)[1] for path in paths.values())
    shares = min(1000, math.ceil((best * 1.2 + 1) / WEIGHT))
    event = {"biz": BIZ, "itemId": item, "type": "share"}
    status, _ = call("POST", "/api/v1/events", json.dumps({"events": [event] * shares}))
    if status != 202:
        time.sleep(interval)
        continue
    accepted = time.time()
    waiting = set(lags)
    while waiting and time.time() - accepted < 30:
        for label in list(waiting):
            if (shared(item) >= shares) if label == FOLD else (top(paths[label])[0] == item):
                lags[label].append((time.time() - accepted) * 1000)
                waiting.discard(label)
        time.sleep(0.01)
    time.sleep(max(0, interval - (time.time() - started)))

pick = lambda xs, q: sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
fields = ["fold_p50_ms=%.0f fold_p99_ms=%.0f" % (pick(lags[FOLD], 0.5), pick(lags[FOLD], 0.99))]
for label in BOARDS:
    xs = lags[label]
    fields.append("%s_p50_ms=%.0f %s_p99_ms=%.0f %s_max_ms=%.0f %s_seen=%d" % (
        label, pick(xs, 0.5), label, pick(xs, 0.99), label, max(xs or [float("nan")]),
        label, len(xs)))
print("FRESH " + " ".join(fields) + " samples=%d" % (item - first_id))
