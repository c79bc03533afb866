"""Seeds the soak (bench/soak.sh) through the API, 16 requests at a time: items 1..ITEMS of biz
'article' by authors 1..AUTHORS (item i by author 1 + (i - 1) % AUTHORS), then each of the users
USER0+1..USER0+USERS follows FOLLOWS distinct authors (PUT /api/v1/users/{u}/following/{a}).

    python3 bench/soak/seed.py PORT ITEMS AUTHORS USER0 USERS FOLLOWS

Exits non-zero when an item is answered other than 201 or a follow other than 204."""
import http.client, json, random, sys, threading

port, items, authors, user0, users, follows = (int(a) for a in sys.argv[1:7])
THREADS = 16


def call(conn, method, path, body, expected):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body, headers)
    r = conn.getresponse()
    text = r.read()
    if r.status != expected:
        raise RuntimeError("%s %s: HTTP %d %s" % (method, path, r.status, text[:300]))


def create_items(k):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    for i in range(k + 1, items + 1, THREADS):
        body = json.dumps({"biz": "article", "id": i, "authorId": 1 + (i - 1) % authors,
                           "title": "soak item %d" % i})
        call(conn, "POST", "/api/v1/items", body, 201)


def create_follows(k):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    for u in range(user0 + 1 + k, user0 + users + 1, THREADS):
        for a in random.Random(u).sample(range(1, authors + 1), min(follows, authors)):
            call(conn, "PUT", "/api/v1/users/%d/following/%d" % (u, a), None, 204)


def run(target):
    failures = []

    def work(k):
        try:
            target(k)
        except Exception as e:  # an exception ends only its thread: tell the main one
            failures.append(e)

    workers = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if failures:
        sys.exit("seeding failed: %s" % failures[0])


run(create_items)
run(create_follows)
