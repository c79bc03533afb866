"""Creates items 1..N of biz 'article' (and item 1 of biz 'probe') through the API, 16 at a time."""
import http.client, json, sys, threading

port, n, threads = int(sys.argv[1]), int(sys.argv[2]), 16


def create(conn, biz, i):
    body = json.dumps({"biz": biz, "id": i, "authorId": 1 + i % 97, "title": "item %d" % i})
    conn.request("POST", "/api/v1/items", body, {"Content-Type": "application/json"})
    r = conn.getresponse()
    r.read()
    if r.status not in (201, 409):
        raise SystemExit("%s %d: HTTP %d" % (biz, i, r.status))


def work(k):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    for i in range(k + 1, n + 1, threads):
        create(conn, "article", i)


create(http.client.HTTPConnection("127.0.0.1", port), "probe", 1)
workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
for w in workers:
    w.start()
for w in workers:
    w.join()
