#!/usr/bin/env python3
"""The item cache's protection scenarios and the hot-key timing, against running instances.

  scenarios.py <scenario> <port> [<port>...]

Scenarios (each prints one line KEY=VALUE ...):
  breakdown <p1> <p2>   200 concurrent reads (100 per instance) of one item no tier holds yet:
                        database queries it cost (from the instances' metrics)
  penetration <p1>      10,000 reads of ids that do not exist: database queries it cost
  burst <p1> <p2> ...   TRIALS bursts on one item each (a new one per trial) against the first
                        instance: time from the burst's start until every instance lists the key
                        under /api/v1/admin/hotkeys; then the share of the burst's reads answered
                        locally once the key was hot
Environment: BIZ (bench), TOKEN (bench-token), TRIALS (20), FIRST_ID (the first id burst: 50000).
"""
import http.client
import os
import sys
import threading
import time

BIZ = os.environ.get("BIZ", "bench")
TOKEN = os.environ.get("TOKEN", "bench-token")


def get(conn, path, headers=None):
    conn.request("GET", path, headers=headers or {})
    r = conn.getresponse()
    body = r.read()
    return r.status, r.getheader("X-Hotrank-Source"), body


def origin_queries(port):
    """Database queries of every item cache on one instance, from /actuator/prometheus."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    _, _, body = get(conn, "/actuator/prometheus")
    total = 0.0
    for line in body.decode().splitlines():
        if line.startswith("hotrank_cache_origin_queries_total"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def queries(ports):
    return sum(origin_queries(p) for p in ports)


def breakdown(ports, item_id):
    before = queries(ports)
    start = threading.Barrier(200)
    statuses = []

    def read(port):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        start.wait()
        statuses.append(get(conn, f"/api/v1/items/{BIZ}/{item_id}")[0])

    threads = [threading.Thread(target=read, args=(ports[i % len(ports)],)) for i in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    bad = sum(1 for s in statuses if s != 200)
    print(f"RESULT reads=200 non200={bad} queries={queries(ports) - before:.0f}")


def penetration(ports, first_absent):
    port = ports[0]
    before = queries(ports)
    conns = {}
    notfound = [0]
    lock = threading.Lock()

    def read(offset):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        n = 0
        for i in range(offset, 10_000, 8):
            status, _, _ = get(conn, f"/api/v1/items/{BIZ}/{first_absent + i}")
            n += status == 404
        with lock:
            notfound[0] += n

    threads = [threading.Thread(target=read, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"RESULT reads=10000 notfound={notfound[0]} queries={queries(ports) - before:.0f}")


def hot_keys(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    _, _, body = get(conn, "/api/v1/admin/hotkeys", {"Authorization": "Bearer " + TOKEN})
    return body.decode()


def burst(ports):
    trials = int(os.environ.get("TRIALS", "20"))
    first = int(os.environ.get("FIRST_ID", "50000"))
    times = []
    local = total = 0
    for trial in range(trials):
        item_id = first + trial
        key = f'"item:{BIZ}:{item_id}"'
        stop = threading.Event()
        hot_at = [None]
        counts = [0, 0]
        lock = threading.Lock()

        def hammer():
            conn = http.client.HTTPConnection("127.0.0.1", ports[0], timeout=10)
            n_local = n = 0
            while not stop.is_set():
                _, source, _ = get(conn, f"/api/v1/items/{BIZ}/{item_id}")
                if hot_at[0] is not None:
                    n += 1
                    n_local += source == "local"
            with lock:
                counts[0] += n_local
                counts[1] += n

        threads = [threading.Thread(target=hammer) for _ in range(8)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        seen = set()
        while len(seen) < len(ports) and time.monotonic() - t0 < 10:
            for p in ports:
                if p not in seen and key in hot_keys(p):
                    seen.add(p)
            time.sleep(0.005)
        elapsed = time.monotonic() - t0
        hot_at[0] = elapsed
        time.sleep(1.0)  # the burst goes on for a second once hot: how is it answered?
        stop.set()
        for t in threads:
            t.join()
        local += counts[0]
        total += counts[1]
        if len(seen) == len(ports):
            times.append(elapsed * 1000)
        time.sleep(0.3)
    times.sort()

    def pct(q):
        return times[min(len(times) - 1, int(round(q * (len(times) - 1))))] if times else -1

    print(f"RESULT trials={trials} pinned={len(times)} p50_ms={pct(0.5):.0f} p99_ms={pct(0.99):.0f}"
          f" max_ms={max(times) if times else -1:.0f} local_share={local / total if total else 0:.4f}"
          f" hot_reads={total}")


if __name__ == "__main__":
    scenario, ports = sys.argv[1], [int(p) for p in sys.argv[2:]]
    if scenario == "breakdown":
        breakdown(ports, int(os.environ.get("ITEM_ID", "77777")))
    elif scenario == "penetration":
        penetration(ports, int(os.environ.get("FIRST_ABSENT", "1000001")))
    elif scenario == "burst":
        burst(ports)
    else:
        sys.exit(__doc__)
