"""Creates items 1..N of biz 'article' (and item 1 of biz 'probe') through the API, 16 at a time.
Exits non-zero when any creation is answered other than 201 or 409: a run with items missing would
measure 404s."""
import http.client, json, sys, threading

port, n, threads = int(sys.argv[1]), int(sys.argv[2]), 16


def create(conn, biz, i):
    body = json.dumps({"biz": biz, "id": i, "authorId": 1 + i % 97, "title": "item %d" % i})
    conn.request("POST", "/api/v1/items", body, {"Content-Type": "application/json"})
    r = conn.getresponse()
    r.read()
    if r.status not in (201, 409):
        raise RuntimeError("%s %d: HTTP %d" % (biz, i, r.status))


failures = []


def work(k):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    try:
        for i in range(k + 1, n + 1, threads):
            create(conn, "article", i)
    except Exception as e:  # an exception ends only its thread: tell the main one
        failures.append(e)


create(http.client.HTTPConnection("127.0.0.1", port), "probe", 1)
workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
for w in workers:
    w.start()
for w in workers:
    w.join()
if failures:
    sys.exit("seeding failed: %s" % failures[0])
